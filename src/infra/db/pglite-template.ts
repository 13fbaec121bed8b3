// Pre-initialised PGlite data directories. On an empty DATA_DIR PGlite runs initdb in-process:
// a second PostgreSQL instance, the initdb module, a copy of the WASM heap and a tar of the result,
// which made the first start the service's highest peak (614 MiB with the settings of pglite.ts,
// 1.2 GiB before). `npm ci` (the prepare script) therefore builds, once per PGlite version and
// settings, under node_modules/.cache, a closed data directory that a new DATA_DIR is copied from
// (file by file), so PGlite opens it as an existing database:
// - the migrated template: initdb, our migrations and pg-boss's schema (its queues are created at
//   the first start, with the operator's settings). Its key covers the migration files and the
//   pg-boss version, so a changed migration is never skipped;
// - the plain template (initdb only), used when the migrated one is not current (a migration was
//   added since `npm ci`); the service then migrates as usual.
// Without either (or for another PGlite version) PGlite runs initdb itself, as before.
//
// Measured (bench/memory-probe.ts): PGlite's own `loadDataDir` (a tarball unpacked through the WASM
// heap) started a new directory at a 411-422 MiB peak where a restart on an existing one peaks at
// 276-295; copying the directory costs what a restart costs.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { ROOT } from '../paths.ts';
import { MIGRATIONS_DIR } from './migrate.ts';
import { pgliteModules } from './pglite-wasm.ts';

function packageVersion(name: string): string {
  const entry = fileURLToPath(import.meta.resolve(name));
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (pkg.name === name) return pkg.version;
    }
  }
  return 'unknown';
}

/** Everything the migrated template depends on besides PGlite: our migration files and pg-boss's version. */
function schemaFingerprint(): string {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  return JSON.stringify([
    packageVersion('pg-boss'),
    ...files.map((f) => [f, readFileSync(join(MIGRATIONS_DIR, f), 'utf8')]),
  ]);
}

export type TemplateVariant = 'initdb' | 'migrated';

/** Where the template for this PGlite version, these initdb parameters (and, migrated, this schema) lives. */
export function templatePath(initDbStartParams: string[], variant: TemplateVariant = 'initdb'): string {
  const hash = createHash('sha256').update(JSON.stringify(initDbStartParams));
  if (variant === 'migrated') hash.update(schemaFingerprint());
  const key = hash.digest('hex').slice(0, 12);
  return join(
    ROOT,
    'node_modules',
    '.cache',
    'channel-shorts',
    `pglite-${packageVersion('@electric-sql/pglite')}-${variant}-${key}`,
  );
}

/**
 * The template a new directory (no PG_VERSION) would be filled from: the migrated one if current, else the plain one.
 */
export function templateFor(dataDir: string, initDbStartParams: string[]): string | undefined {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return undefined;
  return (['migrated', 'initdb'] as const)
    .map((variant) => templatePath(initDbStartParams, variant))
    .find((path) => existsSync(join(path, 'PG_VERSION')));
}

/** Fills a new data directory from its template; returns the template used, or undefined (PGlite will run initdb). */
export async function seedFromTemplate(dataDir: string, initDbStartParams: string[]): Promise<string | undefined> {
  const template = templateFor(dataDir, initDbStartParams);
  if (!template) return undefined;
  // PG_VERSION last: it is what marks a directory as a database (templateFor, pglite-wasm.ts and
  // PostgreSQL itself), so a copy cut short (a crash, a full disk) is made again at the next open
  // instead of being opened half-made; the files already there are overwritten then, since a
  // directory without PG_VERSION holds no database yet.
  const version = join(template, 'PG_VERSION');
  await cp(template, dataDir, { recursive: true, force: true, filter: (source) => source !== version });
  await cp(version, join(dataDir, 'PG_VERSION'));
  return template;
}

/**
 * Builds a template: initdb into a new directory, `prepare` on the open database (the migrated
 * variant), closed, then moved into place (a half-built directory is never used).
 */
export async function buildTemplate(
  options: { startParams: string[]; initDbStartParams: string[] },
  prepare?: (pglite: PGlite) => Promise<void>,
): Promise<string> {
  const path = templatePath(options.initDbStartParams, prepare ? 'migrated' : 'initdb');
  if (existsSync(join(path, 'PG_VERSION'))) return path;
  const partial = `${path}.${process.pid}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(dirname(partial), { recursive: true });
  const pg = await PGlite.create(partial, { ...options, ...(await pgliteModules(null)) });
  try {
    if (prepare) await prepare(pg);
  } finally {
    await pg.close();
  }
  await rm(path, { recursive: true, force: true });
  await rename(partial, path);
  return path;
}
