// The account rate-limit windows and their default limits, defined once. The rate-limit plugin
// counts requests in these windows, GET /accounts reports usage against them, and the operator
// API and CLI show the limits in force. Overrides per account live on the account row.
import type { RateLimits } from '../accounts/accounts.ts';
import type { WindowSpec } from '../../infra/ratelimit/rate-limiter.ts';

/** Minute, hour and UTC day, in this order (the order of the RateLimit headers and of usage). */
const WINDOWS = [
  { name: 'minute', seconds: 60, limit: 'perMinute' },
  { name: 'hour', seconds: 3600, limit: 'perHour' },
  { name: 'day', seconds: 86_400, limit: 'perDay' },
] as const satisfies readonly { name: string; seconds: number; limit: keyof RateLimits }[];

/** The limits of an account without overrides (RATE_LIMIT_PER_MINUTE/HOUR/DAY). */
export function defaultRateLimits(config: {
  RATE_LIMIT_PER_MINUTE: number;
  RATE_LIMIT_PER_HOUR: number;
  RATE_LIMIT_PER_DAY: number;
}): RateLimits {
  return {
    perMinute: config.RATE_LIMIT_PER_MINUTE,
    perHour: config.RATE_LIMIT_PER_HOUR,
    perDay: config.RATE_LIMIT_PER_DAY,
  };
}

/** The windows an account's requests count in, with its limits. */
export function accountWindows(limits: RateLimits): WindowSpec[] {
  return WINDOWS.map((w) => ({ name: w.name, limit: limits[w.limit], seconds: w.seconds }));
}

/** The rate limiter's bucket for an account: every key and session of the account shares it. */
export function accountBucket(accountId: string): string {
  return `account:${accountId}`;
}

/** Reads an account may make per metered call its minute allows, at least. */
const READS_PER_METERED_CALL = 10;

/**
 * Calls per minute an account may make outside the metered routes (reads, key and webhook
 * management): READ_RATE_LIMIT_PER_MINUTE, raised with the account's own minute limit so an account
 * granted more metered calls may read their results too (an account raised to 1,000
 * requests a minute could not poll each of them); 0 when READ_RATE_LIMIT_PER_MINUTE is 0 (unlimited).
 */
export function readsPerMinute(config: { READ_RATE_LIMIT_PER_MINUTE: number }, limits: RateLimits): number {
  return config.READ_RATE_LIMIT_PER_MINUTE > 0
    ? Math.max(config.READ_RATE_LIMIT_PER_MINUTE, READS_PER_METERED_CALL * limits.perMinute)
    : 0;
}

/** The window of readsPerMinute; none when it is unlimited. */
export function readWindows(perMinute: number): WindowSpec[] {
  return perMinute > 0 ? [{ name: 'minute', limit: perMinute, seconds: 60 }] : [];
}

/** The rate limiter's bucket for an account's other calls. */
export function readBucket(accountId: string): string {
  return `read:${accountId}`;
}
