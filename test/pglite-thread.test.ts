// The embedded database on its own thread: what callers relied on in-process still holds.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPgliteThread } from '../src/infra/db/pglite-thread.ts';
import { DataDirLockedError, LOCK_FILE_NAME } from '../src/infra/db/data-dir-lock.ts';
import { isRetryableTransactionError } from '../src/infra/db/database.ts';

describe('PGlite on a worker thread', () => {
  it('passes rows, PostgreSQL error fields and transaction outcomes across the thread, and owns the directory lock', async (ctx) => {
    const dir = await mkdtemp(join(tmpdir(), 'cs-thread-'));
    ctx.after(async () => {
      await rm(dir, { recursive: true, force: true });
    });
    const db = await openPgliteThread(dir, { role: 'test' });
    await db.query('CREATE TABLE t (id int PRIMARY KEY, at timestamptz, doc jsonb)');
    const at = new Date('2026-11-23T10:00:00.000Z');
    await db.query('INSERT INTO t VALUES (1, $1, $2)', [at, JSON.stringify({ a: [1, 2] })]);
    assert.deepEqual(
      await db.query('SELECT * FROM t'),
      [{ id: 1, at, doc: { a: [1, 2] } }],
      'Dates and parsed JSON cross as they are',
    );

    const duplicate = await db
      .query('INSERT INTO t (id) VALUES (1)')
      .catch((e: unknown) => e as Error & { code?: string; constraint?: string });
    assert.ok(duplicate instanceof Error);
    assert.equal(duplicate.code, '23505');
    assert.equal(duplicate.constraint, 't_pkey');

    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES (2)');
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    const kept = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id) VALUES (3)');
      // pg-boss's adapter shape: parameterless statements may be several at once.
      return (await tx.jobDb.executeSql('SELECT 10 AS a; SELECT 20 AS b')).rows;
    });
    assert.deepEqual(kept, [{ a: 10 }, { b: 20 }]);
    assert.deepEqual(
      (await db.query<{ id: number }>('SELECT id FROM t ORDER BY id')).map((r) => r.id),
      [1, 3],
      'the thrown transaction left nothing',
    );
    assert.equal(isRetryableTransactionError(duplicate), false);

    await assert.rejects(
      openPgliteThread(dir, { role: 'second' }),
      DataDirLockedError,
      'a second opener is refused while the first holds the directory',
    );
    await db.close();
    const again = await openPgliteThread(dir, { role: 'test' });
    assert.deepEqual(
      (await again.query<{ n: number }>('SELECT count(*)::int AS n FROM t'))[0],
      { n: 2 },
      'committed data is there after a reopen',
    );
    await again.close();
  });

  it('reports a new directory that cannot be filled from the template, and lets go of its lock', async (ctx) => {
    // The thread fills a new directory from the template while this thread holds the lock: a file
    // where the template has a directory makes the copy fail.
    const dir = await mkdtemp(join(tmpdir(), 'cs-thread-seed-'));
    ctx.after(async () => {
      await rm(dir, { recursive: true, force: true });
    });
    await writeFile(join(dir, 'base'), 'not a directory');
    const failure = await openPgliteThread(dir, { role: 'test' }).then(
      () => null,
      (e: unknown) => e as Error & { code?: string; path?: string },
    );
    assert.ok(failure instanceof Error, 'the open is refused');
    assert.equal(failure.code, 'ERR_FS_CP_DIR_TO_NON_DIR');
    assert.match(String(failure.path), /base$/, 'with the path it could not fill');
    assert.equal(existsSync(join(dir, LOCK_FILE_NAME)), false, 'the lock is released');
    await rm(join(dir, 'base'));
    const db = await openPgliteThread(dir, { role: 'test' });
    try {
      assert.deepEqual(
        await db.query('SELECT 1 AS one'),
        [{ one: 1 }],
        'the directory opens once the obstacle is gone',
      );
    } finally {
      await db.close();
    }
  });
});
