// Run by `npm ci` / `npm install` (prepare): builds the initialised PGlite data directories that a new
// DATA_DIR is filled from (src/infra/db/pglite-template.ts): one straight from initdb, one migrated
// as well (our migrations and pg-boss's schema; the queues are created at the first start, with the
// operator's settings). Safe to run again; the service works without them (it then runs initdb and
// the migrations itself, with a higher memory peak), so a failure here only warns.
import { buildTemplate } from '../src/infra/db/pglite-template.ts';
import { PGLITE_OPTIONS, pgliteDatabase } from '../src/infra/db/pglite.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { createBoss } from '../src/infra/queue.ts';

try {
  console.log(`PGlite template: ${await buildTemplate(PGLITE_OPTIONS)}`);
  const migrated = await buildTemplate(PGLITE_OPTIONS, async (pglite) => {
    const db = pgliteDatabase(pglite, null);
    await migrate(db);
    const boss = createBoss(db, { databaseUrl: undefined, onError: (error) => console.warn(error.message) });
    await boss.start();
    await boss.stop({ close: false, graceful: false });
  });
  console.log(`PGlite template, migrated: ${migrated}`);
} catch (error) {
  console.warn(
    `PGlite template not built (new data directories will run initdb or the migrations): ${(error as Error).message}`,
  );
}
