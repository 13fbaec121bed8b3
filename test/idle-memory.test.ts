// Giving memory back when the service goes idle (src/infra/idle-memory.ts): when the collection runs
// (an injected clock), that it collects, and that PGlite's thread does it on request.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getHeapStatistics } from 'node:v8';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import {
  createIdleRelease,
  loadFreedMemoryReleaser,
  memoryReducingCollection,
  onGlibc,
  startIdleCollector,
} from '../src/infra/idle-memory.ts';
import { openPgliteThread } from '../src/infra/db/pglite-thread.ts';

describe('idle memory', () => {
  it('collects once per idle period, only after activity, at most once per interval', () => {
    let t = 1_000_000;
    let collections = 0;
    const idle = startIdleCollector({
      collect: () => collections++,
      now: () => t,
      idleMs: 5_000,
      minIntervalMs: 30_000,
      everyMs: 3_600_000,
    });
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
        const before = collections;
        idle.check();
        assert.equal(collections, expected, why);
        // quiet(): no request since the last collection began (what the release checks before malloc_trim).
        if (collections > before) assert.equal(idle.quiet(), true, why);
      }
      idle.activity();
      assert.equal(idle.quiet(), false, 'a request since the last collection');
    } finally {
      idle.stop();
    }
  });

  it('collects the whole heap of the calling thread', () => {
    const collect = memoryReducingCollection();
    let garbage: Array<{ n: number; s: string }> | null = Array.from({ length: 300_000 }, (_, n) => ({
      n,
      s: `item ${n}`,
    }));
    const before = getHeapStatistics().used_heap_size;
    assert.ok(garbage.length > 0);
    garbage = null;
    collect();
    const after = getHeapStatistics().used_heap_size;
    assert.ok(
      after < before - 10 * 2 ** 20,
      `used heap ${(before / 2 ** 20).toFixed(1)} → ${(after / 2 ** 20).toFixed(1)} MiB`,
    );
  });

  it('drops the compiled code of functions that no longer run at the idle collections', () => {
    // In child processes: V8's flags are process-wide, and the comparison needs V8's defaults.
    const script = (flush: boolean) => `
      import { getHeapCodeStatistics } from 'node:v8';
      import { enableCodeFlushing, memoryReducingCollection } from ${JSON.stringify(new URL('../src/infra/idle-memory.ts', import.meta.url).href)};
      ${flush ? 'enableCodeFlushing();' : ''}
      const collect = memoryReducingCollection();
      // 3,000 functions run often enough to get baseline machine code, then no more; kept alive, so only their code can go.
      const fns = Array.from({ length: 3000 }, (_, i) => new Function('a', 'let s = a; for (let j = 0; j < 3; j++) s += j * ' + i + ' + (a % 7); return [s, ' + i + '];'));
      for (let k = 0; k < 200; k++) for (const fn of fns) fn(k);
      const before = getHeapCodeStatistics();
      collect();
      collect();
      const after = getHeapCodeStatistics();
      console.log(JSON.stringify({ bytecode: [before.bytecode_and_metadata_size, after.bytecode_and_metadata_size], code: [before.code_and_metadata_size, after.code_and_metadata_size], kept: fns.length }));`;
    type Sizes = { bytecode: [number, number]; code: [number, number] };
    // --max-opt=1: baseline code at most, so what V8 flushes does not depend on how many of the
    // functions a busy machine got round to optimising (optimised code keeps its bytecode); without
    // NODE_V8_COVERAGE, which turns flushing off.
    const { NODE_V8_COVERAGE: _coverage, ...env } = process.env;
    const run = (flush: boolean) =>
      JSON.parse(
        execFileSync(process.execPath, ['--max-opt=1', '--input-type=module', '-e', script(flush)], {
          encoding: 'utf8',
          env,
        }),
      ) as Sizes;
    const MiB = (n: number) => `${(n / 2 ** 20).toFixed(2)} MiB`;
    const show = ({ bytecode, code }: Sizes) =>
      `bytecode ${MiB(bytecode[0])} → ${MiB(bytecode[1])}, machine code ${MiB(code[0])} → ${MiB(code[1])}`;
    const flushed = run(true);
    const kept = run(false);
    assert.ok(flushed.bytecode[0] > 2 ** 20, `3,000 functions compiled: ${show(flushed)}`);
    assert.ok(
      flushed.bytecode[1] < flushed.bytecode[0] * 0.4 && flushed.code[0] - flushed.code[1] > 2 ** 20,
      `two idle collections with code flushing: ${show(flushed)}`,
    );
    assert.ok(
      kept.bytecode[1] > kept.bytecode[0] * 0.6 && kept.code[0] - kept.code[1] < 2 ** 19,
      `V8's defaults keep most of it: ${show(kept)}`,
    );
  });

  it("gives the system back the free memory in the middle of malloc's heap", {
    skip: !onGlibc() && 'glibc only',
  }, async (t) => {
    const warnings: string[] = [];
    const release = await loadFreedMemoryReleaser((_err, msg) => warnings.push(msg));
    assert.ok(release, 'malloc_trim is found on Linux with glibc');
    assert.deepEqual(warnings, []);
    const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
    const collect = memoryReducingCollection();
    collect();
    const base = rssMiB();
    // 125 MiB in 64 KiB buffers (malloc'd, below its default mmap threshold), then nine in ten freed:
    // the tenth ones pin the heap's top, so free() alone gives back nothing.
    let buffers = Array.from({ length: 2_000 }, () => Buffer.alloc(64 * 1024, 1));
    buffers = buffers.filter((_, i) => i % 10 === 9);
    // Twice: V8 frees buffers' memory on a background thread after a collection, and the next one waits for that.
    collect();
    collect();
    const freed = rssMiB();
    if (freed - base < 90)
      return t.skip(
        `free() already gave the memory back (${base.toFixed(0)} → ${freed.toFixed(0)} MiB): MALLOC_MMAP_THRESHOLD_ set?`,
      );
    assert.equal(release(), true, 'malloc_trim reports memory released');
    const released = rssMiB();
    assert.ok(released < freed - 50, `RSS ${freed.toFixed(0)} → ${released.toFixed(0)} MiB`);
    assert.equal(buffers.length, 200);
  });

  it("releases in order: this thread, the database's thread, then malloc if still idle; failures are warnings", async () => {
    const run = async (options: { stillIdle?: boolean; fail?: 'this' | 'db' | 'load' }) => {
      const steps: string[] = [];
      const warnings: string[] = [];
      const release = createIdleRelease({
        reduceThisThread: () => {
          steps.push('this thread');
          if (options.fail === 'this') throw new Error('no gc');
        },
        reduceDatabaseThread: async () => {
          steps.push('database thread');
          if (options.fail === 'db') throw new Error('thread gone');
        },
        loadReleaser: async () => {
          if (options.fail === 'load') throw new Error('no koffi');
          return () => steps.push('malloc_trim') > 0;
        },
        stillIdle: () => options.stillIdle ?? true,
        delayMs: 0,
        warn: (_err, msg) => warnings.push(msg),
      });
      await release();
      return { steps, warnings };
    };
    assert.deepEqual(await run({}), { steps: ['this thread', 'database thread', 'malloc_trim'], warnings: [] });
    assert.deepEqual(
      (await run({ stillIdle: false })).steps,
      ['this thread', 'database thread'],
      'busy again: no malloc_trim',
    );
    for (const fail of ['this', 'db', 'load'] as const) {
      const { steps, warnings } = await run({ fail });
      assert.equal(warnings.length, 1, `${fail}: ${warnings.join('; ')}`);
      assert.deepEqual(
        steps,
        fail === 'load' ? ['this thread', 'database thread'] : ['this thread', 'database thread', 'malloc_trim'],
        fail,
      );
    }
  });

  it("PGlite's thread collects its own heap on request and goes on answering", async (ctx) => {
    const db = await openPgliteThread(null);
    ctx.after(() => db.close());
    await db.reduceMemory!();
    assert.deepEqual(await db.query('SELECT 1 AS one'), [{ one: 1 }]);
  });
});
