// Giving memory back when the service goes idle (src/infra/idle-memory.ts): when the collection runs
// (an injected clock), that it collects, and that PGlite's thread does it on request.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getHeapStatistics } from 'node:v8';
import { memoryReducingCollection, startIdleCollector } from '../src/infra/idle-memory.ts';
import { openPgliteThread } from '../src/infra/db/pglite-thread.ts';

describe('idle memory', () => {
  it('collects once per idle period, only after activity, at most once per interval', () => {
    let t = 1_000_000;
    let collections = 0;
    const idle = startIdleCollector({ collect: () => collections++, now: () => t, idleMs: 5_000, minIntervalMs: 30_000, everyMs: 3_600_000 });
    try {
      t += 60_000;
      idle.check();
      assert.equal(collections, 0, 'no request since start: nothing to give back');
      idle.activity();
      t += 4_999;
      idle.check();
      assert.equal(collections, 0, 'not idle long enough');
      t += 1;
      idle.check();
      assert.equal(collections, 1);
      t += 60_000;
      idle.check();
      assert.equal(collections, 1, 'no request since the last collection');
      idle.activity();
      t += 5_000;
      idle.check();
      assert.equal(collections, 2);
      idle.activity();
      t += 10_000;
      idle.check();
      assert.equal(collections, 2, 'idle again, but within the minimum interval');
      t += 19_999;
      idle.check();
      assert.equal(collections, 2, '29.999 s after the last collection');
      t += 1;
      idle.check();
      assert.equal(collections, 3, 'the interval has passed and the process is still idle');
      idle.activity();
      t += 31_000;
      idle.activity();
      t += 1_000;
      idle.check();
      assert.equal(collections, 3, 'busy: the last request was a second ago');
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
