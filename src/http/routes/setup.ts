// POST /setup: the first operator of a service without users, from the one-time setup link the
// service prints at start (domain/operators/first-operator.ts). Answers a session, as /auth/login
// does; once any user exists, 409 ALREADY_SET_UP.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponse, invalidInput, json } from '../schemas/common.ts';
import { SessionSchema } from '../../contract/accounts.ts';
import type { ReplyOf, RequestOf } from '../types.ts';

export const setupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({ ...completeSetupRoute, handler: completeSetup });
};

const completeSetupRoute = {
  method: 'POST',
  url: '/setup',
  schema: {
    tags: ['auth'],
    summary:
      'Create the first operator with the one-time setup link the service prints at start while it has no users; ' +
      'returns a session.',
    body: Type.Object(
      {
        token: Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'The token of the setup link (…/dashboard/setup?token=…).',
        }),
        email: Type.String({ minLength: 3, maxLength: 254 }),
        password: Type.String({ minLength: 1, maxLength: 256 }),
      },
      {
        additionalProperties: false,
        examples: [{ token: 'cssetup_…', email: 'you@example.com', password: 'a long passphrase' }],
      },
    ),
    response: {
      201: json('The first operator exists; signed in.', SessionSchema),
      400: invalidInput(['VALIDATION_FAILED', 'WEAK_PASSWORD']),
      401: errorResponse('The token is not the setup link’s.', ['INVALID_SETUP_TOKEN']),
      409: errorResponse('The service has users already: it is set up.', ['ALREADY_SET_UP']),
    },
  },
} as const;

async function completeSetup(
  request: RequestOf<typeof completeSetupRoute.schema>,
  reply: ReplyOf<typeof completeSetupRoute.schema>,
) {
  const { firstOperator, jwt } = request.server.services;
  const account = await firstOperator.complete(request.body);
  const { token, expiresAt } = await jwt.sign(account.id, account.email);
  reply.code(201).header('cache-control', 'no-store');
  return { token, user: { id: account.id, email: account.email }, expiresAt: expiresAt.toISOString() };
}
