// Retention of snapshots: points older than STATS_RETENTION_DAYS are rolled up to one per Short
// per UTC day (the day's last point, which is what a daily series shows). Run by the sweeper with
// the hourly purge. Each day is rolled up once, in order, and stats_rollup remembers how far: a run
// with nothing due reads one row, and a day's work (at the 72 M-row target, ~2.3 M points removed)
// is done once, not again by every hourly run that still sees the day inside its window.
import type { Database, Transaction } from '../../infra/db/database.ts';

const DAY_MS = 86_400_000;
/** Where the first run starts behind the boundary: a new store has nothing older. */
const FIRST_RUN_DAYS = 3;
/** Days one run rolls up at most: a backlog (a long outage, a shorter retention) is caught up a few days an hour. */
const DAYS_PER_RUN = 3;

/** Rolls up the days before the retention boundary not rolled up yet; returns the points removed. */
export async function rollUpOldPoints(db: Database, retentionDays: number, now: number): Promise<number> {
  const boundary = Math.floor((now - retentionDays * DAY_MS) / DAY_MS) * DAY_MS;
  let removed = 0;
  for (let n = 0; n < DAYS_PER_RUN; n++) {
    // A transaction per day: the day's deletions and the progress commit together.
    const rolled = await db.transaction(async (tx) => {
      const [row] = await tx.query<{ rolled_until: Date | null }>('SELECT rolled_until FROM stats_rollup FOR UPDATE');
      const day = row?.rolled_until ? row.rolled_until.getTime() : boundary - FIRST_RUN_DAYS * DAY_MS;
      if (day + DAY_MS > boundary) return false;
      removed += await rollUpDay(tx, day);
      await tx.query('UPDATE stats_rollup SET rolled_until = $1', [new Date(day + DAY_MS)]);
      return true;
    });
    if (!rolled) break;
  }
  return removed;
}

/** Keeps each Short's last point of the UTC day starting at `day`; returns how many others it removed. */
async function rollUpDay(tx: Transaction, day: number): Promise<number> {
  const rows = await tx.query<{ n: number }>(
    `WITH extra AS (
       SELECT short_id, at FROM (
         SELECT short_id, at, row_number() OVER (PARTITION BY short_id ORDER BY at DESC) AS n
         FROM stats_points WHERE at >= $1 AND at < $2) ranked
       WHERE n > 1
     ), gone AS (
       DELETE FROM stats_points p USING extra WHERE p.short_id = extra.short_id AND p.at = extra.at RETURNING 1
     )
     SELECT count(*)::int AS n FROM gone`,
    [new Date(day), new Date(day + DAY_MS)],
  );
  return rows[0]?.n ?? 0;
}
