// PostgreSQL without Redis: counters in a table. A per-bucket advisory lock serialises the
// check-then-count step across every instance sharing the database.
import type { Database } from '../db/database.ts';
import { decide, windowStart, type RateLimiter, type WindowSpec } from './rate-limiter.ts';

export function createSqlRateLimiter(db: Database, now: () => number = Date.now): RateLimiter {
  let lastSweep = 0;
  const run = (bucket: string, windows: WindowSpec[], nowMs: number, count: boolean) =>
    db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [bucket]);
      const keys = windows.map((w) => `${bucket}:${w.name}`);
      const starts = windows.map((w) => windowStart(w, nowMs));
      const rows = await tx.query<{ bucket: string; window_start: number | string; count: number }>(
        'SELECT bucket, window_start, count FROM rate_limit_counters WHERE bucket = ANY($1::text[])',
        [keys],
      );
      const counts = keys.map((key, i) => rows.find((r) => r.bucket === key && Number(r.window_start) === starts[i])?.count ?? 0);
      const admitted = counts.every((c, i) => c < windows[i]!.limit);
      if (!admitted || !count) return decide(windows, counts, admitted, nowMs);
      for (const [i, key] of keys.entries()) {
        await tx.query(
          `INSERT INTO rate_limit_counters (bucket, window_start, count, expires_at) VALUES ($1, $2, 1, $3)
           ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_counters.count + 1`,
          [key, starts[i], new Date(starts[i]! + windows[i]!.seconds * 1000)],
        );
      }
      if (nowMs - lastSweep > 60_000) {
        lastSweep = nowMs;
        await tx.query('DELETE FROM rate_limit_counters WHERE expires_at < $1', [new Date(nowMs)]);
      }
      return decide(windows, counts.map((c) => c + 1), true, nowMs);
    });
  return {
    consume: (bucket, windows, nowMs = now()) => run(bucket, windows, nowMs, true),
    peek: (bucket, windows, nowMs = now()) => run(bucket, windows, nowMs, false),
    async close() {},
  };
}
