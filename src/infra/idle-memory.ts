// Giving memory back once the service goes idle.
//
// V8 sizes its heaps for the load it last saw and keeps them: after a burst of traffic the embedded
// service stayed ~40 MiB above its resting size for as long as it was idle (its young generation,
// fragmented old-generation pages, pooled pages), because the memory reducer V8 has for this is
// triggered by collections, and an idle process allocates nothing that would start one. So a few
// seconds after the last request the process runs one memory-reducing collection ("last resort":
// compacting, shrinking the young generation, releasing pooled pages) on its HTTP thread and asks
// PGlite's thread to do the same in its own heap. Measured (bench/memory-probe.ts): idle RSS
// 241-245 MiB instead of 269-272 with the HTTP thread's alone; one collection took ~90 ms.
//
// What the collections free goes back to malloc, not to the system: glibc returns only the free
// memory at the top of an arena, and the rest — most of it the zones PGlite's optimising compiler
// used, freed while longer-lived allocations sat above them — stays resident (~20 MiB after serving,
// measured in bench/reading.md). glibc's malloc_trim(0) hands every free page of every arena back,
// so it runs after both collections (createIdleRelease).
//
// The collection blocks its thread while it runs, so it waits for an idle period (IDLE_MS without a
// request; health probes and metric scrapes do not count, server.ts) and runs at most once per
// MIN_INTERVAL_MS: a service receiving a request every few seconds does not collect after each one.
// In the API process its job workers' activity does not count: a collection may land between two
// jobs. The worker-only process (`npm run worker`, worker.ts) has no requests, and counts its job batches.
//
// Compiled JavaScript goes too (enableCodeFlushing): V8 drops a function's bytecode once it has not
// run through a few full collections, and by default keeps its baseline (Sparkplug) machine code
// regardless. Made to drop both after two, the idle collection leaves only what is still in use:
// 194-197 MiB idle against 202-204 (bench/reading.md, fifteenth round), the same hot-path
// throughput in alternating rounds; a function dropped and called again is compiled again.
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const IDLE_MS = 5_000;
export const MIN_INTERVAL_MS = 30_000;

/**
 * V8's gc() for the calling thread's heap, without --expose-gc on the command line (which operators
 * starting `node dist/server.mjs` themselves would not pass): with the flag set, every new context
 * gets a `gc` function, and one of a fresh context collects the whole heap of its thread.
 */
export function memoryReducingCollection(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
  // Off again, so that contexts and threads created later do not get a global gc().
  setFlagsFromString('--no-expose-gc');
  return () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/**
 * V8's code flushing, made to keep only code in use (see the top of this file): bytecode not run
 * through CODE_OLD_AGE full collections is dropped (V8's default is 6), and baseline code with it
 * (by default V8 never drops baseline code). Process-wide: PGlite's thread follows the same flags.
 * V8 reads them at each full collection, so setting them after start takes effect.
 */
export const CODE_OLD_AGE = 2;
export function enableCodeFlushing(): void {
  setFlagsFromString(`--bytecode-old-age=${CODE_OLD_AGE}`);
  setFlagsFromString('--flush-baseline-code');
}

/** Whether this process runs on glibc: its C library, libc.so.6, is mapped (musl's is ld-musl-*.so.1). */
export function onGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return readFileSync('/proc/self/maps', 'utf8').includes('/libc.so.6');
  } catch {
    return false;
  }
}

/**
 * glibc's malloc_trim(0), through koffi (a foreign-function interface whose binaries come prebuilt
 * per platform; an optional dependency, so an install on a platform without one goes on without it,
 * and its install script, which would build it from source there, is denied in package.json's allowScripts):
 * returns the free pages inside malloc's arenas to the system, whether or not they sit at an
 * arena's top. Resolves to null without glibc (musl, macOS…): nothing to release this way there.
 * On glibc, koffi failing to load (not installed, no binary) is reported to `warn` and also gives
 * null. The library is loaded at the first call, not at start, so a process that never goes idle
 * never maps it.
 */
export async function loadFreedMemoryReleaser(
  warn: (err: unknown, msg: string) => void,
): Promise<(() => boolean) | null> {
  if (!onGlibc()) return null;
  try {
    const { default: koffi } = await import('koffi');
    const trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
    // 1 when memory was released, 0 when there was none to release.
    return () => trim(0) === 1;
  } catch (err) {
    warn(err, 'malloc_trim is not available: memory freed while idle stays with malloc');
    return null;
  }
}

/**
 * After the collections, before malloc_trim: V8 frees a collection's buffers on background threads after it (~6 MiB
 * more was released a second later).
 */
export const RELEASE_DELAY_MS = 1_000;

export interface IdleReleaseOptions {
  /** The other thread's collection (PGlite's, Database.reduceMemory), awaited before malloc_trim. */
  reduceDatabaseThread?: (() => Promise<void>) | undefined;
  /** Whether the process is still idle when malloc_trim is due (it holds malloc's locks while it runs). */
  stillIdle?: () => boolean;
  warn: (err: unknown, msg: string) => void;
  /** Tests: this thread's collection, the releaser and the delay. */
  reduceThisThread?: () => void;
  loadReleaser?: () => Promise<(() => boolean) | null>;
  delayMs?: number;
}

/**
 * One idle release: the calling (HTTP) thread's heap at once, then PGlite's thread's when there is
 * one, then, RELEASE_DELAY_MS later and if the process is still idle, malloc's free pages.
 * Failures are reported to `warn`, never thrown; the returned promise settles when it is all done.
 */
export function createIdleRelease(options: IdleReleaseOptions): () => Promise<void> {
  const { warn, delayMs = RELEASE_DELAY_MS } = options;
  const reduceThisThread = options.reduceThisThread ?? memoryReducingCollection();
  const loadReleaser = options.loadReleaser ?? (() => loadFreedMemoryReleaser(warn));
  let releaseFreed: Promise<(() => boolean) | null> | undefined;
  return async () => {
    try {
      reduceThisThread();
    } catch (err) {
      warn(err, 'idle memory collection failed');
    }
    try {
      await options
        .reduceDatabaseThread?.()
        .catch((err: unknown) => warn(err, "idle memory collection of the database's thread failed"));
      await delay(delayMs, undefined, { ref: false });
      if (options.stillIdle?.() === false) return;
      releaseFreed ??= loadReleaser();
      (await releaseFreed)?.();
    } catch (err) {
      warn(err, 'releasing freed memory failed');
    }
  };
}

export interface IdleCollector {
  /** A request came in: the process is busy again. */
  activity(): void;
  /** No activity since the last collection began (a release still under way may go on). */
  quiet(): boolean;
  /** Collects if the process has been idle long enough (called every second by the timer). */
  check(): void;
  stop(): void;
}

export function startIdleCollector(options: {
  collect: () => void;
  now?: () => number;
  idleMs?: number;
  minIntervalMs?: number;
  everyMs?: number;
}): IdleCollector {
  const {
    collect,
    now = () => performance.now(),
    idleMs = IDLE_MS,
    minIntervalMs = MIN_INTERVAL_MS,
    everyMs = 1_000,
  } = options;
  let lastActivity = now();
  let lastCollection = -Infinity;
  // Only after activity: a process that has collected and seen no request since has nothing to give back.
  let pending = false;
  const collector: IdleCollector = {
    activity() {
      lastActivity = now();
      pending = true;
    },
    quiet() {
      return !pending;
    },
    check() {
      const t = now();
      if (!pending || t - lastActivity < idleMs || t - lastCollection < minIntervalMs) return;
      pending = false;
      lastCollection = t;
      collect();
    },
    stop() {
      clearInterval(timer);
    },
  };
  const timer = setInterval(() => collector.check(), everyMs);
  timer.unref();
  return collector;
}

/**
 * The idle release of a process (server.ts, worker.ts): a collector whose collections are
 * createIdleRelease's, and whose malloc_trim is skipped once activity resumed meanwhile; code
 * flushing is enabled with it.
 */
export function startIdleRelease(options: Omit<IdleReleaseOptions, 'stillIdle'>): IdleCollector {
  enableCodeFlushing();
  const idle: IdleCollector = startIdleCollector({
    collect: createIdleRelease({ ...options, stillIdle: () => idle.quiet() }),
  });
  return idle;
}
