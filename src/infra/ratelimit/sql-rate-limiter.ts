// PostgreSQL without Redis: counters in a table. A per-bucket advisory lock serialises the
// check-then-count step across every instance sharing the database; the step is one call of
// rate_limit_take (migration 011), so an account's requests hold that lock for one statement, not
// for a transaction of seven round trips (#13).
import type { Database } from '../db/database.ts';
import { decide, windowStart, type RateLimiter, type WindowSpec } from './rate-limiter.ts';

const SWEEP_EVERY_MS = 60_000;

export function createSqlRateLimiter(db: Database, now: () => number = Date.now): RateLimiter {
  let lastSweep = 0;
  const run = async (bucket: string, windows: WindowSpec[], nowMs: number, count: boolean) => {
    const starts = windows.map((w) => windowStart(w, nowMs));
    const [row] = await db.query<{ counts: number[]; admitted: boolean }>('SELECT counts, admitted FROM rate_limit_take($1, $2::text[], $3::bigint[], $4::integer[], $5::timestamptz[], $6)', [
      bucket,
      windows.map((w) => `${bucket}:${w.name}`),
      starts,
      windows.map((w) => w.limit),
      windows.map((w, i) => new Date(starts[i]! + w.seconds * 1000)),
      count,
    ]);
    const counts = row!.counts.map(Number);
    if (count && row!.admitted && nowMs - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = nowMs;
      // Expired windows, now and then; not on the request's path.
      db.query('DELETE FROM rate_limit_counters WHERE expires_at < $1', [new Date(nowMs)]).catch(() => {});
    }
    return decide(windows, row!.admitted && count ? counts.map((c) => c + 1) : counts, row!.admitted, nowMs);
  };
  return {
    consume: (bucket, windows, nowMs = now()) => run(bucket, windows, nowMs, true),
    peek: (bucket, windows, nowMs = now()) => run(bucket, windows, nowMs, false),
    async close() {},
  };
}
