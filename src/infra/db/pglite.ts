// Embedded PostgreSQL (WASM). One connection per process: PGlite serialises statements itself,
// and `transaction()` holds its lock, so other statements wait rather than interleave.
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable, Transaction } from './database.ts';
import { acquireDataDirLock, type DataDirLock, type LockOptions } from './data-dir-lock.ts';

/** With a data directory, the process takes its exclusive lock first (data-dir-lock.ts). */
export async function openPglite(dataDir: string | null, lockOptions: LockOptions = { role: 'process' }): Promise<Database & { pglite: PGlite }> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const lock: DataDirLock | null = dataDir ? await acquireDataDirLock(dataDir, lockOptions) : null;
  let pglite: PGlite;
  try {
    pglite = dataDir ? await PGlite.create(dataDir) : await PGlite.create();
  } catch (error) {
    lock?.release();
    throw error;
  }
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
