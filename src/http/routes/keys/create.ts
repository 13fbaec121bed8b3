// POST /keys: a new API key; its secret is in this answer only.
import { Type } from 'typebox';
import { createApiKey } from '../../../domain/keys/api-keys.ts';
import { ALL_SCOPES, KEY_SCOPES } from '../../../domain/keys/scopes.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { authErrors, errorResponse, invalidInput, json } from '../../schemas/common.ts';
import { CreatedKeySchema } from '../../../contract/accounts.ts';
import type { ReplyOf, RequestOf } from '../../types.ts';
import { sessionOnly } from './common.ts';

const ScopeSchema = Type.Union(ALL_SCOPES.map((s) => Type.Literal(s)));

export const createKeyRoute = {
  method: 'POST',
  url: '/keys',
  config: { ...sessionOnly, idempotent: true },
  schema: {
    tags: ['keys'],
    summary: 'Create an API key. The secret is in this response only; store it now.',
    security: [{ bearer: [] }],
    body: Type.Object(
      {
        name: Type.String({
          minLength: 1,
          maxLength: 100,
          description: 'A descriptive name, e.g. "production backend".',
        }),
        scopes: Type.Optional(
          Type.Array(ScopeSchema, {
            minItems: 1,
            maxItems: ALL_SCOPES.length * 2,
            description:
              'What the key may do; every scope when ' +
              `omitted. ${ALL_SCOPES.map((s) => `${s}: ${KEY_SCOPES[s]}`).join(' ')}`,
          }),
        ),
        expiresAt: Type.Optional(
          Type.String({
            format: 'date-time',
            description:
              'The key stops working at this time (in the future, at most 5 years ahead); never when omitted.',
          }),
        ),
      },
      {
        additionalProperties: false,
        examples: [{ name: 'production backend', scopes: ['shorts:write', 'shorts:read'] }],
      },
    ),
    response: {
      201: json('The key with its secret (shown once).', CreatedKeySchema),
      400: invalidInput(),
      409: errorResponse('The account holds the most active keys it may; revoke one first.', ['CONFLICT']),
      ...authErrors(),
    },
  },
} as const;

export async function createKey(
  request: RequestOf<typeof createKeyRoute.schema>,
  reply: ReplyOf<typeof createKeyRoute.schema>,
) {
  const { db, clock } = request.server.services;
  const { name, scopes, expiresAt } = request.body;
  const created = await createApiKey(db, callerOf(request).accountId, name, { scopes, expiresAt, now: clock() });
  reply.code(201).header('cache-control', 'no-store');
  return created;
}
