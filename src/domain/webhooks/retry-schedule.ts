// When to try a failed delivery again: the configured schedule (default close to Svix's: 5 s, 5 min,
// 30 min, 2 h, 5 h, 10 h, 10 h) with ±20 % jitter so retries from many failures spread out.
// A receiver's Retry-After is honoured when it asks for more time (capped at one day).
const MAX_RETRY_AFTER_SECONDS = 86_400;

/** Delay before attempt number `nextAttempt` (2 = first retry), or null when the schedule is spent. */
export function retryDelaySeconds(
  schedule: number[],
  nextAttempt: number,
  retryAfterSeconds: number | null,
  random: () => number = Math.random,
): number | null {
  const base = schedule[nextAttempt - 2];
  if (base === undefined) return null;
  const jittered = base * (0.8 + 0.4 * random());
  const asked = retryAfterSeconds === null ? 0 : Math.min(retryAfterSeconds, MAX_RETRY_AFTER_SECONDS);
  return Math.round(Math.max(jittered, asked) * 1000) / 1000;
}

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim());
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
