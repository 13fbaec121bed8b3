// Per-account rate limiting, in onRequest right after authentication (it needs the account for its
// overrides) and before the body is parsed. A rejected request consumes none of the windows (see
// infra/ratelimit/rate-limiter.ts).
//
// Two limiters: the routes marked config.rateLimited (the metered calls: shorts requests, batches,
// watch creations and manual checks) count in the account's minute/hour/day windows
// (RATE_LIMIT_PER_*); every other call made with the account's credential counts in its read window
// (READ_RATE_LIMIT_PER_MINUTE), so reads — stored result pages, the ledger's CSV, the requests log —
// cannot be hammered without limit either (ten-thousand-row CSV exports were
// unlimited), while the dashboard's calls never take from the metered windows.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { effectiveRateLimits } from '../../domain/accounts/accounts.ts';
import {
  accountBucket,
  accountWindows,
  defaultRateLimits,
  readBucket,
  readsPerMinute,
  readWindows,
} from '../../domain/limits/windows.ts';
import { enforceLimit } from '../rate-limit-headers.ts';
import { errorResponse, failureResponse } from '../schemas/responses.ts';

/** An account's metered windows (minute, hour, day) and the bucket they count in. */
export function meteredLimitOf(
  config: Parameters<typeof defaultRateLimits>[0],
  account: Parameters<typeof effectiveRateLimits>[0] & { id: string },
) {
  return {
    bucket: accountBucket(account.id),
    windows: accountWindows(effectiveRateLimits(account, defaultRateLimits(config))),
  };
}

/**
 * Counts a call in its account's metered windows (minute, hour, day); past a limit, 429 with the
 * RateLimit headers. Routes marked rateLimited are counted by the plugin; a call that is metered
 * only in some forms (resuming a watch checks it at once) counts itself.
 */
export function countMeteredCall(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const { rateLimiter, config } = request.server.services;
  return enforceLimit(rateLimiter, reply, {
    ...meteredLimitOf(config, request.account!),
    message: (decision) => {
      const blocking = decision.windows.filter((w) => w.remaining === 0).map((w) => `${w.limit} per ${w.name}`);
      return (
        `Rate limit exceeded (${blocking.join(', ')}); retry in ${decision.retryAfterSeconds} s. ` +
        'Limits apply per account across all its keys.'
      );
    },
  });
}

export const rateLimit = fp(
  async (app: FastifyInstance) => {
    const { rateLimiter, config } = app.services;
    const defaults = defaultRateLimits(config);

    // The read window's 429 is documented on every route it applies to (whatever this instance's
    // setting: the document is the same for every deployment).
    app.addHook('onRoute', (route: RouteOptions) => {
      const response = route.schema?.response as Record<string, { description?: string } | undefined> | undefined;
      if (!route.config?.auth || route.config.rateLimited || route.config.innerCallsCounted || !response) return;
      const why =
        'Too many calls outside the metered routes: READ_RATE_LIMIT_PER_MINUTE per account (600 by default, and ' +
        'at least ten times its own minute limit; see Retry-After and the RateLimit headers, policy "read-minute").';
      const own = response[429];
      // A route with a limit of its own (redeliveries, test events, rotations) keeps its wording, and says this too.
      if (own) response[429] = { ...own, description: `${own.description ?? ''} Or: ${why}`.trim() };
      else response[429] = (route.config.failureBody ? failureResponse : errorResponse)(why, ['RATE_LIMITED']);
    });

    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const account = request.account;
      // No account: the route needs no authentication (or it failed, and the request is answered).
      if (!account || request.routeOptions.config?.innerCallsCounted) return;
      if (request.routeOptions.config?.rateLimited) return countMeteredCall(request, reply);
      const reads = readWindows(readsPerMinute(config, effectiveRateLimits(account, defaults)));
      if (reads.length === 0) return;
      await enforceLimit(rateLimiter, reply, {
        bucket: readBucket(account.id),
        windows: reads,
        scope: 'read',
        message: (decision) =>
          `Too many calls: at most ${reads[0]!.limit} per minute outside the metered routes, per account across ` +
          `all its keys; retry in ${decision.retryAfterSeconds} s.`,
      });
    });
  },
  { name: 'rate-limit', dependencies: ['authenticate'] },
);
