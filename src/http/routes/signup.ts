// Onboarding without a shell (SIGNUP=off|invite|open): the sign-up mode for the dashboard, open
// sign-up, and accepting an invitation link. Accepting an invitation ends signed in (a session, as
// /auth/login gives); open sign-up answers the same for a new and a registered email, without a
// session, and the new user signs in with the password just chosen.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../services.ts';
import { rateLimited } from '../rate-limit-headers.ts';
import { clientAddressKey } from '../client-address.ts';
import { acceptInvitation as acceptUserInvitation, signUp as signUpUser } from '../../domain/operators/invitations.ts';
import type { AccountRow } from '../../domain/accounts/accounts.ts';
import { errorResponse, invalidInput, json } from '../schemas/common.ts';
import { SessionSchema, SignupAcceptedSchema, SignupInfoSchema } from '../../contract/accounts.ts';
import type { ReplyOf, RequestOf } from '../types.ts';

const SIGNUPS_PER_ADDRESS_PER_HOUR = 10;
const SIGNUPS_PER_ADDRESS_PER_DAY = 20;
const SIGNUP_ACCEPTED = { message: 'Sign in with this email and password (POST /auth/login).' };

export const signupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({ ...signupModeRoute, handler: signupMode });
  app.route({ ...signUpRoute, handler: signUp });
  app.route({ ...acceptInvitationRoute, handler: acceptInvitation });
};

const errors = {
  400: invalidInput(['VALIDATION_FAILED', 'WEAK_PASSWORD']),
  403: errorResponse('Sign-up is not open.', ['FORBIDDEN']),
  404: errorResponse('The invitation is unknown, used or expired.', ['NOT_FOUND']),
  429: errorResponse('Too many sign-ups from this address.', ['RATE_LIMITED']),
};
const invitationErrors = {
  ...errors,
  409: errorResponse('An account with this email exists.', ['CONFLICT']),
};

/** What signing up and accepting an invitation answer: a session, as /auth/login gives. */
async function session({ jwt }: Services, account: AccountRow) {
  const { token, expiresAt } = await jwt.sign(account.id, account.email);
  return { token, user: { id: account.id, email: account.email }, expiresAt: expiresAt.toISOString() };
}

const signupModeRoute = {
  method: 'GET',
  url: '/signup',
  schema: {
    tags: ['auth'],
    summary: 'How new users get an account here: off (an operator creates them), invite, or open.',
    response: { 200: json('The sign-up mode.', SignupInfoSchema) },
  },
} as const;

async function signupMode(request: RequestOf<typeof signupModeRoute.schema>) {
  const { config } = request.server.services;
  return { mode: config.SIGNUP, startingCredits: config.SIGNUP === 'open' ? config.SIGNUP_CREDITS : 0 };
}

const signUpRoute = {
  method: 'POST',
  url: '/signup',
  schema: {
    tags: ['auth'],
    summary: 'Create an account (SIGNUP=open); then sign in with POST /auth/login.',
    description:
      'The configured starting credits go to the first account of a mailbox (another case, a +tag, a trailing ' +
      'dot or look-alike characters are the same mailbox). The answer is the same whether the email is new or ' +
      'already has an account (which is left unchanged): sign in with the password to know. At most ' +
      `${SIGNUPS_PER_ADDRESS_PER_HOUR} sign-ups an hour and ${SIGNUPS_PER_ADDRESS_PER_DAY} a day per client address.`,
    body: Type.Object(
      {
        email: Type.String({ minLength: 3, maxLength: 254 }),
        password: Type.String({ minLength: 1, maxLength: 256 }),
      },
      { additionalProperties: false },
    ),
    response: { 202: json('Taken: sign in with this email and password.', SignupAcceptedSchema), ...errors },
  },
} as const;

async function signUp(request: RequestOf<typeof signUpRoute.schema>, reply: ReplyOf<typeof signUpRoute.schema>) {
  const { services } = request.server;
  const { db, rateLimiter, config } = services;
  if (config.SIGNUP === 'open') {
    const decision = await rateLimiter.consume(`signup:ip:${clientAddressKey(request.ip)}`, [
      { name: 'hour', limit: SIGNUPS_PER_ADDRESS_PER_HOUR, seconds: 3600 },
      { name: 'day', limit: SIGNUPS_PER_ADDRESS_PER_DAY, seconds: 86_400 },
    ]);
    if (!decision.allowed)
      throw rateLimited(
        decision,
        `Too many sign-ups from this address; try again in ${decision.retryAfterSeconds} s.`,
        'signup',
      );
  }
  await signUpUser({ db, rateLimiter }, request.body, { mode: config.SIGNUP, credits: config.SIGNUP_CREDITS });
  reply.code(202).header('cache-control', 'no-store');
  return SIGNUP_ACCEPTED;
}

const acceptInvitationRoute = {
  method: 'POST',
  url: '/invitations/accept',
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
    response: { 201: json('The account exists; signed in.', SessionSchema), ...invitationErrors },
  },
} as const;

async function acceptInvitation(
  request: RequestOf<typeof acceptInvitationRoute.schema>,
  reply: ReplyOf<typeof acceptInvitationRoute.schema>,
) {
  const { services } = request.server;
  const account = await acceptUserInvitation(services.db, request.body);
  reply.code(201).header('cache-control', 'no-store');
  return session(services, account);
}
