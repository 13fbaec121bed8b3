// Prepared statements for embedded PGlite.
//
// PGlite's query() sends every statement as an unnamed one: PostgreSQL parses, analyses and plans
// it again on each call, and each of the six protocol messages is its own call into WASM. On
// PGlite (WASM, its largest functions compiled by Liftoff only: pglite-wasm.ts) planning is the dearest part of the
// group statements this service runs all the time: a queued settlement group of 10 took ~11 ms, of which
// EXPLAIN ANALYZE put 8.5 ms in planning. A statement run more than once is therefore prepared
// under a name (Parse + Describe, once), and run as Bind + Execute + Sync in one call; PostgreSQL
// then reuses the parse tree and, after five runs, a generic plan when it costs no more than the
// custom ones (its plan cache decides, as for any driver that prepares statements). Results are
// parsed by PGlite's own parseResults with its type parsers, so rows look exactly as query()'s.
// A kept plan follows the data: ANALYZE invalidates the plans of the tables it analyses, and the
// embedded vacuum (pglite-autovacuum.ts) analyses tables as they grow, as autovacuum does on
// PostgreSQL. pg-boss's job fetch (its values inline, sent through exec, pglite-thread.ts) is not
// prepared: tried, the PGlite thread needed 2.9-4.6 s for 1,000 webhook requests instead of
// 2.3-2.6 (why was not found).
//
// Which statements, and how many, statement-names.ts decides.
import { parse, protocol, type PGlite, type Results, type Transaction } from '@electric-sql/pglite';
import { statementNames } from './statement-names.ts';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

interface Prepared {
  name: string;
  paramTypes: number[];
  /** The statement's RowDescription (absent for one that returns no rows). */
  rowDescription: BackendMessage | undefined;
}

export interface PreparedQueries {
  /**
   * Runs `sql` as query() would, prepared when it is worth it; `tx`: in this open transaction
   * (which holds PGlite's transaction lock: statements outside it wait).
   */
  query<T>(sql: string, params: unknown[], tx?: Transaction): Promise<Results<T>>;
}

export function preparedQueries(pglite: PGlite, { maxPrepared = 256 } = {}): PreparedQueries {
  const { serialize } = protocol;
  const nameOf = statementNames({ maxPrepared });
  const prepared = new Map<string, Prepared>();

  async function prepare(sql: string, name: string): Promise<Prepared> {
    const { messages } = await pglite.execProtocol(
      Buffer.concat([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const statement = {
      name,
      paramTypes: parse.parseDescribeStatementResults(messages),
      rowDescription: messages.find((m) => m.name === 'rowDescription'),
    };
    prepared.set(sql, statement);
    return statement;
  }

  async function forget(sql: string, statement: Prepared): Promise<void> {
    prepared.delete(sql);
    await pglite.execProtocol(Buffer.concat([serialize.close({ type: 'S', name: statement.name }), serialize.sync()]), {
      syncToFs: false,
    });
  }

  async function execute<T>(statement: Prepared, params: unknown[]): Promise<Results<T>> {
    // Parameters are serialised as query() does: by the type PostgreSQL inferred for each.
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = pglite.serializers[statement.paramTypes[i]!];
      return serializer ? serializer(value) : String(value);
    });
    const { messages } = await pglite.execProtocol(
      Buffer.concat([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]),
      { syncToFs: false },
    );
    return parse.parseResults(
      statement.rowDescription ? [statement.rowDescription, ...messages] : messages,
      pglite.parsers,
    )[0] as Results<T>;
  }

  async function run<T>(sql: string, name: string, params: unknown[]): Promise<Results<T>> {
    const statement = prepared.get(sql) ?? (await prepare(sql, name));
    try {
      return await execute<T>(statement, params);
    } catch (error) {
      // A schema change under a kept statement whose result columns changed (e.g. SELECT * after a
      // column was added): prepare it again, once.
      if ((error as { code?: string }).code !== '0A000') throw error;
      await forget(sql, statement);
      return execute<T>(await prepare(sql, name), params);
    }
  }

  return {
    async query<T>(sql: string, params: unknown[], tx?: Transaction): Promise<Results<T>> {
      const name = nameOf(sql);
      if (name === undefined) return tx ? tx.query<T>(sql, params) : pglite.query<T>(sql, params);
      // The locks query() takes: the query lock always; outside a transaction, the transaction lock too.
      if (tx) return pglite.runExclusive(() => run<T>(sql, name, params));
      return pglite._runExclusiveTransaction(() =>
        pglite.runExclusive(async () => {
          const result = await run<T>(sql, name, params);
          await pglite.syncToFs();
          return result;
        }),
      );
    },
  };
}
