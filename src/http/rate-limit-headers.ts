// The IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers), one policy item per window,
// for every limiter a client can meet: the account's metered windows, its read window, and the
// per-action limits (redeliveries, test events, secret rotations, sign-ups). Every 429
// RATE_LIMITED carries them with Retry-After, as README's Errors promise (the
// per-action refusals had Retry-After only).
import { AppError } from '../errors.ts';
import type { RateLimitDecision, RateLimiter, WindowSpec } from '../infra/ratelimit/rate-limiter.ts';

/**
 * The headers for `decision`. `scope` names the policy items of a limiter other than the account's
 * metered windows ("read" gives "read-minute"), so a client can tell which limit it met.
 */
function rateLimitHeaders(decision: RateLimitDecision, scope?: string): Record<string, string> {
  const name = (window: string) => (scope ? `${scope}-${window}` : window);
  const headers: Record<string, string> = {
    'ratelimit-policy': decision.windows.map((w) => `"${name(w.name)}";q=${w.limit};w=${w.seconds}`).join(', '),
    ratelimit: decision.windows.map((w) => `"${name(w.name)}";r=${w.remaining};t=${w.resetSeconds}`).join(', '),
  };
  if (!decision.allowed) headers['retry-after'] = String(decision.retryAfterSeconds);
  return headers;
}

/**
 * The headers for `decision` after those already on `reply` (a per-action limit on a route that also
 * counts in the read window): one list of every policy the call met, as the draft allows.
 */
function addRateLimitHeaders(
  reply: { getHeader(name: string): unknown; headers(values: Record<string, string>): unknown },
  decision: RateLimitDecision,
  scope?: string,
): Record<string, string> {
  const own = rateLimitHeaders(decision, scope);
  const merged: Record<string, string> = { ...own };
  for (const name of ['ratelimit-policy', 'ratelimit'] as const) {
    const before = reply.getHeader(name);
    if (typeof before === 'string' && before) merged[name] = `${before}, ${own[name]}`;
  }
  reply.headers(merged);
  return merged;
}

/** 429 RATE_LIMITED for a refused `decision`, with its headers. */
export function rateLimited(
  decision: RateLimitDecision,
  message: string,
  scope?: string,
  headers = rateLimitHeaders(decision, scope),
): AppError {
  return new AppError('RATE_LIMITED', message, { headers });
}

/**
 * Counts one call of `bucket` in `windows` and adds its headers to `reply`'s; past the limit, 429
 * RATE_LIMITED with them (`message` says why, from the decision). Every per-account limiter goes
 * through here: the metered windows, the read window, the per-action limits, secret rotations.
 */
export async function enforceLimit(
  rateLimiter: RateLimiter,
  reply: Parameters<typeof addRateLimitHeaders>[0],
  limit: { bucket: string; windows: WindowSpec[]; scope?: string; message(decision: RateLimitDecision): string },
): Promise<void> {
  const decision = await rateLimiter.consume(limit.bucket, limit.windows);
  const headers = addRateLimitHeaders(reply, decision, limit.scope);
  if (!decision.allowed) throw rateLimited(decision, limit.message(decision), limit.scope, headers);
}
