// The comparison point for the memory figures: an empty Node process with the service's modules
// loaded — every runtime dependency of package.json imported and evaluated, bundled the way
// scripts/build-bundle.ts bundles the service (the same externals and on-demand replacements), run
// with the V8 flags and malloc settings `npm start` uses, and nothing else: no database, no server,
// no request. Machines, Node versions and allocators move this floor and the service's footprint
// together, so the service's RSS as a multiple of it carries across machines where MiB alone does not.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { EXTERNAL, ON_DEMAND, OUTPUT } from '../scripts/build-bundle.ts';
import { ROOT } from '../src/infra/paths.ts';
import { SERVICE_NODE_FLAGS, serviceEnv } from '../support/child-service.ts';
import { residentMemory } from './process-stats.ts';

const ENTRY = '\0module-floor';
// Inside node_modules/, so the externals resolve from the bundle as they do from dist/.
const OUT = join(ROOT, 'node_modules', '.cache', 'bench-module-floor');

export interface ModuleFloor {
  /** Resident memory after the imports and a second idle, in bytes. */
  rss: number;
  /** Peak resident memory up to then, in bytes. */
  peak: number;
  /** Time to import the modules, in ms. */
  importMs: number;
}

/** Bundles the dependencies (every `dependencies` entry of package.json but the runtime) into OUT. */
async function build(): Promise<string> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const names = Object.keys(manifest.dependencies).filter((name) => name !== 'node');
  // Each module kept reachable, so no import is dropped as unused and all of them are evaluated.
  const code = [
    ...names.map((name, i) => `import * as m${i} from ${JSON.stringify(name)};`),
    `globalThis.benchModules = [${names.map((_, i) => `m${i}`).join(', ')}];`,
    'console.log(JSON.stringify({ loaded: true }));',
    'setInterval(() => {}, 2 ** 30);',
  ].join('\n');
  const { rolldown } = await import('rolldown');
  const bundle = await rolldown({
    input: ENTRY,
    platform: 'node',
    cwd: ROOT,
    external: (id) => EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`)),
    plugins: [
      {
        name: 'module-floor',
        resolveId: (source: string, importer: string | undefined) => {
          if (source === ENTRY) return ENTRY;
          const from = importer?.split('/node_modules/').at(-1);
          const entry = ON_DEMAND.find((e) => source === e.module && from?.startsWith(`${e.importer}/`));
          return entry ? join(ROOT, entry.replacement) : null;
        },
        load: (id: string) => (id === ENTRY ? code : null),
      },
    ],
    logLevel: 'silent',
  });
  rmSync(OUT, { recursive: true, force: true });
  try {
    await bundle.write({ ...OUTPUT, dir: OUT, entryFileNames: 'floor.mjs' });
  } finally {
    await bundle.close();
  }
  return join(OUT, 'floor.mjs');
}

let built: Promise<string> | undefined;

/** Starts the floor process, waits until its modules are loaded and a second has passed, reads its memory and ends it. */
export async function measureModuleFloor(): Promise<ModuleFloor> {
  built ??= build();
  const script = await built;
  const started = performance.now();
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, script], {
    cwd: ROOT,
    env: { ...process.env, ...serviceEnv() },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the module floor exited (${code})`)));
      child.stdout!.once('data', resolve);
    });
    // From spawn to loaded, as the service's start time is counted from spawn to listening.
    const importMs = performance.now() - started;
    await new Promise((r) => setTimeout(r, 1000));
    const { peak, now } = residentMemory(child.pid!);
    return { rss: now, peak, importMs };
  } finally {
    child.kill();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const floor = await measureModuleFloor();
  console.log(
    `module floor: rss ${(floor.rss / 2 ** 20).toFixed(0)} MiB, peak ${(floor.peak / 2 ** 20).toFixed(0)} MiB, loaded ${floor.importMs.toFixed(0)} ms after spawn`,
  );
}
