// Which statements to prepare, and under what name. Shared by the embedded store
// (pglite-prepared.ts) and the PostgreSQL pool (postgres.ts): a statement is prepared from its
// second run, so one-off statements (migrations, operator commands) are never kept, and at most
// `maxPrepared` distinct statements are, per connection; beyond that a statement runs unprepared.
// The name is derived from the text, so every connection of a pool names a statement alike.
import { createHash } from 'node:crypto';

/** How many distinct statements are counted before the counts start over (bounds the map). */
const MAX_COUNTED = 4096;

export type StatementNames = (sql: string) => string | undefined;

export function statementNames({ maxPrepared = 256 } = {}): StatementNames {
  const named = new Map<string, string>();
  const seen = new Map<string, number>();
  return (sql) => {
    const name = named.get(sql);
    if (name !== undefined) return name;
    const runs = (seen.get(sql) ?? 0) + 1;
    if (seen.size >= MAX_COUNTED) seen.clear();
    seen.set(sql, runs);
    if (runs < 2 || named.size >= maxPrepared) return undefined;
    const fresh = `cs_${createHash('sha256').update(sql).digest('base64url').slice(0, 22)}`;
    named.set(sql, fresh);
    return fresh;
  };
}
