// PostgreSQL without Redis: counters in a table. A per-bucket advisory lock serialises the
// check-then-count step across every instance sharing the database. The step is one call of
// rate_limit_take (migration 011), and a process's checks of one bucket (same windows and window
// starts) that arrive while one is in flight go together in the next call, decided in arrival order
// exactly as one by one (an account's concurrent requests took turns for its lock, each a
// transaction of seven round trips). Checks of a bucket across a window boundary, or from other
// processes, are ordered by the lock, as concurrent checks are.
import type { Database } from '../db/database.ts';
import { keyedGroupCommit } from '../db/group-commit.ts';
import { decide, windowStart, type RateLimitDecision, type RateLimiter, type WindowSpec } from './rate-limiter.ts';

const SWEEP_EVERY_MS = 60_000;
/**
 * A window's row outlives its end by this much: a check that waited (for its group, for the lock, or on a clock behind
 * this one) still finds it.
 */
const SWEEP_GRACE_MS = 5 * 60_000;
/** Checks of one bucket decided by one call at most. */
const MAX_GROUP = 200;

interface Check {
  bucket: string;
  windows: WindowSpec[];
  nowMs: number;
  /** Each window's start at nowMs. */
  starts: number[];
}

const checkOf = (bucket: string, windows: WindowSpec[], nowMs: number): Check => ({
  bucket,
  windows,
  nowMs,
  starts: windows.map((w) => windowStart(w, nowMs)),
});

export function createSqlRateLimiter(db: Database, now: () => number = Date.now): RateLimiter {
  let lastSweep = 0;
  /** The counts as read, and how many of `hits` checks were admitted (0 for a peek). */
  const take = async ({ bucket, windows, nowMs, starts }: Check, hits: number) => {
    const [row] = await db.query<{ counts: number[]; granted: number }>(
      'SELECT counts, granted FROM rate_limit_take($1, $2::text[], $3::bigint[], $4::bigint[], $5::timestamptz[], $6)',
      [
        bucket,
        windows.map((w) => `${bucket}:${w.name}`),
        starts,
        windows.map((w) => w.limit),
        windows.map((w, i) => new Date(starts[i]! + w.seconds * 1000)),
        hits,
      ],
    );
    if (hits > 0 && nowMs - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = nowMs;
      // Expired windows, now and then; not on the requests' path.
      db.query('DELETE FROM rate_limit_counters WHERE expires_at < $1', [new Date(nowMs - SWEEP_GRACE_MS)]).catch(
        () => {},
      );
    }
    return { counts: row!.counts.map(Number), granted: Number(row!.granted) };
  };
  // Checks of the same bucket, windows and window starts share a call; the i-th of a group is
  // admitted when i < granted, and sees the counts the ones before it left, as it would alone.
  const consume = keyedGroupCommit<Check, RateLimitDecision>(MAX_GROUP, async (_key, members) => {
    const { counts, granted } = await take(members[0]!.item, members.length);
    members.forEach(({ item, resolve }, i) => {
      const admitted = i < granted;
      resolve(
        decide(
          item.windows,
          counts.map((c) => c + (admitted ? i + 1 : granted)),
          admitted,
          item.nowMs,
        ),
      );
    });
  });
  return {
    consume: (bucket, windows, nowMs = now()) => {
      const check = checkOf(bucket, windows, nowMs);
      return consume(JSON.stringify([bucket, windows, check.starts]), check);
    },
    peek: async (bucket, windows, nowMs = now()) => {
      const { counts } = await take(checkOf(bucket, windows, nowMs), 0);
      return decide(
        windows,
        counts,
        counts.every((c, i) => c < windows[i]!.limit),
        nowMs,
      );
    },
    async close() {},
  };
}
