// The quota day (src/domain/quota/quota-day.ts) computes Pacific Time from the United States'
// daylight-saving rule instead of loading ICU's time-zone data into the service. Here ICU is the
// reference: the rule must agree with ICU's America/Los_Angeles hour by hour for two days around
// every transition to 2099, and every hour from 2025 to 2035 — so a Node.js update whose zone data
// changes the rule fails this test instead of moving the quota day silently.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nextQuotaDayStart, quotaDay, secondsToNextQuotaDay } from '../src/domain/quota/quota-day.ts';

const LA = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Los_Angeles',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function icu(ms: number): { day: string; clock: string } {
  const p = Object.fromEntries(LA.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  return { day: `${p.year}-${p.month}-${p.day}`, clock: `${p.hour}:${p.minute}:${p.second}` };
}

/** ICU's offset changes (DST transitions) in [from, to), found day by day and pinned to the millisecond. */
function icuTransitions(from: number, to: number): number[] {
  const offset = (ms: number) => {
    const { day, clock } = icu(ms);
    return Date.parse(`${day}T${clock}Z`) - Math.floor(ms / 1000) * 1000;
  };
  const found: number[] = [];
  for (let ms = from; ms < to; ms += DAY) {
    if (offset(ms) === offset(ms + DAY)) continue;
    let [lo, hi] = [ms, ms + DAY];
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offset(mid) === offset(lo)) lo = mid;
      else hi = mid;
    }
    found.push(hi);
  }
  return found;
}

describe('quota day (Los Angeles calendar date without ICU)', () => {
  it('agrees with ICU hour by hour for two days on both sides of every daylight-saving transition, 2007-2099', () => {
    const transitions = icuTransitions(Date.UTC(2007, 0, 1), Date.UTC(2100, 0, 1));
    assert.equal(transitions.length, 2 * 93, 'two transitions a year');
    for (const t of transitions) {
      // Every hour from two days before to two days after, at the hour and a millisecond either side:
      // the midnights next to a transition (07:00 or 08:00 UTC) are where a wrong rule shows.
      for (let hour = -48; hour <= 48; hour++) {
        for (const ms of [t + hour * HOUR - 1, t + hour * HOUR, t + hour * HOUR + 1]) {
          assert.equal(quotaDay(ms), icu(ms).day, new Date(ms).toISOString());
        }
        const ms = t + hour * HOUR;
        const next = nextQuotaDayStart(ms);
        assert.equal(
          icu(next).clock,
          '00:00:00',
          `the next quota day after ${new Date(ms).toISOString()} starts at midnight`,
        );
        assert.equal(icu(next - 1).day, icu(ms).day, `and not before, after ${new Date(ms).toISOString()}`);
      }
    }
  });

  it('agrees with ICU hour by hour, and at the millisecond around every midnight, 2025-2035', () => {
    for (let ms = Date.UTC(2025, 0, 1); ms < Date.UTC(2036, 0, 1); ms += HOUR) {
      assert.equal(quotaDay(ms), icu(ms).day, new Date(ms).toISOString());
      const next = nextQuotaDayStart(ms);
      assert.equal(
        icu(next).clock,
        '00:00:00',
        `the next quota day after ${new Date(ms).toISOString()} starts at midnight`,
      );
      assert.equal(icu(next - 1).day, icu(ms).day, 'and no earlier');
      assert.notEqual(icu(next).day, icu(ms).day);
      assert.ok(next - ms <= 25 * HOUR && next > ms);
    }
  });

  it('turns at 08:00 UTC in winter and 07:00 UTC in summer, on the transition days too', () => {
    assert.equal(quotaDay(Date.UTC(2026, 10, 24, 7, 59, 59, 999)), '2026-11-23');
    assert.equal(quotaDay(Date.UTC(2026, 10, 24, 8)), '2026-11-24');
    assert.equal(quotaDay(Date.UTC(2026, 6, 4, 6, 59, 59, 999)), '2026-07-03');
    assert.equal(quotaDay(Date.UTC(2026, 6, 4, 7)), '2026-07-04');
    // 2026: DST from Sunday 8 March 10:00 UTC to Sunday 1 November 09:00 UTC.
    assert.equal(
      nextQuotaDayStart(Date.UTC(2026, 2, 7, 12)),
      Date.UTC(2026, 2, 8, 8),
      'the midnight that starts 8 March is still PST',
    );
    assert.equal(nextQuotaDayStart(Date.UTC(2026, 2, 8, 12)), Date.UTC(2026, 2, 9, 7), '23-hour day');
    assert.equal(
      nextQuotaDayStart(Date.UTC(2026, 9, 31, 12)),
      Date.UTC(2026, 10, 1, 7),
      'the midnight that starts 1 November is still PDT',
    );
    assert.equal(nextQuotaDayStart(Date.UTC(2026, 10, 1, 12)), Date.UTC(2026, 10, 2, 8), '25-hour day');
    assert.equal(secondsToNextQuotaDay(Date.UTC(2026, 10, 24, 7, 59, 59, 500)), 1);
    assert.equal(secondsToNextQuotaDay(Date.UTC(2026, 10, 24, 8)), DAY / 1000);
  });
});
