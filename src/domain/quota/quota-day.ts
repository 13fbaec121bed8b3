// The Data API's quota day: it turns at midnight America/Los_Angeles (Google's quota docs), so
// per-key and per-account counters are keyed by the Los Angeles calendar date.
const LA = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' });

function laParts(ms: number): { y: number; m: number; d: number; h: number } {
  const parts = Object.fromEntries(LA.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return { y: Number(parts.year), m: Number(parts.month), d: Number(parts.day), h: Number(parts.hour) };
}

/** The quota day containing `ms`, as YYYY-MM-DD (Los Angeles calendar date). */
export function quotaDay(ms: number): string {
  const { y, m, d } = laParts(ms);
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The instant the next quota day starts (the next Los Angeles midnight), in ms. */
export function nextQuotaDayStart(ms: number): number {
  const { y, m, d } = laParts(ms);
  // Midnight in Los Angeles is 07:00 UTC in daylight saving time and 08:00 UTC otherwise; DST
  // changes at 02:00, so midnight itself is never ambiguous.
  const pdt = Date.UTC(y, m - 1, d + 1, 7);
  return laParts(pdt).h === 0 ? pdt : Date.UTC(y, m - 1, d + 1, 8);
}

/** Whole seconds until the next quota day (at least 1), for Retry-After. */
export function secondsToNextQuotaDay(ms: number): number {
  return Math.max(1, Math.ceil((nextQuotaDayStart(ms) - ms) / 1000));
}
