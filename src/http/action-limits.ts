// Per-account limits of actions that cost the account nothing but make the service send traffic to
// an address of the caller's choosing: a test event, a redelivery. They do not count against the
// account's metered windows (RATE_LIMIT_PER_*); each has its own, small, so the service cannot be
// turned into a free traffic source aimed at a third party (redeliveries of a
// 2.7 MB result were unlimited — 82 of them in 30 s from one account).
import { enforceLimit } from './rate-limit-headers.ts';
import type { RateLimiter, WindowSpec } from '../infra/ratelimit/rate-limiter.ts';

export const ACTION_LIMITS = {
  /** Test events per minute: enough to iterate on a receiver, too few to be a cannon. */
  'webhook-test': { what: 'test events', windows: [{ name: 'minute', limit: 10, seconds: 60 }] },
  /** Redeliveries: enough to replay a day's failures by hand or from a script, not to flood anyone. */
  redeliver: {
    what: 'redeliveries',
    windows: [
      { name: 'minute', limit: 10, seconds: 60 },
      { name: 'hour', limit: 100, seconds: 3600 },
    ],
  },
} as const satisfies Record<string, { what: string; windows: WindowSpec[] }>;

export type LimitedAction = keyof typeof ACTION_LIMITS;

/** "at most 10 per minute and 100 per hour" */
export function describeActionLimit(action: LimitedAction): string {
  return `at most ${ACTION_LIMITS[action].windows.map((w) => `${w.limit} per ${w.name}`).join(' and ')}`;
}

/**
 * Counts one `action` of the account, and adds its RateLimit headers to `reply`'s (policy
 * "<action>-<window>"); 429 RATE_LIMITED with them and Retry-After past its limit.
 */
export async function limitAction(
  rateLimiter: RateLimiter,
  action: LimitedAction,
  accountId: string,
  reply: Parameters<typeof enforceLimit>[1],
): Promise<void> {
  const { windows, what } = ACTION_LIMITS[action];
  await enforceLimit(rateLimiter, reply, {
    bucket: `${action}:${accountId}`,
    windows: [...windows],
    scope: action,
    message: (decision) =>
      `Too many ${what}: ${describeActionLimit(action)}; retry in ${decision.retryAfterSeconds} s.`,
  });
}
