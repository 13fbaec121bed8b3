// The account's API keys (never their secrets), and what each has used.
import { Type } from 'typebox';
import { keyUsage as readKeyUsage, listApiKeys } from '../../../domain/keys/api-keys.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { authErrors, invalidInput, json } from '../../schemas/common.ts';
import { ApiKeySchema } from '../../../contract/accounts.ts';
import { KeyUsageSchema } from '../../schemas/credits.ts';
import type { RequestOf } from '../../types.ts';
import { sessionOnly } from './common.ts';

export const listKeysRoute = {
  method: 'GET',
  url: '/keys',
  config: sessionOnly,
  schema: {
    tags: ['keys'],
    summary: "List the account's API keys (never their secrets).",
    security: [{ bearer: [] }],
    response: {
      200: json('The keys, newest first, without secrets.', Type.Object({ keys: Type.Array(ApiKeySchema) })),
      ...authErrors(),
    },
  },
} as const;

export async function listKeys(request: RequestOf<typeof listKeysRoute.schema>) {
  return { keys: await listApiKeys(request.server.services.db, callerOf(request).accountId) };
}

export const keyUsageRoute = {
  method: 'GET',
  url: '/keys/usage',
  config: sessionOnly,
  schema: {
    tags: ['keys'],
    summary: 'Requests and credits charged per key over the last days (30 by default), busiest first.',
    security: [{ bearer: [] }],
    querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 366, default: 30 }) }),
    response: {
      200: json('Requests and credits per key, busiest first.', KeyUsageSchema),
      400: invalidInput(),
      ...authErrors(),
    },
  },
} as const;

export async function keyUsage(request: RequestOf<typeof keyUsageRoute.schema>) {
  const { db, clock } = request.server.services;
  return {
    days: request.query.days,
    keys: await readKeyUsage(db, callerOf(request).accountId, request.query.days, new Date(clock())),
  };
}
