import type { Config } from '../../config.ts';
import type { Database } from './database.ts';
import { migrate } from './migrate.ts';
import type { LockOptions } from './data-dir-lock.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

/**
 * PostgreSQL when DATABASE_URL is set, otherwise embedded PGlite under DATA_DIR (taking its exclusive
 * lock: a second opener gets DataDirLockedError); migrated.
 */
export async function openDatabase(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR' | 'DATABASE_POOL_SIZE'>, lock: LockOptions = { role: 'process' }): Promise<Database> {
  const db = config.DATABASE_URL ? openPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE) : await openPglite(config.DATA_DIR === ':memory:' ? null : config.DATA_DIR, lock);
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
