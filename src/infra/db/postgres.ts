// Scale-out storage: a node-postgres pool shared by every request of this process.
import pg from 'pg';
import type { Database, Transaction } from './database.ts';
import { isRetryableTransactionError } from './database.ts';
import { statementNames } from './statement-names.ts';

// int8 (counts, sums) as JS numbers: our values stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export interface PostgresOptions {
  statementMs?: number | undefined;
  connectMs?: number | undefined;
  /**
   * Called when the server aborted a statement or transaction as a deadlock victim (40P01) or a
   * serialization failure (40001) and it is run again: the retry hides it from callers, the
   * metric (db_retries_total) and the tests that prove a statement cannot deadlock see it.
   */
  onRetry?: ((code: string) => void) | undefined;
}

/** What a statement or a transaction on the pool needs. */
interface PoolState {
  pool: pg.Pool;
  /** The name a statement is prepared under on each connection, or undefined to run it unprepared. */
  nameOf: (text: string) => string | undefined;
  options: PostgresOptions;
}

function createPool(url: string, poolSize: number, options: PostgresOptions): pg.Pool {
  // Every wait is bounded (docs/spec.md, security commitments): getting a connection, the server running a statement,
  // and the client waiting for an answer (a hung server or a silently dropped network never answers), so a
  // stuck database turns into a 503 instead of requests piling up.
  // statementMs 0: no statement timeouts (migrations, which may legitimately run long).
  const statementMs = options.statementMs ?? 10_000;
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: options.connectMs ?? 5000,
    ...(statementMs > 0
      ? {
          statement_timeout: statementMs,
          lock_timeout: statementMs,
          idle_in_transaction_session_timeout: statementMs * 3,
          query_timeout: statementMs + 1000,
        }
      : {}),
    keepAlive: true,
  });
  // An idle client's error (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return pool;
}

/**
 * Whether an attempt that failed with `error` is run again: a deadlock victim or a serialization
 * failure had no effect, so it is, up to five attempts, each counted by onRetry.
 */
function runAgain(db: PoolState, error: unknown, attempt: number): boolean {
  if (attempt >= 5 || !isRetryableTransactionError(error)) return false;
  db.options.onRetry?.((error as { code: string }).code);
  return true;
}

/**
 * One statement, prepared when it runs more than once (statement-names.ts): the server parses and
 * plans it once per connection instead of on every call. A kept statement whose result a schema
 * change altered ("cached plan must not change result type", 0A000) runs unprepared.
 */
async function run(db: PoolState, client: pg.Pool | pg.PoolClient, text: string, params: unknown[] | undefined) {
  const name = db.nameOf(text);
  if (name === undefined) return (await client.query(text, params)).rows;
  try {
    return (await client.query({ name, text, values: params ?? [] })).rows;
  } catch (error) {
    if ((error as { code?: string }).code !== '0A000') throw error;
    return (await client.query(text, params)).rows;
  }
}

async function query(db: PoolState, sql: string, params: unknown[] | undefined) {
  // A statement on its own is its own transaction: one the server aborted as a deadlock victim
  // (or a serialization failure) had no effect and is run again, as transaction() does. Seen
  // with 50 concurrent requests of one account (reservations and allowance on its row): one of
  // them answered 500.
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(db, db.pool, sql, params);
    } catch (error) {
      if (runAgain(db, error, attempt)) continue;
      throw error;
    }
  }
}

async function transaction<T>(db: PoolState, work: (tx: Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await db.pool.connect();
    // While a client is checked out the pool does not listen for its errors: a connection the
    // server drops (a restart, pg_terminate_backend, a failover) would emit an 'error' nobody
    // handles, and the process would exit — every instance at once, with one PostgreSQL restart.
    // The statement in flight fails on its own; the connection is then discarded.
    let lost = false;
    const onError = () => {
      lost = true;
    };
    client.on('error', onError);
    const release = (broken: boolean) => {
      client.off('error', onError);
      client.release(broken || lost);
    };
    try {
      await client.query('BEGIN');
      const tx: Transaction = {
        query: (sql, params) => run(db, client, sql, params as unknown[] | undefined),
        jobDb: {
          executeSql: async (text, values) => ({
            rows: (await client.query(text, values as unknown[] | undefined)).rows,
          }),
        },
      };
      const result = await work(tx);
      await client.query('COMMIT');
      release(false);
      return result;
    } catch (error) {
      // The original error is what matters (rethrown or retried below); a failed ROLLBACK means
      // the connection is broken, and the server discards the transaction with it.
      const rolledBack = await client.query('ROLLBACK').then(
        () => true,
        () => false,
      );
      release(!rolledBack);
      if (runAgain(db, error, attempt)) continue;
      throw error;
    }
  }
}

export function openPostgres(
  url: string,
  poolSize: number,
  options: PostgresOptions = {},
): Database & { pool: pg.Pool } {
  const pool = createPool(url, poolSize, options);
  const db: PoolState = { pool, nameOf: statementNames(), options };
  return {
    kind: 'postgres',
    pool,
    query: (sql, params) => query(db, sql, params as unknown[] | undefined),
    transaction: (work) => transaction(db, work),
    async ping() {
      await pool.query('SELECT 1');
    },
    listen: (channel, onNotify) => listen(url, options.connectMs ?? 5000, channel, onNotify),
    async close() {
      await pool.end();
    },
  };
}

/** Database.listen: a client of its own (LISTEN holds its session), reconnected a second after it is lost. */
async function listen(
  url: string,
  connectMs: number,
  channel: string,
  onNotify: (payload: string) => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectMs, keepAlive: true });
    const lost = () => {
      if (stopped || client !== next) return;
      client = undefined;
      void next.end().catch(() => {});
      retry = setTimeout(() => void connect().catch(() => {}), 1000).unref();
    };
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    next.on('error', lost);
    next.on('end', lost);
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      lost();
      throw error;
    }
  };
  const stop = async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
  // The first connection's failure is the caller's (nothing is retried then).
  await connect().catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return stop;
}
