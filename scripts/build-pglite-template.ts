// Run by `npm ci` / `npm install` (prepare): builds the initialised PGlite data directory that a new
// DATA_DIR is filled from (src/infra/db/pglite-template.ts). Safe to run again; the service works
// without it (it then runs initdb itself, with a higher memory peak), so a failure here only warns.
import { buildTemplate } from '../src/infra/db/pglite-template.ts';
import { PGLITE_OPTIONS } from '../src/infra/db/pglite.ts';

try {
  console.log(`PGlite template: ${await buildTemplate(PGLITE_OPTIONS)}`);
} catch (error) {
  console.warn(`PGlite template not built (new data directories will run initdb): ${(error as Error).message}`);
}
