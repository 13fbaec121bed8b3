// The storage seam: the embedded (PGlite) and scale-out (PostgreSQL) implementations run the same SQL.
import type { DataDirLock } from './data-dir-lock.ts';

/**
 * The largest value of a PostgreSQL `integer` column (credit balances, rate limits): larger ones fail the statement.
 */
export const MAX_INTEGER = 2_147_483_647;

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** pg-boss's database adapter shape, so jobs can be enqueued inside our own transactions. */
export interface JobDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** A job to insert with the transaction's writes: a queue name, its data and the pg-boss singleton key. */
export interface DeferredJob {
  queue: string;
  data: object;
  singletonKey?: string;
}

export interface Transaction extends Queryable {
  /** The same transaction as pg-boss sees it: enqueue a job atomically with our own writes. */
  readonly jobDb: JobDb;
  /**
   * Present in a grouped transaction (requests/queued-settlements.ts): the job is inserted with the
   * other members' jobs by one statement before the group commits.
   */
  deferJob?(job: DeferredJob): void;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** The embedded database's exclusive lock on DATA_DIR (null in memory and with PostgreSQL). */
  readonly dataDirLock?: DataDirLock | null;
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Cheap round trip for readiness checks. */
  ping(): Promise<void>;
  /** Embedded database on its thread only: that thread's heap collected to give memory back (infra/idle-memory.ts). */
  reduceMemory?(): Promise<void>;
  /**
   * PostgreSQL only (one embedded database has one process): calls `onNotify` with the payload of
   * every NOTIFY on `channel`, sent by any process once its transaction commits. It listens on a
   * connection of its own, opened again when lost (notifications sent meanwhile are missed, so
   * listeners must not depend on them). Resolves once listening, with the function that stops it.
   */
  listen?(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Serialization failures and deadlocks are safe to retry: the transaction had no effect. */
export function isRetryableTransactionError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '40001' || code === '40P01';
}
