// Loads the service's TypeScript modules from type-stripped copies made at install time (#13), so the
// service process never loads Node's type stripper.
//
// Node runs our .ts files by stripping their types as it loads them, with amaro (SWC compiled to
// WebAssembly). Loading it costs every thread that imports a .ts file its own copy: ~18 MiB in the
// main thread (a 3.7 MiB source string plus its WASM instance, in a heap snapshot of the idle
// service) and ~10 MiB in PGlite's worker thread. `npm ci` (prepare: scripts/build-stripped-cache.mjs)
// strips every file under src/ once, with the same stripper, into node_modules/.cache, named by a
// hash of the Node version and the file's exact content; `npm start` and `npm run worker` import
// this file first (`--import`, which worker threads inherit) and each .ts module whose copy exists is
// loaded from it. Type stripping only blanks types out (the tsconfig allows erasable syntax only),
// so the code and its line and column numbers are the ones Node would have run. A file changed since
// the install has no copy under its new hash and loads as usual: never stale, only without the gain.
// Measured (bench/memory-probe.ts, MALLOC_ARENA_MAX=2): see bench/reading.md, #13 eighth round.
//
// JavaScript, not TypeScript: importing a .ts file here would load the stripper it exists to avoid.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Where the stripped copies are kept. */
export const STRIPPED_DIR = join(ROOT, 'node_modules', '.cache', 'channel-shorts', 'stripped');

/**
 * The copy's file name for a module's source: its hash with the Node version's (another Node may
 * strip differently).
 * @param {string | Buffer} source
 * @returns {string}
 */
export function strippedName(source) {
  return `${createHash('sha256').update(process.versions.node).update('\0').update(source).digest('hex')}.js`;
}

registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:') && url.endsWith('.ts')) {
      try {
        const stripped = readFileSync(join(STRIPPED_DIR, strippedName(readFileSync(fileURLToPath(url)))), 'utf8');
        return { format: 'module', source: stripped, shortCircuit: true };
      } catch {
        // No copy for this content (changed since the install, or never built): Node strips it.
      }
    }
    return nextLoad(url, context);
  },
});
