// A pre-initialised PGlite data directory (#13). On an empty DATA_DIR PGlite runs initdb in-process:
// a second PostgreSQL instance, the initdb module, a copy of the WASM heap and a tar of the result,
// which made the first start the service's highest peak (614 MiB with the settings of pglite.ts,
// 1.2 GiB before). The library's documented alternative is `loadDataDir`: a tarball made by
// `dumpDataDir()` of a freshly initialised database. `npm ci` (the prepare script) builds that
// tarball once, for the installed PGlite version and these settings, under node_modules/.cache;
// the service only unpacks it. Without the file (or for another PGlite version) initdb runs as before.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function pgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/** Where the template for this PGlite version and these initdb parameters lives. */
export function templatePath(initDbStartParams: string[]): string {
  const key = createHash('sha256').update(JSON.stringify(initDbStartParams)).digest('hex').slice(0, 12);
  return join(ROOT, 'node_modules', '.cache', 'channel-shorts', `pglite-${pgliteVersion()}-${key}.tar.gz`);
}

/** The template's bytes when the data directory is new (no PG_VERSION) and a template exists. */
export function templateFor(dataDir: string, initDbStartParams: string[]): Blob | undefined {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return undefined;
  const path = templatePath(initDbStartParams);
  return existsSync(path) ? new Blob([readFileSync(path)]) : undefined;
}

/** Runs initdb in memory and stores the dump (atomically: a half-written file is never used). */
export async function buildTemplate(options: { startParams: string[]; initDbStartParams: string[] }): Promise<string> {
  const path = templatePath(options.initDbStartParams);
  const pg = await PGlite.create(options);
  try {
    const dump = await pg.dumpDataDir('gzip');
    await mkdir(dirname(path), { recursive: true });
    const partial = `${path}.${process.pid}.partial`;
    await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
    await rename(partial, path);
  } finally {
    await pg.close();
  }
  return path;
}
