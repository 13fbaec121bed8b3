// The snapshots' monthly partitions on both stores: the months around now exist after migrating, a
// point outside them waits in the default partition until its month is created, creating months is
// idempotent and safe from two connections at once, and an existing unpartitioned table keeps
// every point when it is migrated, on either store.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { Database } from '../src/infra/db/database.ts';
import { MIGRATIONS_DIR, migrate, splitStatements } from '../src/infra/db/migrate.ts';
import { openDatabase } from '../src/infra/db/open-database.ts';
import { openPostgres } from '../src/infra/db/postgres.ts';
import { openPgliteThread } from '../src/infra/db/pglite-thread.ts';
import { addMonthPartitions } from '../src/domain/stats/partitions.ts';
import { writeShortPoints, type ShortPoint } from '../src/domain/stats/snapshots.ts';
import { readSeries } from '../src/domain/stats/series.ts';
import { ownLockStatus, runDoctor } from '../src/domain/operators/doctor.ts';
import { createPostgresDatabase, skipWithout } from '../support/databases.ts';

const point = (videoId: string, at: string, views: number): ShortPoint => ({
  videoId,
  channelId: `UC${'p'.repeat(22)}`,
  at: new Date(at),
  views: String(views),
  likes: null,
  comments: null,
  exact: true,
  publishedAt: null,
});

const monthName = (at: Date) => `stats_points_${at.getUTCFullYear()}_${String(at.getUTCMonth() + 1).padStart(2, '0')}`;

async function rowsIn(db: Database, table: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return row!.n;
}

/** The names of the snapshots' partitions (the months and the default one). */
async function partitionNames(db: Database): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'stats_points'::regclass ORDER BY c.relname`,
  );
  return rows.map((r) => r.name);
}

/** A database with no migration applied (PGlite in memory, or a new PostgreSQL database). */
async function openUnmigrated(t: TestContext, store: 'pglite' | 'postgres'): Promise<Database> {
  if (store === 'pglite') {
    const db = await openPgliteThread(null, { role: 'test' });
    t.after(() => db.close());
    return db;
  }
  const pg = await createPostgresDatabase();
  const db = openPostgres(pg.url, 1);
  t.after(async () => {
    await db.close();
    await pg.drop();
  });
  return db;
}

async function open(t: TestContext, store: 'pglite' | 'postgres'): Promise<Database> {
  const db = await openUnmigrated(t, store);
  await migrate(db);
  return db;
}

for (const store of ['pglite', 'postgres'] as const) {
  describe(`snapshot partitions on ${store}`, { skip: skipWithout(store) }, () => {
    it('has this month and the next two after migrating', async (t) => {
      const db = await open(t, store);
      const names = await partitionNames(db);
      const now = new Date();
      for (let k = 0; k <= 2; k++) {
        const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 1));
        assert.ok(names.includes(monthName(month)), `${monthName(month)} in ${names.join(', ')}`);
      }
      assert.ok(names.includes('stats_points_default'));
    });

    it('moves points out of the default partition when their month is created, once', async (t) => {
      const db = await open(t, store);
      await writeShortPoints(db, [point('far0000000a', '2031-03-31T23:59:59.999Z', 10)], 0);
      await writeShortPoints(db, [point('far0000000a', '2031-04-01T00:00:00.000Z', 25)], 0);
      assert.equal(await rowsIn(db, 'stats_points_default'), 2);
      const partitionsFinding = async () =>
        (await runDoctor(db, { lock: ownLockStatus(db) })).findings.find(
          (f) => f.check === 'statistics → month partitions',
        );
      assert.deepEqual((await partitionsFinding())?.details, [
        '2 snapshots in the default partition: no month partition covers them',
      ]);
      assert.equal(await addMonthPartitions(db, Date.parse('2031-03-15T12:00:00Z')), 3);
      assert.equal(await rowsIn(db, 'stats_points_default'), 0);
      assert.equal((await partitionsFinding())?.severity, 'ok');
      // The UTC month's bounds: the last millisecond of March is in March, midnight UTC in April.
      assert.equal(await rowsIn(db, 'stats_points_2031_03'), 1);
      assert.equal(await rowsIn(db, 'stats_points_2031_04'), 1);
      assert.equal(await rowsIn(db, 'stats_points_2031_05'), 0);
      assert.equal(await addMonthPartitions(db, Date.parse('2031-03-15T12:00:00Z')), 0);
      const series = await readSeries(db, 'far0000000a', {
        from: '2031-03-01T00:00:00Z',
        to: '2031-04-30T00:00:00Z',
        now: Date.parse('2031-04-01T00:00:00Z'),
      });
      assert.deepEqual(
        series.points.map((p) => [p.at, p.viewCount]),
        [
          ['2031-03-31T23:59:59.999Z', 10],
          ['2031-04-01T00:00:00.000Z', 25],
        ],
      );
      // Written after its month exists, a point goes straight there.
      await writeShortPoints(db, [point('far0000000a', '2031-05-02T00:00:00Z', 40)], 0);
      assert.equal(await rowsIn(db, 'stats_points_2031_05'), 1);
      assert.equal(await rowsIn(db, 'stats_points_default'), 0);
    });
  });
}

describe('snapshot partitions on PostgreSQL, shared by instances', { skip: skipWithout('postgres') }, () => {
  it('creates each month once when two instances add the same months together', async (t) => {
    const pg = await createPostgresDatabase();
    const one = await openDatabase({ DATA_DIR: ':memory:', DATABASE_URL: pg.url, DATABASE_POOL_SIZE: 2 });
    const two = openPostgres(pg.url, 2);
    t.after(async () => {
      await Promise.all([one.close(), two.close()]);
      await pg.drop();
    });
    const at = Date.parse('2032-07-10T00:00:00Z');
    const created = await Promise.all([addMonthPartitions(one, at), addMonthPartitions(two, at)]);
    assert.equal(created[0]! + created[1]!, 3);
    assert.equal((await partitionNames(one)).filter((name) => name.startsWith('stats_points_2032_')).length, 3);
  });
});

for (const store of ['pglite', 'postgres'] as const) {
  describe(`upgrading to partitions on ${store}`, { skip: skipWithout(store) }, () => {
    it('keeps every point of an unpartitioned table when migrated', async (t) => {
      const raw = await openUnmigrated(t, store);
      // The schema as it was before the partitions: every migration up to 025, recorded as applied.
      const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql') && f < '026').sort();
      await raw.query(
        'CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      for (const file of files) {
        for (const statement of splitStatements(await readFile(join(MIGRATIONS_DIR, file), 'utf8')))
          await raw.query(statement);
        await raw.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      }
      const points = [
        point('old0000000a', '2024-12-31T23:00:00Z', 1),
        point('old0000000b', '2025-06-15T00:00:00Z', 2),
        point('old0000000c', new Date().toISOString(), 3),
      ];
      for (const p of points) await writeShortPoints(raw, [p], 0);
      assert.deepEqual((await migrate(raw)).slice(0, 1), ['026_stats_points_by_month.sql']);
      const names = await partitionNames(raw);
      // Every month from the oldest point's to two after this one.
      assert.ok(names.includes('stats_points_2024_12') && names.includes('stats_points_2025_01'));
      assert.ok(names.includes(monthName(new Date())));
      assert.equal(await rowsIn(raw, 'stats_points'), 3);
      assert.equal(await rowsIn(raw, 'stats_points_default'), 0);
      assert.equal(await rowsIn(raw, 'stats_points_2024_12'), 1);
      assert.equal(await rowsIn(raw, 'stats_points_2025_06'), 1);
    });
  });
}
