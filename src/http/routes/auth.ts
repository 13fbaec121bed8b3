import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { findAccountByEmail, normaliseEmail } from '../../domain/accounts/accounts.ts';
import { burnPasswordCheck, verifyPassword } from '../../domain/accounts/passwords.ts';
import { ErrorBody } from '../schemas/common.ts';

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, jwt, rateLimiter, config } = app.services;
  // Failed attempts are counted per email and (more loosely) per client address.
  const windows = (limit: number) => [{ name: 'login', limit, seconds: config.LOGIN_WINDOW_SECONDS }];

  app.post('/auth/login', {
    schema: {
      tags: ['auth'],
      summary: 'Log in with email and password; returns a session JWT for the dashboard.',
      body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false }),
      response: {
        200: Type.Object({ token: Type.String(), user: Type.Object({ id: Type.String(), email: Type.String() }), expiresAt: Type.String({ format: 'date-time' }) }),
        400: ErrorBody,
        401: { ...ErrorBody, description: 'Wrong email or password.' },
        429: { ...ErrorBody, description: 'Too many failed attempts for this email or address.' },
      },
    },
  }, async (request) => {
    const email = normaliseEmail(request.body.email);
    const buckets = [
      { key: `login:email:${email}`, limit: config.LOGIN_MAX_FAILURES },
      { key: `login:ip:${request.ip}`, limit: config.LOGIN_MAX_FAILURES * 4 },
    ];
    for (const bucket of buckets) {
      const state = await rateLimiter.peek(bucket.key, windows(bucket.limit));
      if (!state.allowed) {
        throw new AppError('TOO_MANY_LOGIN_ATTEMPTS', `Too many failed login attempts; try again in ${state.retryAfterSeconds} s.`, { headers: { 'retry-after': String(state.retryAfterSeconds) } });
      }
    }
    const account = await findAccountByEmail(db, email);
    const valid = account ? await verifyPassword(account.password_hash, request.body.password) : (await burnPasswordCheck(request.body.password), false);
    if (!account || !valid) {
      for (const bucket of buckets) await rateLimiter.consume(bucket.key, windows(bucket.limit));
      throw new AppError('INVALID_CREDENTIALS');
    }
    if (account.disabled_at) throw new AppError('FORBIDDEN', 'This account is disabled; contact support.');
    const { token, expiresAt } = await jwt.sign(account.id, account.email);
    return { token, user: { id: account.id, email: account.email }, expiresAt: expiresAt.toISOString() };
  });
};
