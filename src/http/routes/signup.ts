// Onboarding without a shell (SIGNUP=off|invite|open): the sign-up mode for the dashboard, open
// sign-up, and accepting an invitation link. Both end signed in (a session, as /auth/login gives).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { rateLimited } from '../rate-limit-headers.ts';
import { clientAddressKey } from '../client-address.ts';
import { acceptInvitation, signUp } from '../../domain/operators/invitations.ts';
import type { AccountRow } from '../../domain/accounts/accounts.ts';
import { errorResponse, invalidInput, json } from '../schemas/common.ts';
import { SessionSchema, SignupInfoSchema } from '../../contract/accounts.ts';
const SIGNUPS_PER_ADDRESS_PER_HOUR = 10;

export const signupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, jwt, rateLimiter, config } = app.services;
  const session = async (account: AccountRow) => {
    const { token, expiresAt } = await jwt.sign(account.id, account.email);
    return { token, user: { id: account.id, email: account.email }, expiresAt: expiresAt.toISOString() };
  };
  const errors = {
    400: invalidInput(['VALIDATION_FAILED', 'WEAK_PASSWORD']),
    403: errorResponse('Sign-up is not open.', ['FORBIDDEN']),
    404: errorResponse('The invitation is unknown, used or expired.', ['NOT_FOUND']),
    409: errorResponse('An account with this email exists.', ['CONFLICT']),
    429: errorResponse('Too many sign-ups from this address.', ['RATE_LIMITED']),
  };

  app.get(
    '/signup',
    {
      schema: {
        tags: ['auth'],
        summary: 'How new users get an account here: off (an operator creates them), invite, or open.',
        response: { 200: json('The sign-up mode.', SignupInfoSchema) },
      },
    },
    async () => ({ mode: config.SIGNUP, startingCredits: config.SIGNUP === 'open' ? config.SIGNUP_CREDITS : 0 }),
  );

  app.post(
    '/signup',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account (SIGNUP=open) with the configured starting credits; returns a session.',
        body: Type.Object(
          {
            email: Type.String({ minLength: 3, maxLength: 254 }),
            password: Type.String({ minLength: 1, maxLength: 256 }),
          },
          { additionalProperties: false },
        ),
        response: { 201: json('The account exists; signed in.', SessionSchema), ...errors },
      },
    },
    async (request, reply) => {
      if (config.SIGNUP === 'open') {
        const decision = await rateLimiter.consume(`signup:ip:${clientAddressKey(request.ip)}`, [
          { name: 'hour', limit: SIGNUPS_PER_ADDRESS_PER_HOUR, seconds: 3600 },
        ]);
        if (!decision.allowed)
          throw rateLimited(
            decision,
            `Too many sign-ups from this address; try again in ${decision.retryAfterSeconds} s.`,
            'signup',
          );
      }
      const account = await signUp(db, request.body, { mode: config.SIGNUP, credits: config.SIGNUP_CREDITS });
      reply.code(201).header('cache-control', 'no-store');
      return session(account);
    },
  );

  app.post(
    '/invitations/accept',
    {
      schema: {
        tags: ['auth'],
        summary: 'Accept an invitation: set the password, get the account and a session. The link works once.',
        body: Type.Object(
          {
            token: Type.String({ minLength: 1, maxLength: 200 }),
            password: Type.String({ minLength: 1, maxLength: 256 }),
          },
          { additionalProperties: false },
        ),
        response: { 201: json('The account exists; signed in.', SessionSchema), ...errors },
      },
    },
    async (request, reply) => {
      const account = await acceptInvitation(db, request.body);
      reply.code(201).header('cache-control', 'no-store');
      return session(account);
    },
  );
};
