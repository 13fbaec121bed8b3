// Bundles the service's processes into dist/: `npm start` and `npm run worker` run the bundle,
// which `npm ci` builds (prepare) and `npm start` rebuilds when the sources changed.
//
// Run from its sources the service loads ~2,300 ES modules (typebox's 683, youtubei.js's 672, our
// ~150 TypeScript files…), and each costs the process its loader records and compiled code besides
// its text, and our .ts files the type stripper (amaro, ~18 MiB in each thread that loads one). The
// bundle is a handful of modules: measured in bench/reading.md (the round on the service as a bundle).
// It is the same code, not minified, so stack traces still name our functions; files the service
// reads at run time are named from the root (src/infra/paths.ts). Packages that load files of their
// own stay outside and load from node_modules: PGlite (its WASM and data), argon2 (a native addon),
// koffi (a native addon from a per-platform package), swagger and swagger-ui (their package.json,
// their assets), pino (its transports' worker files); and @fastify/static, which swagger-ui loads
// from there itself: the dashboard is served by that one copy rather than by a second, bundled one.
// Bundled code that reads files beside its own (youtubei.js's on-disk cache, which the service does
// not use; ioredis's friendly error stacks, off) would look beside the bundle instead.
//
// `--if-stale`: build only when a source file, the lockfile, this script or Node's version changed
// since the last build (a hash of them is kept in the bundle), so `npm start` never runs an old one.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../src/infra/paths.ts';

export const DIST = join(ROOT, 'dist');
const HASH_FILE = 'build-hash';

/** The bundle's entries: the API process, the worker process and the embedded database's thread (pglite-thread.ts). */
export const ENTRIES = {
  server: 'src/server.ts',
  worker: 'src/worker.ts',
  'pglite-worker': 'src/infra/db/pglite-worker.ts',
};

/** Packages loaded from node_modules at run time, not bundled: each reads files beside its own code (or, @fastify/static, is loaded from there by one that does). */
export const EXTERNAL = [
  '@electric-sql/pglite',
  '@node-rs/argon2',
  'koffi',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  '@fastify/static',
  'pino',
  'thread-stream',
];

/**
 * Flat: every chunk beside the entries, where pglite-thread.ts looks for the worker's module.
 * ASCII only, without comments: V8 keeps each module's source text for the life of the process, at
 * one byte per character only when all of it is Latin-1 — one '…' in a comment or '→' in a string
 * made the 3.4 MB chunk of our dependencies a 7.3 MiB two-byte string (the HTTP thread's largest
 * object at idle, bench/reading.md). Comments were ~10 % of the text.
 */
export const OUTPUT = {
  format: 'esm',
  entryFileNames: '[name].mjs',
  chunkFileNames: '[name]-[hash].mjs',
  charset: 'ascii',
  comments: false,
} as const;

/**
 * Modules a bundled dependency imports that the bundle replaces with a module of ours loading them on
 * first use (by package: the imported module, the importing package, the replacement; src/infra/on-demand/).
 * meriyah: a JavaScript parser youtubei.js needs only to decipher stream URLs, which the service never
 * asks for; cron-parser (with luxon) and rrule-temporal: pg-boss's schedules, which it does not use.
 */
export const ON_DEMAND = [
  { module: 'meriyah', importer: 'youtubei.js', replacement: 'src/infra/on-demand/meriyah.ts' },
  { module: 'cron-parser', importer: 'pg-boss', replacement: 'src/infra/on-demand/cron-parser.ts' },
  { module: 'rrule-temporal', importer: 'pg-boss', replacement: 'src/infra/on-demand/rrule-temporal.ts' },
];

/** The bundle of the sources as they are (rolldown, loaded only to build: checking costs no more than hashing). */
export async function openBundle() {
  const { rolldown } = await import('rolldown');
  return rolldown({
    input: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(ROOT, file)])),
    platform: 'node',
    cwd: ROOT,
    external: (id) => EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`)),
    plugins: [
      {
        name: 'on-demand',
        resolveId: (source: string, importer: string | undefined) => {
          // The importing file's own package: the last node_modules/ segment of its path.
          const from = importer?.split('/node_modules/').at(-1);
          const entry = ON_DEMAND.find((e) => source === e.module && from?.startsWith(`${e.importer}/`));
          return entry ? join(ROOT, entry.replacement) : null;
        },
      },
    ],
    logLevel: 'warn',
  });
}

/** What the bundle is built from: every file under src/, the lockfile, this script and Node's version. */
function sourceHash(): string {
  const hash = createHash('sha256').update(process.versions.node);
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of [...files, join(ROOT, 'package-lock.json'), join(ROOT, 'scripts', 'build-bundle.ts')]) {
    hash.update(file.slice(ROOT.length)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** Builds dist/ (unless `ifStale` and it already holds the bundle of the sources as they are now); returns whether it built. */
export async function buildBundle({ ifStale = false } = {}): Promise<boolean> {
  const wanted = sourceHash();
  const hashFile = join(DIST, HASH_FILE);
  if (ifStale && existsSync(hashFile) && readFileSync(hashFile, 'utf8') === wanted) return false;
  // Built beside dist/ and swapped in whole: a process starting meanwhile loads the old bundle or the new one.
  const building = `${DIST}.building-${process.pid}`;
  const old = `${DIST}.old-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const bundle = await openBundle();
  try {
    await bundle.write({ ...OUTPUT, dir: building });
  } finally {
    await bundle.close();
  }
  writeFileSync(join(building, HASH_FILE), wanted);
  try {
    renameSync(DIST, old);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  try {
    renameSync(building, DIST);
  } catch (error) {
    // Another build installed its bundle between the two renames: it is of the same sources or newer.
    if (!existsSync(DIST)) throw error;
    rmSync(building, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  if (await buildBundle({ ifStale: process.argv.includes('--if-stale') })) {
    console.error(
      `Bundled ${Object.values(ENTRIES).join(', ')} into dist/ in ${Math.round(performance.now() - started)} ms`,
    );
  }
}
