// Runs the real service (src/server.ts, or its bundle) or worker as a child process, for crash and multi-process
// tests, the end-to-end suites and the benchmark (support/ is shared by test, test-e2e and bench).
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ChildService {
  process: ChildProcess;
  url: string;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Stops a child and resolves once it has exited: SIGTERM (its graceful close), then SIGKILL after
 * `graceMs`. A test must never outlive this: a child still running keeps its test file from ending.
 */
export async function stopChild(child: ChildProcess, exited: Promise<unknown>, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  const outcome = await Promise.race([exited, late]);
  clearTimeout(timer);
  if (outcome === 'late') {
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * The V8 flags `npm start` and `npm run worker` run node with (package.json; test/units.test.ts
 * checks they agree), so tests and benchmarks measure the process an operator runs.
 * --max-semi-space-size=32 (MiB, each thread's young generation): the hot path allocates fast, and
 * with fewer scavenges fewer of its in-flight objects are promoted. Alternating rounds, 8 against
 * 32: 5,090 against 5,869 req/s, 236 against 199 µs per request, p99 31 against 23 ms (the GC
 * helper threads 42 against 13-23 µs per request); then 16 / 32 / 64: 5,183 / 6,003 / 5,500 req/s. The
 * price is memory under load only: 319 against 270 MiB at the hot path's peak, 265-271 against
 * 245-250 through serving 3,000 shorts to 20 clients; idle is the same (195-196 MiB), since the
 * idle collection shrinks the young generation (bench/reading.md). 8 was
 * chosen before there was an idle collection, when the young generation stayed at its peak size.
 * --heap-growing-percent=50: each thread's old generation may grow by half of what survived the
 * last full collection before the next one, instead of V8's own factor (up to 4×, chosen from how
 * fast the program allocates), which under a steady load of short-lived request objects let the
 * heap (and RSS, which V8 does not give back) climb: 2.5 minutes of the hot path took the
 * embedded service to 450 MiB; with the flag 310, at 4,726 against 4,578 req/s and 232 against
 * 245 µs per request (bench/cpu-probe.ts, 7 alternating rounds). 20 was too tight: the GC
 * helpers used 70 instead of 13 µs per request and throughput fell by 14 % (bench/reading.md).
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=32', '--heap-growing-percent=50'];

/**
 * What a child runs: the TypeScript sources (tests: the code as it is written), or the bundle that
 * `npm start` and `npm run worker` run (dist/, scripts/build-bundle.ts; benchmarks, and a test of
 * the bundle itself), rebuilt first when the sources changed since it was built.
 */
export type ServiceScript = 'src/server.ts' | 'src/worker.ts' | 'dist/server.mjs' | 'dist/worker.mjs';

let bundleChecked: Promise<unknown> | undefined;

/**
 * The environment `npm start` and `npm run worker` give the process (package.json: the variable
 * unless the operator set it), likewise. MALLOC_ARENA_MAX=2: glibc keeps a malloc arena per thread
 * that allocates (main, PGlite's thread, V8's and libuv's helpers) and hands little of it back;
 * two arenas took the embedded service's idle RSS from 311-312 to 296 MiB and its fresh start from
 * 261 to 246-247 (bench/memory-probe.ts, two runs each; 1 arena: 293 idle), with no measurable
 * cost on the hot path (CPU per request 169 and 156 µs against 167 and 163, interleaved).
 * MALLOC_MMAP_THRESHOLD_ (1 MiB) and MALLOC_TRIM_THRESHOLD_ (128 KiB, glibc's starting value): glibc
 * raises its mmap threshold to the size of each large block freed (up to 32 MiB), so after the first
 * multi-megabyte response body, blocks of that size come from the arenas, whose free space goes
 * back to the system only from their top. Set explicitly, both stay put: a freed block of 1 MiB or
 * more is unmapped at once. bench/memory-probe.ts: idle 258-261 MiB against 270-273 without, serving
 * peak 261-265 against 273-276 (the same with a 128 KiB or 4 MiB mmap threshold). 128 KiB made the
 * cold 3,000-short path ~3 % slower (3,626-3,673 against 3,495-3,596 ms in interleaved bench runs:
 * each block above it is an mmap and fresh page faults); 1 MiB measured 3,572-3,606. With 128 KiB the
 * hot path's CPU per request was lower in four interleaved pairs at 1,200 req/s (bench/cpu-probe.ts;
 * not measured again with 1 MiB).
 */
export const SERVICE_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '1048576',
  MALLOC_TRIM_THRESHOLD_: '131072',
} as const;

/** SERVICE_ENV with the operator's own values kept, as the npm scripts' `${VAR:-default}` does. */
export function serviceEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(SERVICE_ENV).map(([name, value]) => [name, process.env[name] ?? value]));
}

/**
 * Starts the service (or a worker) as `npm start` would, with `env` on top of this process's
 * environment; a server is returned once /healthz answers.
 * `logFile`: the child writes its output straight to this file (for chatty runs such as benchmarks).
 * `unset`: variables of this process's environment the child must not inherit (e.g. DATABASE_URL).
 * `nodeFlags`: instead of SERVICE_NODE_FLAGS (bench/memory-probe.ts weighs other flags).
 */
export async function startChild(
  script: ServiceScript,
  env: Record<string, string>,
  options: { port?: number; logFile?: string; unset?: readonly string[]; nodeFlags?: readonly string[] } = {},
): Promise<ChildService> {
  if (script.startsWith('dist/')) {
    bundleChecked ??= import('../scripts/build-bundle.ts').then((m) => m.buildBundle({ ifStale: true }));
    await bundleChecked;
  }
  const port = options.port ?? (await freePort());
  let captured = '';
  const fd = options.logFile ? openSync(options.logFile, 'a') : null;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...serviceEnv(),
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    ...env,
  };
  for (const name of options.unset ?? []) if (!(name in env)) delete childEnv[name];
  const child = spawn(process.execPath, [...(options.nodeFlags ?? SERVICE_NODE_FLAGS), script], {
    cwd: ROOT,
    env: childEnv,
    stdio: fd === null ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd],
  });
  child.stdout?.on('data', (c: Buffer) => (captured += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (captured += c.toString()));
  const output = () => (options.logFile ? readFileSync(options.logFile, 'utf8').slice(-20_000) : captured);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const service: ChildService = {
    process: child,
    url: `http://127.0.0.1:${port}`,
    output,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
  if (script.endsWith('/server.ts') || script.endsWith('/server.mjs')) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`service exited early:\n${output()}`);
      try {
        const res = await fetch(`${service.url}/healthz`);
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await service.kill();
        throw new Error(`service did not start:\n${output()}`);
      }
      // Polled often: bench/memory-probe.ts reports the time to listening.
      await new Promise((r) => setTimeout(r, 50));
    }
  } else {
    await new Promise((r) => setTimeout(r, 1500));
  }
  return service;
}
