// Retention of snapshots: points older than STATS_RETENTION_DAYS are rolled up to one per Short
// per UTC day (the day's last point, which is what a daily series shows). Run by the sweeper with
// the hourly purge; each run rolls up the UTC days that crossed the boundary since (a bounded
// window: the days before were rolled up by earlier runs), so its work does not grow with history.
import type { Queryable } from '../../infra/db/database.ts';

const DAY_MS = 86_400_000;
/** Days behind the boundary each run covers: a service stopped longer leaves older days as they were. */
const CATCH_UP_DAYS = 3;

export async function rollUpOldPoints(db: Queryable, retentionDays: number, now: number): Promise<number> {
  const boundary = Math.floor((now - retentionDays * DAY_MS) / DAY_MS) * DAY_MS;
  const rows = await db.query<{ n: number }>(
    `WITH extra AS (
       SELECT short_id, at FROM (
         SELECT short_id, at, row_number() OVER (
           PARTITION BY short_id, date_trunc('day', at AT TIME ZONE 'UTC') ORDER BY at DESC) AS n
         FROM stats_points WHERE at >= $1 AND at < $2) ranked
       WHERE n > 1
     ), gone AS (
       DELETE FROM stats_points p USING extra WHERE p.short_id = extra.short_id AND p.at = extra.at RETURNING 1
     )
     SELECT count(*)::int AS n FROM gone`,
    [new Date(boundary - CATCH_UP_DAYS * DAY_MS), new Date(boundary)],
  );
  return rows[0]?.n ?? 0;
}
