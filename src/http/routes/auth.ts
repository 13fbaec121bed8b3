// POST /auth/login: email and password for a dashboard session, brute-force limited per email and
// address (domain/auth/login-throttle.ts); POST /auth/session renews a session.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { clientAddressKey } from '../client-address.ts';
import { findAccountByEmail, normaliseEmail } from '../../domain/accounts/accounts.ts';
import { burnPasswordCheck, verifyPassword } from '../../domain/accounts/passwords.ts';
import { errorResponse, invalidInput, json } from '../schemas/common.ts';
import { SessionSchema } from '../../contract/accounts.ts';
import type { ReplyOf, RequestOf } from '../types.ts';

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({ ...loginRoute, handler: login });
  app.route({ ...renewRoute, handler: renew });
};

const renewRoute = {
  method: 'POST',
  url: '/auth/session',
  config: { auth: 'session' },
  schema: {
    tags: ['auth'],
    summary:
      'Renew a dashboard session: a new session JWT valid for JWT_TTL_SECONDS from now. The dashboard renews ' +
      'while its user is active; API keys may not use it.',
    security: [{ bearer: [] }],
    response: {
      200: json('A new session JWT for the same user.', SessionSchema),
      401: errorResponse('Missing, invalid or expired session.', ['UNAUTHORIZED', 'TOKEN_EXPIRED']),
      403: errorResponse('An API key, or a disabled account.', ['FORBIDDEN']),
    },
  },
} as const;

async function renew(request: FastifyRequest, reply: FastifyReply) {
  const account = request.account!;
  const { token, expiresAt } = await request.server.services.jwt.sign(account.id, account.email);
  reply.header('cache-control', 'no-store');
  return { token, user: { id: account.id, email: account.email }, expiresAt: expiresAt.toISOString() };
}

const loginRoute = {
  method: 'POST',
  url: '/auth/login',
  schema: {
    tags: ['auth'],
    summary: 'Log in with email and password; returns a session JWT for the dashboard.',
    body: Type.Object(
      {
        email: Type.String({ minLength: 3, maxLength: 254 }),
        password: Type.String({ minLength: 1, maxLength: 256 }),
      },
      {
        additionalProperties: false,
        examples: [{ email: 'ada@example.com', password: 'correct horse battery staple' }],
      },
    ),
    response: {
      200: json('Signed in: a session JWT for the dashboard.', SessionSchema),
      400: invalidInput(),
      401: errorResponse('Wrong email or password.', ['INVALID_CREDENTIALS']),
      403: errorResponse('The account is disabled.', ['FORBIDDEN']),
      429: errorResponse(
        'Too many failed attempts for this email from this address (or from this address overall); see Retry-After.',
        ['TOO_MANY_LOGIN_ATTEMPTS'],
      ),
      503: errorResponse('Too many logins are being checked at once, or a backing store is down; see Retry-After.', [
        'SERVICE_UNAVAILABLE',
      ]),
    },
  },
} as const;

async function login(request: RequestOf<typeof loginRoute.schema>, reply: ReplyOf<typeof loginRoute.schema>) {
  const { db, jwt, loginThrottle, passwordGate } = request.server.services;
  const email = normaliseEmail(request.body.email);
  // Counted before the password is checked, atomically (see login-throttle.ts).
  const verdict = await loginThrottle.begin(email, clientAddressKey(request.ip));
  if (!verdict.allowed) {
    throw new AppError(
      'TOO_MANY_LOGIN_ATTEMPTS',
      `Too many failed login attempts; try again in ${verdict.retryAfterSeconds} s.`,
      { headers: { 'retry-after': String(verdict.retryAfterSeconds) } },
    );
  }
  const account = await findAccountByEmail(db, email);
  let valid: boolean;
  try {
    valid = await passwordGate.run(async () =>
      account
        ? verifyPassword(account.password_hash, request.body.password)
        : burnPasswordCheck(request.body.password).then(() => false),
    );
  } catch (error) {
    // Refused before the password was checked (503): the attempt does not count.
    await verdict.attempt.release();
    throw error;
  }
  await verdict.attempt.settle(Boolean(account && valid));
  if (!account || !valid) throw new AppError('INVALID_CREDENTIALS');
  if (account.disabled_at) throw new AppError('FORBIDDEN', 'This account is disabled; contact support.');
  const { token, expiresAt } = await jwt.sign(account.id, account.email);
  // A credential: kept by no cache, as /signup and /invitations/accept answer the same body.
  reply.header('cache-control', 'no-store');
  return { token, user: { id: account.id, email: account.email }, expiresAt: expiresAt.toISOString() };
}
