// The three rate-limiter stores must agree: fixed windows, all-or-nothing counting, exact under
// concurrency.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { RateLimiter } from '../src/infra/ratelimit/rate-limiter.ts';
import { createMemoryRateLimiter } from '../src/infra/ratelimit/memory-rate-limiter.ts';
import { createRedisRateLimiter } from '../src/infra/ratelimit/redis-rate-limiter.ts';
import { createSqlRateLimiter } from '../src/infra/ratelimit/sql-rate-limiter.ts';
import { untilLockWaiters } from './helpers/test-app.ts';
import { openDatabase } from '../src/infra/db/open-database.ts';
import type { Database } from '../src/infra/db/database.ts';
import { createPostgresDatabase, REDIS_TEST_URL, skipWithout, type Need } from '../support/databases.ts';

const windows = (perMinute: number, perHour: number) => [
  { name: 'minute', limit: perMinute, seconds: 60 },
  { name: 'hour', limit: perHour, seconds: 3600 },
];

// `other`: a second limiter on the same store, as another process would have.
const stores: Array<{
  name: string;
  open(): Promise<{ limiter: RateLimiter; other?: RateLimiter; db?: Database; close(): Promise<void> }>;
}> = [
  { name: 'memory', open: async () => ({ limiter: createMemoryRateLimiter(), close: async () => {} }) },
  {
    name: 'redis',
    open: async () => {
      const redis = new Redis(REDIS_TEST_URL);
      return { limiter: createRedisRateLimiter(redis), close: async () => void redis.disconnect() };
    },
  },
  {
    name: 'postgres',
    open: async () => {
      const database = await createPostgresDatabase();
      const db: Database = await openDatabase({ DATABASE_URL: database.url, DATA_DIR: '', DATABASE_POOL_SIZE: 20 });
      return {
        limiter: createSqlRateLimiter(db),
        other: createSqlRateLimiter(db),
        db,
        close: async () => {
          await db.close();
          await database.drop();
        },
      };
    },
  },
  {
    name: 'pglite',
    open: async () => {
      const db = await openDatabase({ DATA_DIR: ':memory:', DATABASE_POOL_SIZE: 1 });
      return { limiter: createSqlRateLimiter(db), other: createSqlRateLimiter(db), close: () => db.close() };
    },
  },
];

for (const store of stores) {
  describe(`rate limiter (${store.name})`, { skip: skipWithout(store.name as Need) }, () => {
    let limiter: RateLimiter;
    let other: RateLimiter | undefined;
    let db: Database | undefined;
    let close: () => Promise<void>;
    before(async () => ({ limiter, other, db, close } = await store.open()));
    after(() => close());
    const bucket = () => `test:${randomBytes(6).toString('hex')}`;
    // A fixed instant 10 s into a minute, so the test never straddles a window boundary.
    const now = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 10_000;

    it('admits exactly the limit under concurrency', async () => {
      const b = bucket();
      const results = await Promise.all(Array.from({ length: 100 }, () => limiter.consume(b, windows(60, 1000), now)));
      assert.equal(results.filter((r) => r.allowed).length, 60);
      const rejected = results.find((r) => !r.allowed)!;
      assert.equal(rejected.retryAfterSeconds, 50);
      assert.equal(rejected.windows[0]!.remaining, 0);
    });

    it('decides a burst of checks of several accounts exactly as the same checks one by one', async () => {
      // All submitted in one turn: the PostgreSQL limiter decides each account's checks in one call.
      const tag = randomBytes(6).toString('hex');
      const calls = Array.from({ length: 45 }, (_, i) => ({ account: i % 3, limits: windows(4 + (i % 3) * 3, 20) }));
      const together = await Promise.all(calls.map((c) => limiter.consume(`g:${tag}:${c.account}`, c.limits, now)));
      const oneByOne = [];
      for (const c of calls) oneByOne.push(await limiter.consume(`s:${tag}:${c.account}`, c.limits, now));
      assert.deepEqual(together, oneByOne);
      assert.equal(together.filter((d) => d.allowed).length, 4 + 7 + 10);
      const state = await limiter.peek(`g:${tag}:2`, windows(10, 20), now);
      assert.deepEqual(
        [state.allowed, state.windows[0]!.remaining, state.windows[1]!.remaining],
        [false, 0, 10],
        'refused checks counted in no window',
      );
    });

    it('stays exact when two limiters (processes) race for one bucket', {
      skip: store.name === 'memory' || store.name === 'redis' ? 'one process, or tested below' : false,
    }, async () => {
      const b = bucket();
      const results = await Promise.all(
        Array.from({ length: 300 }, (_, i) => (i % 2 ? limiter : other!).consume(b, windows(137, 1000), now)),
      );
      assert.equal(results.filter((r) => r.allowed).length, 137);
      assert.equal(
        (await limiter.peek(b, windows(137, 1000), now)).windows[1]!.remaining,
        1000 - 137,
        'refused checks counted in no window',
      );
    });

    it("two limiters whose calls both waited for the bucket's lock stay exact: the second reads what the first counted", {
      skip: store.name !== 'postgres' && 'PostgreSQL: several connections',
    }, async () => {
      const b = bucket();
      let taken!: () => void;
      let release!: () => void;
      const lockTaken = new Promise<void>((resolve) => (taken = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      // Another session holds the bucket's lock until both limiters' calls wait for it.
      const holder = db!.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [b]);
        taken();
        await released;
      });
      await lockTaken;
      const results = Promise.all(
        Array.from({ length: 300 }, (_, i) => (i % 2 ? limiter : other!).consume(b, windows(137, 1000), now)),
      );
      await untilLockWaiters(db!, 2);
      release();
      await holder;
      assert.equal((await results).filter((r) => r.allowed).length, 137);
      assert.equal((await limiter.peek(b, windows(137, 1000), now)).windows[1]!.remaining, 1000 - 137);
    });

    it('decides a burst larger than one call, on a window already in use, as one by one', async () => {
      const tag = randomBytes(6).toString('hex');
      for (const prefix of ['g', 's'])
        for (let i = 0; i < 5; i++) await limiter.consume(`${prefix}:${tag}`, windows(300, 1000), now);
      const together = await Promise.all(
        Array.from({ length: 450 }, () => limiter.consume(`g:${tag}`, windows(300, 1000), now)),
      );
      const oneByOne = [];
      for (let i = 0; i < 450; i++) oneByOne.push(await limiter.consume(`s:${tag}`, windows(300, 1000), now));
      assert.deepEqual(together, oneByOne);
      assert.equal(together.filter((d) => d.allowed).length, 295);
    });

    it('a request rejected by one window consumes none of the others', async () => {
      const b = bucket();
      for (let i = 0; i < 3; i++) assert.equal((await limiter.consume(b, windows(3, 10), now)).allowed, true);
      for (let i = 0; i < 5; i++) assert.equal((await limiter.consume(b, windows(3, 10), now)).allowed, false);
      const state = await limiter.peek(b, windows(3, 10), now);
      assert.equal(state.windows[1]!.remaining, 7, 'the hour window counted only the 3 admitted requests');
      // The next minute window opens: admitted again, and the hour keeps counting.
      const next = await limiter.consume(b, windows(3, 10), now + 60_000);
      assert.equal(next.allowed, true);
      assert.equal(next.windows[0]!.remaining, 2);
      assert.equal(next.windows[1]!.remaining, 6);
    });

    it('takes limits beyond 32 bits (configured limits have no upper bound)', async () => {
      const decision = await limiter.consume(bucket(), windows(5, 5_000_000_000), now);
      assert.deepEqual([decision.allowed, decision.windows[1]!.remaining], [true, 4_999_999_999]);
    });

    it('reports reset times of the clock-aligned windows', async () => {
      const decision = await limiter.consume(bucket(), windows(5, 10), now);
      assert.equal(decision.windows[0]!.resetSeconds, 50);
      assert.equal(decision.windows[1]!.resetSeconds, 3590);
    });
  });
}

describe('rate limiter (redis): the script runs by its hash', { skip: skipWithout('redis') }, () => {
  it('goes on counting after Redis forgot the script (SCRIPT FLUSH, a restart): it is loaded again', async (ctx) => {
    const redis = new Redis(REDIS_TEST_URL);
    ctx.after(() => redis.disconnect());
    const limiter = createRedisRateLimiter(redis);
    const b = `test:${randomBytes(6).toString('hex')}`;
    const now = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 10_000;
    assert.equal((await limiter.consume(b, windows(2, 10), now)).allowed, true);
    await redis.script('FLUSH');
    const second = await limiter.consume(b, windows(2, 10), now);
    assert.equal(second.allowed, true);
    assert.equal(second.windows[0]!.remaining, 0);
    assert.equal((await limiter.consume(b, windows(2, 10), now)).allowed, false);
  });
});

describe('rate limiter (redis): clocks of instances differ', { skip: skipWithout('redis') }, () => {
  it("a window's counter outlives the window by minutes, so an instance whose clock runs behind counts in it rather than starting it again", async (ctx) => {
    const redis = new Redis(REDIS_TEST_URL);
    ctx.after(() => redis.disconnect());
    const limiter = createRedisRateLimiter(redis);
    const b = `test:${randomBytes(6).toString('hex')}`;
    const windowMs = 3_000;
    const start = Math.floor(Date.now() / windowMs) * windowMs;
    await limiter.consume(b, [{ name: 'short', limit: 3, seconds: windowMs / 1000 }], start + 100);
    const keys = await redis.keys(`rl:{${b}}:*`);
    assert.equal(keys.length, 1);
    const ttl = await redis.pttl(keys[0]!);
    // Before: the window's rest plus 1 s, after which a clock 2 s behind made the key again at 0.
    assert.ok(ttl > 5 * 60_000 && ttl <= windowMs + 5 * 60_000, `ttl ${ttl} ms`);
  });
});

describe('rate limiter (redis): concurrent calls', { skip: skipWithout('redis') }, () => {
  it('decide concurrent calls of several accounts, peeks and consumes as the same calls one by one would', async (ctx) => {
    const grouped = new Redis(REDIS_TEST_URL);
    const single = new Redis(REDIS_TEST_URL);
    ctx.after(async () => {
      grouped.disconnect();
      single.disconnect();
    });
    const limiter = createRedisRateLimiter(grouped);
    const reference = createRedisRateLimiter(single);
    const now = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 10_000;
    const tag = randomBytes(6).toString('hex');
    // 60 calls over 3 accounts with different limits, a peek now and then, all submitted in one turn.
    const calls = Array.from({ length: 60 }, (_, i) => ({
      account: i % 3,
      peek: i % 7 === 3,
      limits: windows(4 + (i % 3) * 3, 20),
    }));
    const together = await Promise.all(
      calls.map((c) => (c.peek ? limiter.peek : limiter.consume)(`g:${tag}:${c.account}`, c.limits, now)),
    );
    const oneByOne = [];
    for (const c of calls)
      oneByOne.push(await (c.peek ? reference.peek : reference.consume)(`s:${tag}:${c.account}`, c.limits, now));
    assert.deepEqual(together, oneByOne);
    assert.deepEqual(together.filter((d, i) => d.allowed && !calls[i]!.peek).length, 4 + 7 + 10);
  });

  it('stays exact when two processes race for one account', async (ctx) => {
    const connections = [new Redis(REDIS_TEST_URL), new Redis(REDIS_TEST_URL)];
    ctx.after(async () => {
      for (const c of connections) c.disconnect();
    });
    const [a, b] = connections.map((c) => createRedisRateLimiter(c));
    const bucket = `race:${randomBytes(6).toString('hex')}`;
    const now = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 10_000;
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) => (i % 2 ? a! : b!).consume(bucket, windows(137, 1000), now)),
    );
    assert.equal(results.filter((r) => r.allowed).length, 137);
    const state = await a!.peek(bucket, windows(137, 1000), now);
    assert.equal(state.windows[1]!.remaining, 1000 - 137, 'rejected requests counted in no window');
  });
});
