// A new DATA_DIR is filled from the pre-built PGlite template and behaves like one made by
// initdb: migrated, writable, reopened with its data; an existing directory never takes the template.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTemplate, templateFor, templatePath } from '../src/infra/db/pglite-template.ts';
import { PGLITE_OPTIONS, openPglite, pgliteDatabase } from '../src/infra/db/pglite.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { createBoss } from '../src/infra/queue.ts';
import { openDatabase } from '../src/infra/db/open-database.ts';

describe('PGlite data directory template', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('a new directory opens from the template, migrates and keeps its data; an existing one ignores it', async () => {
    if (!existsSync(templatePath(PGLITE_OPTIONS.initDbStartParams))) await buildTemplate(PGLITE_OPTIONS);
    const dir = await mkdtemp(join(tmpdir(), 'cs-template-'));
    dirs.push(dir);
    assert.ok(templateFor(dir, PGLITE_OPTIONS.initDbStartParams), 'a new directory takes the template');
    const db = await openDatabase({ DATA_DIR: dir, DATABASE_POOL_SIZE: 1 });
    await db.query('INSERT INTO settings (key, value) VALUES ($1, $2)', ['template-test', 'kept']);
    const [buffers] = await db.query<{ shared_buffers: string }>('SHOW shared_buffers');
    assert.equal(buffers!.shared_buffers, '16MB');
    // The service's planner settings (pglite.ts) apply to a database opened from the template too.
    const [target] = await db.query<{ default_statistics_target: string }>('SHOW default_statistics_target');
    assert.equal(target!.default_statistics_target, '10');
    await db.close();
    assert.equal(
      templateFor(dir, PGLITE_OPTIONS.initDbStartParams),
      undefined,
      'an initialised directory is never overwritten',
    );
    const reopened = await openDatabase({ DATA_DIR: dir, DATABASE_POOL_SIZE: 1 });
    const rows = await reopened.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [
      'template-test',
    ]);
    assert.deepEqual(
      rows.map((r) => r.value),
      ['kept'],
    );
    await reopened.close();
  });

  it('the migrated template is preferred and current: a new directory needs no migration', async (ctx) => {
    await buildTemplate(PGLITE_OPTIONS, async (pglite) => {
      const db = pgliteDatabase(pglite, null);
      await migrate(db);
      const boss = createBoss(db, { databaseUrl: undefined, onError: () => {} });
      await boss.start();
      await boss.stop({ close: false, graceful: false });
    });
    const dir = await mkdtemp(join(tmpdir(), 'cs-template-'));
    dirs.push(dir);
    assert.equal(
      templateFor(dir, PGLITE_OPTIONS.initDbStartParams),
      templatePath(PGLITE_OPTIONS.initDbStartParams, 'migrated'),
    );
    const db = await openPglite(dir);
    ctx.after(() => db.close());
    assert.deepEqual(await migrate(db), [], 'every migration is already applied');
    const [boss] = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'pgboss'",
    );
    assert.ok(boss!.n > 0, "pg-boss's schema is there");
  });
});
