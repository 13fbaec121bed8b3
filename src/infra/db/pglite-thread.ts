// The embedded database on its own thread (#13): the Database seam over PGlite running in a worker
// thread (pglite-worker.ts). Same SQL, same PGlite, same data directory and lock; what changes is
// where PGlite's CPU is spent. On the hot path its WASM and JS layer were ~40 % of the one thread's
// CPU (bench/results.md); on their own thread they overlap with HTTP work instead of adding to it.
//
// Each call is one message each way (structured clone: Dates, Buffers and parsed JSON cross as
// they are). A statement's error comes back with PostgreSQL's fields (code, detail, constraint…), so
// callers that branch on error codes see what they saw in-process.
import { Worker } from 'node:worker_threads';
import { mkdir } from 'node:fs/promises';
import type { PGliteLike } from 'pg-boss';
import type { Database, Transaction } from './database.ts';
import { acquireDataDirLock, type DataDirLock, type LockOptions } from './data-dir-lock.ts';
import { BUNDLED } from '../paths.ts';

/** The worker's module: its TypeScript file beside this one, or its own entry beside the bundle (scripts/build-bundle.ts). */
const WORKER_MODULE = new URL(BUNDLED ? './pglite-worker.mjs' : './pglite-worker.ts', import.meta.url);

export type ThreadRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[]; tx?: number }
  | { id: number; op: 'exec'; sql: string; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'reduceMemory' }
  | { id: number; op: 'close' };

export type ThreadReply =
  | { id: number; ok: true; rows?: unknown[]; results?: Array<{ rows: unknown[] }>; transaction?: number }
  | { id: number; ok: false; error: Record<string, unknown> };

type Distributive<T> = T extends unknown ? Omit<T, 'id'> : never;

function rebuildError(fields: Record<string, unknown>): Error {
  return Object.assign(new Error(String(fields.message)), fields);
}

/** Opens DATA_DIR (its lock taken here, in the owning thread) with PGlite running in a worker thread. */
export async function openPgliteThread(
  dataDir: string | null,
  lockOptions: LockOptions = { role: 'process' },
): Promise<Database & { pglite: PGliteLike }> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const lock: DataDirLock | null = dataDir ? await acquireDataDirLock(dataDir, lockOptions) : null;
  // The thread fills a new directory from the pre-built template while this thread holds the lock:
  // this thread never loads the PGlite package itself (~1.5 MiB of heap for good, #13).
  const worker = new Worker(WORKER_MODULE, { workerData: { dataDir } });
  const pending = new Map<number, { resolve(reply: ThreadReply & { ok: true }): void; reject(error: Error): void }>();
  let lastId = 0;
  let exited: Error | null = null;
  const ready = new Promise<void>((resolve, reject) => pending.set(0, { resolve: () => resolve(), reject }));
  worker.on('message', (reply: ThreadReply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (reply.ok) waiting.resolve(reply);
    else waiting.reject(rebuildError(reply.error));
  });
  const fail = (error: Error) => {
    exited = error;
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  let closing = false;
  const died = (error: Error) => {
    fail(error);
    // The embedded database is gone with its thread: the process ends as it would have had PGlite
    // failed in-process, so that its supervisor restarts it on the same data (nothing committed is lost).
    if (!closing)
      setImmediate(() => {
        throw error;
      });
  };
  worker.on('error', died);
  worker.on('exit', (code) => died(new Error(`the embedded database thread exited (code ${code})`)));

  const call = (request: Distributive<ThreadRequest>): Promise<ThreadReply & { ok: true }> => {
    if (exited) return Promise.reject(exited);
    const id = ++lastId;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  };

  try {
    await ready;
  } catch (error) {
    closing = true;
    await worker.terminate();
    lock?.release();
    throw error;
  }

  const query = async <T>(sql: string, params: unknown[] | undefined, tx?: number): Promise<T[]> =>
    (await call({ op: 'query', sql, params: params ?? [], ...(tx === undefined ? {} : { tx }) })).rows as T[];
  const exec = async (sql: string, tx?: number) =>
    (await call({ op: 'exec', sql, ...(tx === undefined ? {} : { tx }) })).results ?? [];

  return {
    kind: 'pglite',
    dataDirLock: lock,
    // What pg-boss's PGlite adapter (fromPglite) calls: the same two methods as a PGlite instance.
    pglite: {
      query: async <T>(sql: string, params?: unknown[]) => ({ rows: await query<T>(sql, params) }),
      exec: (sql) => exec(sql),
    },
    query: (sql, params) => query(sql, params),
    async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
      const number = (await call({ op: 'begin' })).transaction!;
      const tx: Transaction = {
        query: (sql, params) => query(sql, params, number),
        jobDb: {
          executeSql: async (text, values) =>
            values?.length
              ? { rows: await query(text, values, number) }
              : { rows: (await exec(text, number)).flatMap((r) => r.rows) },
        },
      };
      let result: T;
      try {
        result = await work(tx);
      } catch (error) {
        await call({ op: 'end', tx: number, commit: false }).catch(() => {});
        throw error;
      }
      await call({ op: 'end', tx: number, commit: true });
      return result;
    },
    async ping() {
      await query('SELECT 1', []);
    },
    async reduceMemory() {
      await call({ op: 'reduceMemory' });
    },
    async close() {
      closing = true;
      try {
        if (!exited) await call({ op: 'close' });
        await worker.terminate();
      } finally {
        lock?.release();
      }
    },
  };
}
