// Ordered SQL migrations, applied once each, under an advisory lock so that many instances
// starting together against one PostgreSQL do not race.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from '../paths.ts';
import type { Database, Transaction } from './database.ts';

/** The migration files (also part of the PGlite template's fingerprint: pglite-template.ts). */
export const MIGRATIONS_DIR = join(ROOT, 'src', 'infra', 'db', 'migrations');
const LOCK_ID = 424242;

/** The migration files and a SHA-256 of each one's text. */
async function migrationFiles(): Promise<Array<{ file: string; sql: string; checksum: string }>> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
  return Promise.all(
    files.map(async (file) => {
      const sql = await readFile(join(MIGRATIONS_DIR, file), 'utf8');
      return { file, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/**
 * Applies the migrations not applied yet; returns their names. Each one's checksum is recorded, so a
 * file edited after it was applied is noticed (changedMigrations, reported by doctor) instead of
 * leaving a database without what the edit added, unseen. Migrations applied
 * before checksums were recorded get the current file's.
 */
export async function migrate(db: Database): Promise<string[]> {
  const files = await migrationFiles();
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ID]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at ' +
        'timestamptz NOT NULL DEFAULT now())',
    );
    await tx.query('ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text');
    const done = new Map(
      (await tx.query<{ name: string; checksum: string | null }>('SELECT name, checksum FROM schema_migrations')).map(
        (r) => [r.name, r.checksum],
      ),
    );
    const applied: string[] = [];
    for (const { file, sql, checksum } of files) {
      if (done.has(file)) {
        if (done.get(file) === null)
          await tx.query('UPDATE schema_migrations SET checksum = $2 WHERE name = $1', [file, checksum]);
        continue;
      }
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [file, checksum]);
      applied.push(file);
    }
    return applied;
  });
}

/** Applied migrations whose file has changed since (or is gone): the database may lack what the edit added. */
export async function changedMigrations(tx: Pick<Transaction, 'query'>): Promise<string[]> {
  const [exists] = await tx.query<{ ok: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AND EXISTS (SELECT 1 FROM information_schema.columns " +
      "WHERE table_name = 'schema_migrations' AND column_name = 'checksum') AS ok",
  );
  if (!exists?.ok) return [];
  const current = new Map((await migrationFiles()).map((f) => [f.file, f.checksum]));
  const rows = await tx.query<{ name: string; checksum: string | null }>(
    'SELECT name, checksum FROM schema_migrations WHERE checksum IS NOT NULL ORDER BY name',
  );
  return rows.filter((r) => current.get(r.name) !== r.checksum).map((r) => r.name);
}

/**
 * A migration file's statements: it is cut at each `;` that ends a line, except inside a
 * dollar-quoted body (`$$ … $$`: a function's, whose own statements end with `;`, as in 009), and
 * `--` comment lines are dropped.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let quoted = false;
  // Odd pieces are the separators the pattern captured: `$$` or a line-ending `;`.
  for (const [i, piece] of sql.split(/(\$\$|;[ \t]*(?:\r?\n|$))/).entries()) {
    const separator = i % 2 === 1;
    if (separator && piece === '$$') quoted = !quoted;
    if (separator && !quoted && piece !== '$$') {
      statements.push(current);
      current = '';
    } else {
      current += piece;
    }
  }
  statements.push(current);
  return statements.map((s) => s.replace(/^\s*--.*$/gm, '').trim()).filter(Boolean);
}
