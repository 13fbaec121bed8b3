// Bearer authentication and per-account rate limiting, in onRequest so rejected calls cost no
// body parsing. Order matches the design: authenticate → rate limit → validate.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../errors.ts';
import { effectiveRateLimits, getAccount, type AccountRow } from '../../domain/accounts/accounts.ts';
import type { RateLimitDecision } from '../../infra/ratelimit/rate-limiter.ts';

const ACCOUNT_CACHE_MS = 1000;

export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  // IETF draft-ietf-httpapi-ratelimit-headers: one policy item per window.
  const headers: Record<string, string> = {
    'ratelimit-policy': decision.windows.map((w) => `"${w.name}";q=${w.limit};w=${w.seconds}`).join(', '),
    ratelimit: decision.windows.map((w) => `"${w.name}";r=${w.remaining};t=${w.resetSeconds}`).join(', '),
  };
  if (!decision.allowed) headers['retry-after'] = String(decision.retryAfterSeconds);
  return headers;
}

export const authenticate = fp(async (app: FastifyInstance) => {
  const { auth, db, rateLimiter, config } = app.services;
  const accounts = new Map<string, { row: AccountRow | undefined; expiresAt: number }>();
  const loadAccount = async (id: string) => {
    const hit = accounts.get(id);
    if (hit && hit.expiresAt > Date.now()) return hit.row;
    const row = await getAccount(db, id);
    if (accounts.size > 10_000) accounts.clear();
    accounts.set(id, { row, expiresAt: Date.now() + ACCOUNT_CACHE_MS });
    return row;
  };
  const defaults = { perMinute: config.RATE_LIMIT_PER_MINUTE, perHour: config.RATE_LIMIT_PER_HOUR, perDay: config.RATE_LIMIT_PER_DAY };

  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const routeConfig = request.routeOptions.config;
    if (!routeConfig?.auth) return;
    const caller = await auth.authenticate(request.headers.authorization);
    const account = await loadAccount(caller.accountId);
    if (!account) throw new AppError('UNAUTHORIZED', 'The account behind this credential no longer exists.');
    if (account.disabled_at) throw new AppError('FORBIDDEN', 'This account is disabled; contact support.');
    if (routeConfig.auth === 'session' && caller.via !== 'session') throw new AppError('FORBIDDEN', 'This resource needs a dashboard session (log in with POST /auth/login); API keys may not use it.');
    if (routeConfig.scope && caller.scopes && !caller.scopes.includes(routeConfig.scope)) {
      throw new AppError('FORBIDDEN', `This API key lacks the scope "${routeConfig.scope}"; create a key with it in the dashboard.`);
    }
    request.caller = caller;
    if (!routeConfig.rateLimited) return;
    const limits = effectiveRateLimits(account, defaults);
    const decision = await rateLimiter.consume(`account:${account.id}`, [
      { name: 'minute', limit: limits.perMinute, seconds: 60 },
      { name: 'hour', limit: limits.perHour, seconds: 3600 },
      { name: 'day', limit: limits.perDay, seconds: 86_400 },
    ]);
    reply.headers(rateLimitHeaders(decision));
    if (!decision.allowed) {
      const blocking = decision.windows.filter((w) => w.remaining === 0).map((w) => `${w.limit} per ${w.name}`);
      throw new AppError('RATE_LIMITED', `Rate limit exceeded (${blocking.join(', ')}); retry in ${decision.retryAfterSeconds} s. Limits apply per account across all its keys.`, { headers: rateLimitHeaders(decision) });
    }
  });
});

/** The authenticated caller; routes with config.auth always have one. */
export function callerOf(request: FastifyRequest) {
  if (!request.caller) throw new AppError('UNAUTHORIZED');
  return request.caller;
}
