// The embedded database on its own thread: the Database seam over PGlite running in a worker
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

/**
 * The worker's module: its TypeScript file beside this one, or its own entry beside the bundle
 * (scripts/build-bundle.ts).
 */
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

/** The worker thread that runs PGlite, and the one way to talk to it: a request, answered by its id. */
interface Thread {
  readonly worker: Worker;
  /** Resolves when the thread has opened the database; rejects with its failure to. */
  readonly ready: Promise<void>;
  /** Set before the thread is ended on purpose: its exit then does not end the process. */
  closing: boolean;
  /** Why the thread is gone, once it is: every call after that fails with it. */
  exited: Error | null;
  call(request: Distributive<ThreadRequest>): Promise<ThreadReply & { ok: true }>;
}

function startThread(dataDir: string | null): Thread {
  // The thread fills a new directory from the pre-built template while this thread holds the lock:
  // this thread never loads the PGlite package itself (~1.5 MiB of heap for good).
  const worker = new Worker(WORKER_MODULE, { workerData: { dataDir } });
  // Id 0 is the thread's announcement that the database is open.
  const pending = new Map<number, { resolve(reply: ThreadReply & { ok: true }): void; reject(error: Error): void }>();
  let lastId = 0;
  const thread: Thread = {
    worker,
    ready: new Promise<void>((resolve, reject) => pending.set(0, { resolve: () => resolve(), reject })),
    closing: false,
    exited: null,
    call(request) {
      if (thread.exited) return Promise.reject(thread.exited);
      const id = ++lastId;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ ...request, id });
      });
    },
  };
  worker.on('message', (reply: ThreadReply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (reply.ok) waiting.resolve(reply);
    else waiting.reject(rebuildError(reply.error));
  });
  const died = (error: Error) => {
    thread.exited = error;
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
    // The embedded database is gone with its thread: the process ends as it would have had PGlite
    // failed in-process, so that its supervisor restarts it on the same data (nothing committed is lost).
    if (!thread.closing)
      setImmediate(() => {
        throw error;
      });
  };
  worker.on('error', died);
  worker.on('exit', (code) => died(new Error(`the embedded database thread exited (code ${code})`)));
  return thread;
}

async function threadQuery<T>(thread: Thread, sql: string, params: unknown[] | undefined, tx?: number): Promise<T[]> {
  return (await thread.call({ op: 'query', sql, params: params ?? [], tx })).rows as T[];
}

async function threadExec(thread: Thread, sql: string, tx?: number) {
  return (await thread.call({ op: 'exec', sql, tx })).results ?? [];
}

/** A transaction is a number the thread gave out at begin; its statements name it, its end commits or rolls back. */
async function threadTransaction<T>(thread: Thread, work: (tx: Transaction) => Promise<T>): Promise<T> {
  const number = (await thread.call({ op: 'begin' })).transaction!;
  const tx: Transaction = {
    query: (sql, params) => threadQuery(thread, sql, params, number),
    jobDb: {
      executeSql: async (text, values) =>
        values?.length
          ? { rows: await threadQuery(thread, text, values, number) }
          : { rows: (await threadExec(thread, text, number)).flatMap((r) => r.rows) },
    },
  };
  let result: T;
  try {
    result = await work(tx);
  } catch (error) {
    await thread.call({ op: 'end', tx: number, commit: false }).catch(() => {});
    throw error;
  }
  await thread.call({ op: 'end', tx: number, commit: true });
  return result;
}

/** Opens DATA_DIR (its lock taken here, in the owning thread) with PGlite running in a worker thread. */
export async function openPgliteThread(
  dataDir: string | null,
  lockOptions: LockOptions = { role: 'process' },
): Promise<Database & { pglite: PGliteLike }> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const lock: DataDirLock | null = dataDir ? await acquireDataDirLock(dataDir, lockOptions) : null;
  const thread = startThread(dataDir);
  try {
    await thread.ready;
  } catch (error) {
    thread.closing = true;
    await thread.worker.terminate();
    lock?.release();
    throw error;
  }
  return {
    kind: 'pglite',
    dataDirLock: lock,
    // What pg-boss's PGlite adapter (fromPglite) calls: the same two methods as a PGlite instance.
    pglite: {
      query: async <T>(sql: string, params?: unknown[]) => ({ rows: await threadQuery<T>(thread, sql, params) }),
      exec: (sql) => threadExec(thread, sql),
    },
    query: (sql, params) => threadQuery(thread, sql, params),
    transaction: (work) => threadTransaction(thread, work),
    async ping() {
      await threadQuery(thread, 'SELECT 1', []);
    },
    async reduceMemory() {
      await thread.call({ op: 'reduceMemory' });
    },
    async close() {
      thread.closing = true;
      try {
        if (!thread.exited) await thread.call({ op: 'close' });
        await thread.worker.terminate();
      } finally {
        lock?.release();
      }
    },
  };
}
