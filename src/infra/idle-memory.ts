// Giving memory back once the service goes idle (#13).
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
// The collection blocks its thread while it runs, so it waits for an idle period (IDLE_MS without a
// request; health probes and metric scrapes do not count, server.ts) and runs at most once per
// MIN_INTERVAL_MS: a service receiving a request every few seconds does not collect after each one.
// The job worker's activity does not count either: a collection may land between two jobs.
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

export interface IdleCollector {
  /** A request came in: the process is busy again. */
  activity(): void;
  /** Collects if the process has been idle long enough (called every second by the timer). */
  check(): void;
  stop(): void;
}

export function startIdleCollector(options: { collect: () => void; now?: () => number; idleMs?: number; minIntervalMs?: number; everyMs?: number }): IdleCollector {
  const { collect, now = () => performance.now(), idleMs = IDLE_MS, minIntervalMs = MIN_INTERVAL_MS, everyMs = 1_000 } = options;
  let lastActivity = now();
  let lastCollection = -Infinity;
  // Only after activity: a process that has collected and seen no request since has nothing to give back.
  let pending = false;
  const collector: IdleCollector = {
    activity() {
      lastActivity = now();
      pending = true;
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
