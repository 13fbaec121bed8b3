// The embedded database's own thread: PGlite (PostgreSQL compiled to WASM) runs here, so its
// work no longer shares the event loop with HTTP. Measured on the hot path, PGlite's WASM and its
// JS layer were ~40 % of the service's CPU on the one thread; here they run on another core while
// the HTTP thread goes on. The main side is pglite-thread.ts; it owns the data directory's lock.
//
// Protocol: each request carries an id and gets one reply with that id. A transaction is opened by
// `begin` (the reply names it), its statements carry its number, and `end` commits or rolls it back;
// PGlite's own transaction() runs it, so statements outside it wait exactly as they did in-process.
// Statements run more than once are prepared (pglite-prepared.ts).
import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { createPglite, PGLITE_OPTIONS } from './pglite.ts';
import { seedFromTemplate } from './pglite-template.ts';
import { memoryReducingCollection } from '../idle-memory.ts';
import { preparedQueries, type PreparedQueries } from './pglite-prepared.ts';
import type { ThreadReply, ThreadRequest } from './pglite-thread.ts';

const port = parentPort!;
const { dataDir } = workerData as { dataDir: string | null };

/** Rejects a transaction's callback so that PGlite rolls it back; not an error to report. */
const ROLL_BACK = Symbol('roll back');

interface OpenTransaction {
  tx: Transaction;
  end(commit: boolean, replyId: number): void;
}

const open = new Map<number, OpenTransaction>();
let reduceMemory: (() => void) | undefined;
let lastTransaction = 0;

function reply(message: ThreadReply): void {
  port.postMessage(message);
}

/** What crosses the thread boundary of an error: PostgreSQL's fields (code first: callers branch on it). */
function errorFields(error: unknown): Record<string, unknown> {
  const e = error as Record<string, unknown> & { message?: string; name?: string };
  const fields: Record<string, unknown> = { message: String(e?.message ?? error), name: e?.name ?? 'Error' };
  // PostgreSQL's fields, and a system error's (seeding a new directory from the template: its path, syscall…).
  for (const key of [
    'code',
    'detail',
    'hint',
    'severity',
    'constraint',
    'table',
    'column',
    'schema',
    'where',
    'position',
    'path',
    'dest',
    'syscall',
    'errno',
  ]) {
    if (e?.[key] !== undefined) fields[key] = e[key];
  }
  return fields;
}

const flatten = (results: Array<{ rows?: unknown[] }>) => results.map((r) => ({ rows: r.rows ?? [] }));

async function handle(pglite: PGlite, statements: PreparedQueries, m: ThreadRequest): Promise<void> {
  try {
    switch (m.op) {
      case 'query': {
        const tx = m.tx === undefined ? undefined : open.get(m.tx)?.tx;
        if (m.tx !== undefined && !tx) throw new Error(`transaction ${m.tx} is not open`);
        const result = await statements.query(m.sql, m.params ?? [], tx);
        return reply({ id: m.id, ok: true, rows: result.rows });
      }
      case 'exec': {
        const runner = m.tx === undefined ? pglite : open.get(m.tx)?.tx;
        if (!runner) throw new Error(`transaction ${m.tx} is not open`);
        return reply({ id: m.id, ok: true, results: flatten(await runner.exec(m.sql)) });
      }
      case 'begin': {
        const number = ++lastTransaction;
        let endReply = -1;
        let committing = false;
        let begun = false;
        pglite
          .transaction(
            (tx) =>
              new Promise<void>((resolve, reject) => {
                begun = true;
                open.set(number, {
                  tx,
                  end(commit, replyId) {
                    endReply = replyId;
                    committing = commit;
                    if (commit) resolve();
                    else reject(ROLL_BACK);
                  },
                });
                reply({ id: m.id, ok: true, transaction: number });
              }),
          )
          .then(
            () => reply({ id: endReply, ok: true }),
            (error: unknown) => {
              // Rolled back as asked; or the commit failed (reported to `end`); or BEGIN itself failed.
              if (!begun) reply({ id: m.id, ok: false, error: errorFields(error) });
              else if (error === ROLL_BACK && !committing) reply({ id: endReply, ok: true });
              else reply({ id: endReply, ok: false, error: errorFields(error) });
            },
          )
          .finally(() => open.delete(number));
        return;
      }
      case 'end': {
        const transaction = open.get(m.tx);
        if (!transaction) throw new Error(`transaction ${m.tx} is not open`);
        transaction.end(m.commit, m.id);
        return;
      }
      case 'reduceMemory': {
        // This thread's heap, as the HTTP thread does with its own when the process goes idle (idle-memory.ts).
        reduceMemory ??= memoryReducingCollection();
        reduceMemory();
        return reply({ id: m.id, ok: true });
      }
      case 'close': {
        if (!pglite.closed) await pglite.close();
        return reply({ id: m.id, ok: true });
      }
    }
  } catch (error) {
    reply({ id: m.id, ok: false, error: errorFields(error) });
  }
}

try {
  // A new directory is filled from the pre-built template before PGlite opens it (the owning thread holds its lock).
  if (dataDir) await seedFromTemplate(dataDir, PGLITE_OPTIONS.initDbStartParams);
  const pglite = await createPglite(dataDir);
  const statements = preparedQueries(pglite);
  port.on('message', (m: ThreadRequest) => void handle(pglite, statements, m));
  reply({ id: 0, ok: true });
} catch (error) {
  reply({ id: 0, ok: false, error: errorFields(error) });
}
