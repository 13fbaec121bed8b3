import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { createApiKey, keyUsage, listApiKeys, revokeApiKey } from '../../domain/keys/api-keys.ts';
import { ALL_SCOPES, KEY_SCOPES } from '../../domain/keys/scopes.ts';
import { callerOf } from '../plugins/authenticate.ts';
import { authErrors, errorResponse, invalidInput, json } from '../schemas/common.ts';
import { ApiKeySchema, CreatedKeySchema } from '../../contract/accounts.ts';
import { KeyUsageSchema } from '../schemas/credits.ts';

const ScopeSchema = Type.Union(ALL_SCOPES.map((s) => Type.Literal(s)));

export const keyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, auth, clock } = app.services;
  // Key management needs a dashboard session (docs/spec.md, security commitments): a leaked API key must not mint or revoke keys.
  const config = { auth: 'session' } as const;

  app.post(
    '/keys',
    {
      config,
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
                description: `What the key may do; every scope when omitted. ${ALL_SCOPES.map((s) => `${s}: ${KEY_SCOPES[s]}`).join(' ')}`,
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
    },
    async (request, reply) => {
      const { name, scopes, expiresAt } = request.body;
      const created = await createApiKey(db, callerOf(request).accountId, name, {
        scopes,
        expiresAt,
        now: clock(),
      });
      reply.code(201).header('cache-control', 'no-store');
      return created;
    },
  );

  app.get(
    '/keys',
    {
      config,
      schema: {
        tags: ['keys'],
        summary: "List the account's API keys (never their secrets).",
        security: [{ bearer: [] }],
        response: {
          200: json('The keys, newest first, without secrets.', Type.Object({ keys: Type.Array(ApiKeySchema) })),
          ...authErrors(),
        },
      },
    },
    async (request) => ({ keys: await listApiKeys(db, callerOf(request).accountId) }),
  );

  app.get(
    '/keys/usage',
    {
      config,
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
    },
    async (request) => ({
      days: request.query.days,
      keys: await keyUsage(db, callerOf(request).accountId, request.query.days, new Date(clock())),
    }),
  );

  app.delete(
    '/keys/:id',
    {
      config,
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
    },
    async (request) => {
      const { keyHash, ...view } = await revokeApiKey(db, callerOf(request).accountId, request.params.id);
      await auth.revoked(keyHash);
      return view;
    },
  );
};
