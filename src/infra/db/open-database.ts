import type { Database } from './database.ts';
import { migrate } from './migrate.ts';
import type { LockOptions } from './data-dir-lock.ts';
import { openPgliteThread } from './pglite-thread.ts';
import { openPostgres, type PostgresOptions } from './postgres.ts';

/** Where the database is and how it is reached (the config's fields of the same names). */
export interface DatabaseSettings {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
  DATABASE_POOL_SIZE: number;
  DATABASE_STATEMENT_TIMEOUT_MS?: number | undefined;
  DATABASE_CONNECT_TIMEOUT_MS?: number | undefined;
}

/**
 * PostgreSQL when DATABASE_URL is set, otherwise embedded PGlite under DATA_DIR, on its own thread
 * (pglite-thread.ts), taking the directory's exclusive lock (a second opener gets DataDirLockedError); migrated.
 */
export async function openDatabase(
  config: DatabaseSettings,
  lock: LockOptions = { role: 'process' },
  hooks: Pick<PostgresOptions, 'onRetry'> = {},
): Promise<Database> {
  const timeouts = { statementMs: config.DATABASE_STATEMENT_TIMEOUT_MS, connectMs: config.DATABASE_CONNECT_TIMEOUT_MS };
  if (config.DATABASE_URL) {
    // Migrations run on their own connection without the request-path statement timeouts: a long
    // migration, or waiting for another instance's, must not fail the start.
    const migrations = openPostgres(config.DATABASE_URL, 1, { statementMs: 0, connectMs: timeouts.connectMs });
    try {
      await migrate(migrations);
    } finally {
      await migrations.close();
    }
    return openPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE, { ...timeouts, onRetry: hooks.onRetry });
  }
  const db = await openPgliteThread(config.DATA_DIR === ':memory:' ? null : config.DATA_DIR, lock);
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
