// Where the repository's files are, wherever the code runs from: its TypeScript sources (tests, the
// CLI) or the bundle `npm start` runs (dist/, scripts/build-bundle.ts). The modules of a bundle share
// one import.meta.url, the bundle's, so a path relative to a module's own file would point elsewhere
// once bundled: every file the service reads at run time is named from the root instead.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dir === dirname(dir)) throw new Error(`no package.json above ${from}`);
  }
}

/** The repository's root: the nearest directory above this code holding package.json. */
export const ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** True when this code runs from the bundle (dist/), not from its TypeScript sources. */
export const BUNDLED = !import.meta.url.endsWith('.ts');
