// Embedded PostgreSQL (WASM). One connection per process: PGlite serialises statements itself,
// and `transaction()` holds its lock, so other statements wait rather than interleave.
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable, Transaction } from './database.ts';
import { seedFromTemplate } from './pglite-template.ts';
import { pgliteModules } from './pglite-wasm.ts';
import { acquireDataDirLock, type DataDirLock, type LockOptions } from './data-dir-lock.ts';

/**
 * Memory settings, measured with bench/memory-probe.ts: PostgreSQL's default shared_buffers
 * (128 MB) is backed by the WASM heap and was the largest part of the idle figure; 16 MB holds this
 * service's working set (the whole database is a few MB of tables) and brought a bare PGlite from
 * 257 to 139 MiB RSS. The library's own start parameters are kept (its defaults are replaced, not
 * merged, when startParams is given). initdb gets the same settings.
 * max_connections=10: PGlite is one single-user backend, but PostgreSQL sizes its shared memory
 * (process slots, the lock tables) for max_connections backends plus its own; the default 100 kept
 * ~3 MiB of the WASM heap resident for backends that never exist (fifteenth round). The one
 * backend still has the whole lock table to itself: one transaction created 2,097 tables (each with
 * an index) before running out of it, against 3,169 with 100; pg-boss's largest takes a few dozen.
 */
export const PGLITE_MEMORY_SETTINGS = ['shared_buffers=16MB', 'wal_buffers=1MB', 'max_connections=10'];
/**
 * Planner settings. The embedded data directory is a few MB, read once and then served from
 * memory, so an index probe costs about what a sequential page read does: PostgreSQL's default
 * random_page_cost (4, for spinning disks) made it scan whole tables of a few thousand rows rather
 * than look up ten ids by primary key, and in PGlite's baseline-compiled WASM such a scan cost 0.4 ms
 * per thousand rows, growing with the history (bench/reading.md). 1.1 is the usual value for SSDs.
 * default_statistics_target=10 (PostgreSQL's default is 100): ANALYZE reads a sample of 300 × this
 * many rows, and on PGlite it runs on the one database thread, in WASM memory that never shrinks.
 * The embedded vacuum (pglite-autovacuum.ts) analyzes the request and ledger tables about once a
 * minute under load: with 100, ANALYZE of ~100k-row tables took 109 + 254 ms and grew the process
 * by 33 MiB, and a vacuum round held every request for 0.9-1.0 s; with 10, 27 + 46 ms and 3 MiB,
 * rounds of 230-265 ms. The plans here are primary-key and index lookups, which ten
 * histogram buckets and ten most common values estimate as well.
 */
const PGLITE_PLANNER_SETTINGS = ['random_page_cost=1.1', 'default_statistics_target=10'];
export const PGLITE_OPTIONS = {
  startParams: [
    ...PGlite.defaultStartParams,
    ...[...PGLITE_MEMORY_SETTINGS, ...PGLITE_PLANNER_SETTINGS].flatMap((s) => ['-c', s]),
  ],
  initDbStartParams: PGLITE_MEMORY_SETTINGS.flatMap((s) => ['--set', s]),
};

/**
 * PGlite on `dataDir` (null: in memory) with this service's settings and its WASM module compiled
 * with hints that keep its few huge functions off TurboFan, whose compiler took 600 MB for each of
 * them (pglite-wasm.ts). In this thread or PGlite's own (pglite-worker.ts).
 */
export async function createPglite(dataDir: string | null): Promise<PGlite> {
  const options = { ...PGLITE_OPTIONS, ...(await pgliteModules(dataDir)) };
  return dataDir ? PGlite.create(dataDir, options) : PGlite.create(options);
}

/** With a data directory, the process takes its exclusive lock first (data-dir-lock.ts). */
export async function openPglite(
  dataDir: string | null,
  lockOptions: LockOptions = { role: 'process' },
): Promise<Database & { pglite: PGlite }> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const lock: DataDirLock | null = dataDir ? await acquireDataDirLock(dataDir, lockOptions) : null;
  let pglite: PGlite;
  try {
    // A new directory is filled from the pre-built template when there is one (pglite-template.ts).
    if (dataDir) await seedFromTemplate(dataDir, PGLITE_OPTIONS.initDbStartParams);
    pglite = await createPglite(dataDir);
  } catch (error) {
    lock?.release();
    throw error;
  }
  return pgliteDatabase(pglite, lock);
}

/** The Database interface over an open PGlite (its lock, if any, released on close). */
export function pgliteDatabase(pglite: PGlite, lock: DataDirLock | null): Database & { pglite: PGlite } {
  const query = async <T>(runner: Queryable | PGlite, sql: string, params?: unknown[]): Promise<T[]> => {
    const result = await (runner as PGlite).query<T>(sql, params ?? []);
    return result.rows;
  };
  return {
    kind: 'pglite',
    pglite,
    dataDirLock: lock,
    query: (sql, params) => query(pglite, sql, params),
    async transaction(work) {
      return pglite.transaction(async (tx) => {
        const wrapped: Transaction = {
          query: async <T>(sql: string, params?: unknown[]) => (await tx.query<T>(sql, params ?? [])).rows,
          jobDb: {
            executeSql: async (text, values) => {
              if (values?.length) return { rows: (await tx.query(text, values)).rows };
              const results = await tx.exec(text);
              return { rows: results.flatMap((r) => r.rows ?? []) };
            },
          },
        };
        return work(wrapped);
      });
    },
    async ping() {
      await pglite.query('SELECT 1');
    },
    async close() {
      try {
        if (!pglite.closed) await pglite.close();
      } finally {
        lock?.release();
      }
    },
  };
}
