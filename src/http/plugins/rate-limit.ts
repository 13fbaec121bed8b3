// Per-account rate limiting of the routes marked config.rateLimited, in onRequest right after
// authentication (it needs the account for its overrides) and before the body is parsed. A
// rejected request consumes none of the windows (see infra/ratelimit/rate-limiter.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../errors.ts';
import { effectiveRateLimits } from '../../domain/accounts/accounts.ts';
import { accountBucket, accountWindows, defaultRateLimits } from '../../domain/limits/windows.ts';
import type { RateLimitDecision } from '../../infra/ratelimit/rate-limiter.ts';

function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  // IETF draft-ietf-httpapi-ratelimit-headers: one policy item per window.
  const headers: Record<string, string> = {
    'ratelimit-policy': decision.windows.map((w) => `"${w.name}";q=${w.limit};w=${w.seconds}`).join(', '),
    ratelimit: decision.windows.map((w) => `"${w.name}";r=${w.remaining};t=${w.resetSeconds}`).join(', '),
  };
  if (!decision.allowed) headers['retry-after'] = String(decision.retryAfterSeconds);
  return headers;
}

export const rateLimit = fp(async (app: FastifyInstance) => {
  const { rateLimiter, config } = app.services;
  const defaults = defaultRateLimits(config);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const account = request.account;
    // No account: the route needs no authentication (or it failed, and the request is answered).
    if (!request.routeOptions.config?.rateLimited || !account) return;
    const decision = await rateLimiter.consume(accountBucket(account.id), accountWindows(effectiveRateLimits(account, defaults)));
    reply.headers(rateLimitHeaders(decision));
    if (!decision.allowed) {
      const blocking = decision.windows.filter((w) => w.remaining === 0).map((w) => `${w.limit} per ${w.name}`);
      throw new AppError('RATE_LIMITED', `Rate limit exceeded (${blocking.join(', ')}); retry in ${decision.retryAfterSeconds} s. Limits apply per account across all its keys.`, { headers: rateLimitHeaders(decision) });
    }
  });
}, { name: 'rate-limit', dependencies: ['authenticate'] });
