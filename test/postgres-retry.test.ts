// A statement run on its own (autocommit) that the server aborts as a deadlock victim had no effect:
// the PostgreSQL adapter runs it again instead of failing the request (a 500 was seen with 50
// concurrent requests of one account).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createPostgresDatabase, skipWithout } from '../support/databases.ts';
import { openPostgres } from '../src/infra/db/postgres.ts';

describe('PostgreSQL statements aborted as deadlock victims', { skip: skipWithout('postgres') }, () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let db: ReturnType<typeof openPostgres>;
  let superuser = false;
  before(async () => {
    database = await createPostgresDatabase();
    // Which of two waiting backends is the victim depends on whose deadlock check runs after the
    // cycle closes: each checks once, deadlock_timeout after it began to wait. The adapter's
    // connections check after 3 s and the other session after 60 s, so the adapter's statement is the
    // victim even when the test needs more than PostgreSQL's default second to close the cycle (a
    // loaded CI machine once did, and the other session was aborted instead).
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    superuser = (await admin.query<{ on: boolean }>("SELECT current_setting('is_superuser') = 'on' AS on")).rows[0]!.on;
    if (superuser)
      await admin.query(`ALTER DATABASE "${new URL(database.url).pathname.slice(1)}" SET deadlock_timeout = '3s'`);
    await admin.end();
    db = openPostgres(database.url, 2);
    await db.query('CREATE TABLE rows (id int PRIMARY KEY, n int NOT NULL)');
    await db.query('INSERT INTO rows VALUES (1, 0), (2, 0)');
  });
  after(async () => {
    await db.close();
    await database.drop();
  });

  it('runs the statement again and it takes effect once', async (context) => {
    // deadlock_timeout can only be set by a superuser (the default TEST_POSTGRES_URL's role is one).
    if (!superuser)
      return context.skip('TEST_POSTGRES_URL names a role that is not a superuser: deadlock_timeout cannot be set');
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    context.after(() => other.end());
    await other.query("SET deadlock_timeout = '60s'");
    await other.query('BEGIN');
    await other.query('UPDATE rows SET n = n + 100 WHERE id = 1');
    // Locks row 2, then waits for row 1 (locking in descending order): its deadlock check (3 s
    // after it began to wait) runs first, once the cycle is closed, and it is the victim.
    const statement = db.query(
      'UPDATE rows SET n = n + 1 FROM (SELECT id FROM rows ORDER BY id DESC FOR UPDATE) x WHERE rows.id = x.id RETURNING rows.id',
    );
    await waitForLockWait(db);
    // Closes the cycle: row 2 is held by the statement.
    const closing = other.query('UPDATE rows SET n = n + 100 WHERE id = 2');
    const outcome = statement.catch((error: unknown) => error);
    // The victim gave row 2 up; its retry waits for row 1 until the other transaction ends.
    await closing;
    await other.query('COMMIT');
    const updated = await outcome;
    assert.ok(Array.isArray(updated), `the statement failed: ${String(updated)}`);
    const final = await db.query<{ id: number; n: number }>('SELECT id, n FROM rows ORDER BY id');
    assert.deepEqual(
      final,
      [
        { id: 1, n: 101 },
        { id: 2, n: 101 },
      ],
      'the retried statement took effect exactly once',
    );
  });
});

/** Until a backend of this database waits on a lock. */
async function waitForLockWait(db: ReturnType<typeof openPostgres>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const [row] = await db.query<{ waiting: number }>(
      "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (row!.waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no statement waited on a lock');
}

describe('PostgreSQL connections the server drops', { skip: skipWithout('postgres') }, () => {
  it('a transaction whose connection is terminated fails on its own, the process stays up, and the pool serves on', async (ctx) => {
    const database = await createPostgresDatabase();
    const db = openPostgres(database.url, 2);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    ctx.after(async () => {
      await admin.end();
      await db.close();
      await database.drop();
    });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const outcome = await db
        .transaction(async (tx) => {
          const [{ pid }] = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')) as [{ pid: number }];
          await admin.query('SELECT pg_terminate_backend($1)', [pid]);
          // The server's goodbye arrives while the transaction holds the connection, between statements.
          await new Promise((resolve) => setTimeout(resolve, 200));
          return tx.query('SELECT 1');
        })
        .then(
          () => 'committed',
          (error: unknown) => (error as Error).message,
        );
      assert.notEqual(outcome, 'committed');
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(uncaught, [], 'no unhandled error event');
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    assert.deepEqual(await db.query('SELECT 1 AS one'), [{ one: 1 }], 'a fresh connection serves the next statement');
  });
});
