// The embedded database's stand-in for autovacuum: PGlite never vacuums by itself, so dead
// rows piled up and tables only grew. Real PGlite, the service's migrations.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openPglite } from '../src/infra/db/pglite.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import type { Database } from '../src/infra/db/database.ts';
import { vacuumDueTables } from '../src/infra/db/pglite-autovacuum.ts';

describe('embedded autovacuum', () => {
  let db: Database;
  // PostgreSQL publishes table statistics lazily; force them out before reading them.
  const flushStats = () => db.query('SELECT pg_stat_force_next_flush()').then(() => db.query('SELECT 1'));
  const stats = async (table: string) => {
    await flushStats();
    const [row] = await db.query<{ dead: number; size: number; last_vacuum: Date | null }>(
      `SELECT n_dead_tup::int AS dead, pg_total_relation_size(relid)::int AS size, last_vacuum FROM pg_stat_all_tables WHERE relid = $1::regclass`,
      [table],
    );
    return row!;
  };

  before(async () => {
    db = await openPglite(null);
    await migrate(db);
    await db.query('CREATE TABLE churn (id int PRIMARY KEY, v int NOT NULL)');
    await db.query('CREATE TABLE calm (id int PRIMARY KEY, v int NOT NULL)');
    await db.query('INSERT INTO churn SELECT g, 0 FROM generate_series(1, 1000) g');
    await db.query('INSERT INTO calm SELECT g, 0 FROM generate_series(1, 1000) g');
    await flushStats();
    await vacuumDueTables(db); // the migrations' and the inserts' own due work
  });
  after(() => db.close());

  it('PGlite itself never vacuums: dead rows stay', async () => {
    for (let i = 0; i < 20; i++) await db.query('UPDATE churn SET v = v + 1');
    await db.query('UPDATE calm SET v = v + 1 WHERE id <= 10');
    const churn = await stats('churn');
    // Page pruning on access reclaims a few; the bulk stays.
    assert.ok(churn.dead > 15_000, `dead rows: ${churn.dead}`);
    assert.equal(churn.last_vacuum, null);
  });

  it('vacuums the tables past the threshold, leaves the others, and the space is reused afterwards', async () => {
    const round = await vacuumDueTables(db);
    assert.deepEqual(round.vacuumed, ['public.churn']);
    assert.ok(
      !round.analyzed.includes('public.calm') && !round.vacuumed.includes('public.calm'),
      '10 changed rows of 1,000 are under every threshold',
    );
    const vacuumed = await stats('churn');
    assert.equal(vacuumed.dead, 0);
    assert.ok(vacuumed.last_vacuum instanceof Date);
    assert.ok((await stats('calm')).dead > 0, 'calm was left alone');
    // Updates after the vacuum reuse the freed space instead of growing the table.
    await db.query('UPDATE churn SET v = v + 1');
    await vacuumDueTables(db);
    for (let i = 0; i < 5; i++) {
      await db.query('UPDATE churn SET v = v + 1');
      await vacuumDueTables(db);
    }
    assert.equal((await stats('churn')).size, vacuumed.size);
  });

  it('analyzes a table with enough changes that do not leave dead rows (inserts)', async () => {
    await db.query('INSERT INTO calm SELECT g, 0 FROM generate_series(1001, 1200) g');
    await flushStats();
    const round = await vacuumDueTables(db);
    assert.ok(round.analyzed.includes('public.calm') || round.vacuumed.includes('public.calm'), JSON.stringify(round));
    const [row] = await db.query<{ last_analyze: Date | null }>(
      `SELECT last_analyze FROM pg_stat_all_tables WHERE relid = 'calm'::regclass`,
    );
    assert.ok(row!.last_analyze instanceof Date);
  });
});
