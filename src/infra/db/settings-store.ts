// The `settings` table: values every instance of the service shares (the generated JWT secret).
import type { Queryable } from './database.ts';

export interface SettingsStore {
  /**
   * The stored value of `key`, storing `initial` first when there is none. The first writer wins,
   * so every instance (and every restart) reads the same value.
   */
  getOrInsert(key: string, initial: string): Promise<string>;
}

export function createSettingsStore(db: Queryable): SettingsStore {
  return {
    async getOrInsert(key, initial) {
      await db.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, initial]);
      const [row] = await db.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key]);
      return row!.value;
    },
  };
}
