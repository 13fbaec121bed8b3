// The Data API's quota day: it turns at midnight America/Los_Angeles (Google's quota docs), so
// per-key and per-account counters are keyed by the Los Angeles calendar date.
//
// Pacific Time is computed from the United States' daylight-saving rule rather than read through
// ICU (Intl.DateTimeFormat with a timeZone): the first such formatter maps ~7 MiB of ICU's locale
// and time-zone data into the process for good (bench/reading.md, fifteenth round), more than
// a tenth of what the embedded service needs at rest, to answer one question a rule answers.
// test/quota-day.test.ts checks the rule against ICU's America/Los_Angeles hour by hour for two days
// around every transition to 2099, so if the law changes, a Node.js update that carries the new zone
// data fails that test.

const HOUR = 3_600_000;
/** Pacific Standard Time is UTC−8, Pacific Daylight Time UTC−7. */
const PST_OFFSET = -8 * HOUR;
const PDT_OFFSET = -7 * HOUR;

/** The day of the month of the n-th Sunday (1-based) of a month (0-based), in a year. */
function nthSunday(year: number, month: number, n: number): number {
  const firstWeekday = new Date(Date.UTC(year, month, 1)).getUTCDay();
  return 1 + ((7 - firstWeekday) % 7) + (n - 1) * 7;
}

/**
 * Whether daylight-saving time is in effect in Los Angeles at `ms` (since 2007: from 02:00 PST on
 * the second Sunday of March, 10:00 UTC, to 02:00 PDT on the first Sunday of November, 09:00 UTC).
 * The service asks only about its own clock's present, so the rule before 2007 is not kept.
 */
function isPacificDaylightTime(ms: number): boolean {
  const year = new Date(ms).getUTCFullYear();
  const starts = Date.UTC(year, 2, nthSunday(year, 2, 2), 10);
  const ends = Date.UTC(year, 10, nthSunday(year, 10, 1), 9);
  return ms >= starts && ms < ends;
}

/** The Los Angeles wall-clock time at `ms`, as a Date whose UTC fields read it. */
function laWallClock(ms: number): Date {
  return new Date(ms + (isPacificDaylightTime(ms) ? PDT_OFFSET : PST_OFFSET));
}

/** The quota day containing `ms`, as YYYY-MM-DD (Los Angeles calendar date). */
export function quotaDay(ms: number): string {
  return laWallClock(ms).toISOString().slice(0, 10);
}

/** The instant the next quota day starts (the next Los Angeles midnight), in ms. */
export function nextQuotaDayStart(ms: number): number {
  const wall = laWallClock(ms);
  // Midnight in Los Angeles is 07:00 UTC in daylight saving time and 08:00 UTC otherwise; DST
  // changes at 02:00, so midnight itself is never ambiguous.
  const pdt = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + 1, 7);
  return isPacificDaylightTime(pdt) ? pdt : pdt + HOUR;
}

/** Whole seconds until the next quota day (at least 1), for Retry-After. */
export function secondsToNextQuotaDay(ms: number): number {
  return Math.max(1, Math.ceil((nextQuotaDayStart(ms) - ms) / 1000));
}
