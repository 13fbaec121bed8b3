// Giving memory back when the service goes idle (src/infra/idle-memory.ts): when the collection runs
// (an injected clock), that it collects, and that PGlite's thread does it on request.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getHeapStatistics } from 'node:v8';
import { readFileSync } from 'node:fs';
import { loadFreedMemoryReleaser, memoryReducingCollection, startIdleCollector } from '../src/infra/idle-memory.ts';
import { openPgliteThread } from '../src/infra/db/pglite-thread.ts';

describe('idle memory', () => {
  it('collects once per idle period, only after activity, at most once per interval', () => {
    let t = 1_000_000;
    let collections = 0;
    const idle = startIdleCollector({ collect: () => collections++, now: () => t, idleMs: 5_000, minIntervalMs: 30_000, everyMs: 3_600_000 });
    // Each step: a request first (or not), the clock moves on, the timer checks; the collections so far.
    const steps: Array<[request: boolean, advanceMs: number, collections: number, why: string]> = [
      [false, 60_000, 0, 'no request since start: nothing to give back'],
      [true, 4_999, 0, 'not idle long enough'],
      [false, 1, 1, 'idle for 5 s'],
      [false, 60_000, 1, 'no request since the last collection'],
      [true, 5_000, 2, 'idle again, 65 s after the last collection'],
      [true, 10_000, 2, 'idle again, but 10 s after the last collection'],
      [false, 19_999, 2, '29.999 s after the last collection'],
      [false, 1, 3, 'the interval has passed and the process is still idle'],
      [true, 31_000, 4, 'idle for 31 s'],
      [true, 1_000, 4, 'busy: the last request was a second ago'],
    ];
    try {
      for (const [request, advanceMs, expected, why] of steps) {
        if (request) idle.activity();
        t += advanceMs;
        idle.check();
        assert.equal(collections, expected, why);
      }
    } finally {
      idle.stop();
    }
  });

  it('collects the whole heap of the calling thread', () => {
    const collect = memoryReducingCollection();
    let garbage: Array<{ n: number; s: string }> | null = Array.from({ length: 300_000 }, (_, n) => ({ n, s: `item ${n}` }));
    const before = getHeapStatistics().used_heap_size;
    assert.ok(garbage.length > 0);
    garbage = null;
    collect();
    const after = getHeapStatistics().used_heap_size;
    assert.ok(after < before - 10 * 2 ** 20, `used heap ${(before / 2 ** 20).toFixed(1)} → ${(after / 2 ** 20).toFixed(1)} MiB`);
  });

  it('gives the system back the free memory in the middle of malloc\'s heap', { skip: process.platform !== 'linux' && 'glibc only' }, async () => {
    const release = await loadFreedMemoryReleaser();
    assert.ok(release, 'malloc_trim is found on Linux with glibc');
    const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
    const collect = memoryReducingCollection();
    // 125 MiB in 64 KiB buffers (malloc'd, below its mmap threshold), then nine in ten freed: the
    // tenth ones pin the heap's top, so free() alone gives back nothing.
    let buffers = Array.from({ length: 2_000 }, () => Buffer.alloc(64 * 1024, 1));
    buffers = buffers.filter((_, i) => i % 10 === 9);
    // Twice: V8 frees buffers' memory on a background thread after a collection, and the next one waits for that.
    collect();
    collect();
    const freed = rssMiB();
    assert.equal(release(), true, 'malloc_trim reports memory released');
    const released = rssMiB();
    assert.ok(released < freed - 50, `RSS ${freed.toFixed(0)} → ${released.toFixed(0)} MiB`);
    assert.equal(buffers.length, 200);
  });

  it('PGlite\'s thread collects its own heap on request and goes on answering', async () => {
    const db = await openPgliteThread(null);
    try {
      await db.reduceMemory!();
      assert.deepEqual(await db.query('SELECT 1 AS one'), [{ one: 1 }]);
    } finally {
      await db.close();
    }
  });
});
