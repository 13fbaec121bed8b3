// Monthly partitions of the snapshots (migration 026): the sweeper keeps the current UTC month and
// the next MONTHS_AHEAD created, so points are written into their month from its first second and
// the default partition stays empty. Creating one is idempotent and serialised in the database.
import type { Queryable } from '../../infra/db/database.ts';

/** Months created beyond the current one: a sweeper stopped for weeks still finds its month there. */
export const MONTHS_AHEAD = 2;

/** Creates the partitions of `now`'s month and the MONTHS_AHEAD after it that are missing; returns how many. */
export async function addMonthPartitions(db: Queryable, now: number): Promise<number> {
  const [row] = await db.query<{ created: number }>(
    `SELECT stats_points_add_months($1, $1::timestamptz + make_interval(months => $2)) AS created`,
    [new Date(now), MONTHS_AHEAD],
  );
  return row?.created ?? 0;
}
