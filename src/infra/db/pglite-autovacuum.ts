// Autovacuum for the embedded database. PGlite runs PostgreSQL in single-user mode, where the
// autovacuum launcher never starts (autovacuum = on, yet last_autovacuum stays null): dead rows
// left by every UPDATE and DELETE were never reclaimed. The job queue alone updates each job three
// times and deletes it later, so the tables and their indexes only grew, and scans slowed down
// with them (measured: a 1,000-row table updated 200 times grew to 5.6 MB and count(*) took 2.1 ms;
// after VACUUM 0.8 ms, and further updates reused the space). Without vacuum, PostgreSQL would also
// stop accepting writes near transaction-id wraparound. PostgreSQL itself needs none of this: its
// own autovacuum does the same work there.
//
// So the embedded process does what autovacuum would, with autovacuum's default thresholds: every
// minute it vacuums the tables whose dead rows (or, since PostgreSQL 13, new rows) passed the
// threshold or whose oldest unfrozen transaction id is older than autovacuum_freeze_max_age
// (catalogs included), and analyzes those with enough changes since their last ANALYZE (the
// planner had no statistics either).
import type { Queryable } from './database.ts';

/** autovacuum_naptime's default. */
export const AUTOVACUUM_INTERVAL_MS = 60_000;

// autovacuum_vacuum_threshold/scale_factor, autovacuum_vacuum_insert_threshold/scale_factor and
// autovacuum_analyze_threshold/scale_factor at PostgreSQL's defaults.
const DUE_SQL = `
SELECT format('%I.%I', n.nspname, c.relname) AS name,
       (coalesce(s.n_dead_tup, 0) > 50 + 0.2 * greatest(c.reltuples, 0)
        OR coalesce(s.n_ins_since_vacuum, 0) > 1000 + 0.2 * greatest(c.reltuples, 0)
        OR age(c.relfrozenxid) > current_setting('autovacuum_freeze_max_age')::bigint) AS vacuum
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_stat_all_tables s ON s.relid = c.oid
WHERE c.relkind IN ('r', 'm') AND c.relpersistence = 'p'
  AND (coalesce(s.n_dead_tup, 0) > 50 + 0.2 * greatest(c.reltuples, 0)
       OR coalesce(s.n_ins_since_vacuum, 0) > 1000 + 0.2 * greatest(c.reltuples, 0)
       OR age(c.relfrozenxid) > current_setting('autovacuum_freeze_max_age')::bigint
       OR coalesce(s.n_mod_since_analyze, 0) > 50 + 0.1 * greatest(c.reltuples, 0))
ORDER BY n.nspname, c.relname`;

export interface VacuumRound {
  vacuumed: string[];
  analyzed: string[];
}

/** One round: vacuums (and analyzes) the tables past autovacuum's thresholds, analyzes the others that need it. */
export async function vacuumDueTables(db: Queryable): Promise<VacuumRound> {
  const due = await db.query<{ name: string; vacuum: boolean }>(DUE_SQL);
  const round: VacuumRound = { vacuumed: [], analyzed: [] };
  for (const { name, vacuum } of due) {
    // One table at a time: each statement holds the only connection, so requests wait for one table, not all.
    await db.query(vacuum ? `VACUUM (ANALYZE) ${name}` : `ANALYZE ${name}`);
    (vacuum ? round.vacuumed : round.analyzed).push(name);
  }
  return round;
}

/** Runs vacuumDueTables every AUTOVACUUM_INTERVAL_MS until stopped; a round never overlaps the previous one. */
export function startAutovacuum(
  db: Queryable,
  handlers: { onRound?: (round: VacuumRound, ms: number) => void; onError: (error: unknown) => void },
  intervalMs = AUTOVACUUM_INTERVAL_MS,
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    const started = performance.now();
    running = vacuumDueTables(db)
      .then((round) => handlers.onRound?.(round, performance.now() - started), handlers.onError)
      .finally(() => {
        running = undefined;
      });
  }, intervalMs).unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
