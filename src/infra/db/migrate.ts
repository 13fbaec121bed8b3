// Ordered SQL migrations, applied once each, under an advisory lock so that many instances
// starting together against one PostgreSQL do not race.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from '../paths.ts';
import type { Database } from './database.ts';

/** The migration files (also part of the PGlite template's fingerprint: pglite-template.ts). */
export const MIGRATIONS_DIR = join(ROOT, 'src', 'infra', 'db', 'migrations');
const LOCK_ID = 424242;

export async function migrate(db: Database): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ID]);
    await tx.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = await readFile(join(MIGRATIONS_DIR, file), 'utf8');
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      applied.push(file);
    }
    return applied;
  });
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
