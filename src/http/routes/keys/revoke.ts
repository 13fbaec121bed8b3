// DELETE /keys/:id: a key revoked, on every instance within a second (the credential caches are told).
import { Type } from 'typebox';
import { revokeApiKey } from '../../../domain/keys/api-keys.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { authErrors, errorResponse, invalidInput, json } from '../../schemas/common.ts';
import { ApiKeySchema } from '../../../contract/accounts.ts';
import type { RequestOf } from '../../types.ts';
import { sessionOnly } from './common.ts';

export const revokeKeyRoute = {
  method: 'DELETE',
  url: '/keys/:id',
  config: sessionOnly,
  schema: {
    tags: ['keys'],
    summary: 'Revoke an API key. Effective on every instance within a second.',
    security: [{ bearer: [] }],
    params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
    response: {
      200: json('The revoked key.', ApiKeySchema),
      400: invalidInput(),
      404: errorResponse('No such key on this account.', ['NOT_FOUND']),
      ...authErrors(),
    },
  },
} as const;

export async function revokeKey(request: RequestOf<typeof revokeKeyRoute.schema>) {
  const { db, auth } = request.server.services;
  const { keyHash, ...view } = await revokeApiKey(db, callerOf(request).accountId, request.params.id);
  await auth.revoked(keyHash);
  return view;
}
