// Prepared statements: a statement run again is prepared (src/infra/db/statement-names.ts),
// on embedded PGlite (pglite-prepared.ts: it answers exactly as PGlite's query() does) and on each
// connection of the PostgreSQL pool (postgres.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PGlite } from '@electric-sql/pglite';
import { preparedQueries, type PreparedQueries } from '../src/infra/db/pglite-prepared.ts';
import { openPostgres } from '../src/infra/db/postgres.ts';
import { createPostgresDatabase, skipWithout } from '../support/databases.ts';

describe('PGlite prepared statements', () => {
  let pglite: PGlite;
  let statements: PreparedQueries;
  const kept = async () =>
    (
      await pglite.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements ORDER BY statement')
    ).rows.map((r) => r.statement);

  before(async () => {
    pglite = await PGlite.create();
    await pglite.exec(
      `CREATE TABLE items (id int PRIMARY KEY, name text, tags text[], body jsonb, big bigint, at timestamptz NOT NULL DEFAULT now())`,
    );
    statements = preparedQueries(pglite, { maxPrepared: 3 });
  });
  after(() => pglite.close());

  it('prepares a statement on its second run and answers as query() does, parameters and types alike', async () => {
    const insert = 'INSERT INTO items (id, name, tags, body, big) VALUES ($1, $2, $3, $4, $5) RETURNING *';
    const first = await statements.query(insert, [1, 'one', ['a', 'b'], { n: 1, list: [1, 2] }, 2 ** 40], undefined);
    assert.deepEqual(await kept(), [], 'a statement run once is not kept');
    const second = await statements.query(insert, [2, null, [], { n: 2 }, null], undefined);
    assert.equal((await kept()).length, 1, 'run twice: prepared');
    assert.match((await kept())[0]!, /INSERT INTO items/);
    const third = await statements.query(insert, [3, "it's", ['x,y', 'q"z'], [1, 'two'], -5], undefined);
    const select = 'SELECT * FROM items WHERE id = ANY($1::int[]) ORDER BY id';
    const plain = await pglite.query(select, [[1, 2, 3]]);
    await statements.query(select, [[1, 2, 3]], undefined);
    const prepared = await statements.query(select, [[1, 2, 3]], undefined);
    assert.deepEqual(prepared.rows, plain.rows, 'the same rows as query()');
    assert.deepEqual(prepared.fields, plain.fields);
    assert.deepEqual(
      [first.rows[0], second.rows[0], third.rows[0]],
      plain.rows,
      'RETURNING rows alike, whether prepared or not',
    );
    assert.equal(third.affectedRows, 1);
  });

  it('passes errors through with their code and stays usable', async () => {
    const insert = 'INSERT INTO items (id, name) VALUES ($1, $2)';
    await statements.query(insert, [10, 'a'], undefined);
    await assert.rejects(
      statements.query(insert, [10, 'again'], undefined),
      (error: { code?: string }) => error.code === '23505',
    );
    await statements.query(insert, [11, 'b'], undefined);
    assert.deepEqual((await pglite.query('SELECT name FROM items WHERE id >= 10 ORDER BY id')).rows, [
      { name: 'a' },
      { name: 'b' },
    ]);
  });

  it("runs in the caller's transaction: rolled back with it", async () => {
    const update = 'UPDATE items SET name = $2 WHERE id = $1';
    await statements.query(update, [1, 'before'], undefined);
    await pglite.transaction(async (tx) => {
      await statements.query(update, [1, 'inside'], tx);
      assert.deepEqual((await tx.query('SELECT name FROM items WHERE id = 1')).rows, [{ name: 'inside' }]);
      await tx.rollback();
    });
    assert.deepEqual((await pglite.query('SELECT name FROM items WHERE id = 1')).rows, [{ name: 'before' }]);
  });

  it('prepares a kept statement again when the schema changes its result, and keeps no more than the bound', async () => {
    const all = 'SELECT * FROM items WHERE id = $1';
    await statements.query(all, [1], undefined);
    await statements.query(all, [1], undefined);
    await pglite.exec("ALTER TABLE items ADD COLUMN extra text DEFAULT 'x'");
    const after = await statements.query<{ extra: string }>(all, [1], undefined);
    assert.equal(after.rows[0]!.extra, 'x', 'the new column is there');
    const before = (await kept()).length;
    for (const n of [1, 2, 3]) {
      const sql = `SELECT id FROM items WHERE id = $1 AND ${n} = ${n}`;
      await statements.query(sql, [1], undefined);
      assert.deepEqual(
        (await statements.query(sql, [1], undefined)).rows,
        [{ id: 1 }],
        'beyond the bound a statement runs unprepared',
      );
    }
    assert.equal((await kept()).length, 3, `at most 3 kept (had ${before})`);
  });
});

describe('PostgreSQL prepared statements', { skip: skipWithout('postgres') }, () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let db: ReturnType<typeof openPostgres>;
  // One connection, so the statements below and pg_prepared_statements are read on the same session.
  const kept = async () =>
    (await db.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements ORDER BY statement')).map(
      (r) => r.statement,
    );
  before(async () => {
    database = await createPostgresDatabase();
    db = openPostgres(database.url, 1);
    await db.query('CREATE TABLE items (id int PRIMARY KEY, name text)');
  });
  after(async () => {
    await db.close();
    await database.drop();
  });

  it('prepares a statement on its second run, in and out of transactions, and runs it unprepared when a schema change altered its result', async () => {
    const insert = 'INSERT INTO items (id, name) VALUES ($1, $2) RETURNING id, name';
    assert.deepEqual(await db.query(insert, [1, 'one']), [{ id: 1, name: 'one' }]);
    assert.ok(!(await kept()).some((s) => s.includes('INSERT INTO items')), 'run once: not prepared');
    assert.deepEqual(await db.transaction((tx) => tx.query(insert, [2, 'two'])), [{ id: 2, name: 'two' }]);
    assert.deepEqual(await db.query(insert, [3, null]), [{ id: 3, name: null }]);
    assert.ok(
      (await kept()).some((s) => s.includes('INSERT INTO items')),
      'run again: prepared',
    );
    await assert.rejects(
      db.query(insert, [3, 'again']),
      (error: { code?: string }) => error.code === '23505',
      'errors pass through',
    );

    const all = 'SELECT * FROM items WHERE id = $1';
    await db.query(all, [1]);
    await db.query(all, [1]);
    await db.query("ALTER TABLE items ADD COLUMN extra text DEFAULT 'x'");
    assert.deepEqual(await db.query(all, [1]), [{ id: 1, name: 'one', extra: 'x' }]);
  });
});
