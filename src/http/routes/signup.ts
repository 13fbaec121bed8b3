// Onboarding without a shell (SIGNUP=off|invite|open): the sign-up mode for the dashboard, open
// sign-up, and accepting an invitation link. Both end signed in (a session, as /auth/login gives).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { acceptInvitation, signUp } from '../../domain/operators/invitations.ts';
import type { AccountRow } from '../../domain/accounts/accounts.ts';
import { ErrorBody } from '../schemas/common.ts';

const Session = Type.Object({ token: Type.String(), user: Type.Object({ id: Type.String(), email: Type.String() }), expiresAt: Type.String({ format: 'date-time' }) });
const SIGNUPS_PER_ADDRESS_PER_HOUR = 10;

export const signupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, jwt, rateLimiter, config } = app.services;
  const session = async (account: AccountRow) => {
    const { token, expiresAt } = await jwt.sign(account.id, account.email);
    return { token, user: { id: account.id, email: account.email }, expiresAt: expiresAt.toISOString() };
  };
  const errors = {
    400: ErrorBody,
    403: { ...ErrorBody, description: 'Sign-up is not open.' },
    404: { ...ErrorBody, description: 'The invitation is unknown, used or expired.' },
    409: { ...ErrorBody, description: 'An account with this email exists.' },
    429: { ...ErrorBody, description: 'Too many sign-ups from this address.' },
  };

  app.get('/signup', {
    schema: { tags: ['auth'], summary: 'How new users get an account here: off (an operator creates them), invite, or open.', response: { 200: Type.Object({ mode: Type.Union([Type.Literal('off'), Type.Literal('invite'), Type.Literal('open')]), startingCredits: Type.Integer() }) } },
  }, async () => ({ mode: config.SIGNUP, startingCredits: config.SIGNUP === 'open' ? config.SIGNUP_CREDITS : 0 }));

  app.post('/signup', {
    schema: {
      tags: ['auth'],
      summary: 'Create an account (SIGNUP=open) with the configured starting credits; returns a session.',
      body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false }),
      response: { 201: Session, ...errors },
    },
  }, async (request, reply) => {
    if (config.SIGNUP === 'open') {
      const decision = await rateLimiter.consume(`signup:ip:${request.ip}`, [{ name: 'hour', limit: SIGNUPS_PER_ADDRESS_PER_HOUR, seconds: 3600 }]);
      if (!decision.allowed) throw new AppError('RATE_LIMITED', `Too many sign-ups from this address; try again in ${decision.retryAfterSeconds} s.`, { headers: { 'retry-after': String(decision.retryAfterSeconds) } });
    }
    const account = await signUp(db, request.body, { mode: config.SIGNUP, credits: config.SIGNUP_CREDITS });
    reply.code(201).header('cache-control', 'no-store');
    return session(account);
  });

  app.post('/invitations/accept', {
    schema: {
      tags: ['auth'],
      summary: 'Accept an invitation: set the password, get the account and a session. The link works once.',
      body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }), password: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false }),
      response: { 201: Session, ...errors },
    },
  }, async (request, reply) => {
    const account = await acceptInvitation(db, request.body);
    reply.code(201).header('cache-control', 'no-store');
    return session(account);
  });
};
