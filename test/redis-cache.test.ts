// The shared Redis cache, as two instances see it: values cross instances, the per-process near
// copy never outlives the shared entry, and a delete is seen at once by the instance that made it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createRedisCache } from '../src/infra/cache/redis-cache.ts';
import { AppError } from '../src/errors.ts';
import { REDIS_TEST_URL, skipWithout, startRedis } from '../support/databases.ts';
import { connectRedis } from '../src/infra/redis.ts';
import { freePort } from '../support/child-service.ts';
import { until } from '../support/webhook-receiver.ts';

describe('Redis cache (two instances)', { skip: skipWithout('redis') }, () => {
  let redis: Redis;
  const prefix = `cache-test-${randomBytes(4).toString('hex')}:`;
  before(() => {
    redis = new Redis(REDIS_TEST_URL, { lazyConnect: false });
  });
  after(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('shares values, honours the shared expiry in the near copy, and forgets deleted keys', async () => {
    const a = createRedisCache(redis, prefix);
    const b = createRedisCache(redis, prefix);
    await a.set('k', { shorts: [1, 2, 3] }, 60_000);
    assert.deepEqual(await b.get('k'), { shorts: [1, 2, 3] });
    assert.equal(await b.get('k'), await b.get('k'), 'repeated hits share one parsed value');
    assert.match((await redis.get(`${prefix}k`))!, /^\d+:\{/, 'stored with its expiry');

    // Shorter than the near copy's own second (1,000 ms), long enough that a loaded machine still
    // reads it back; checked between the two, where only the shared expiry can have ended it.
    await a.set('short-lived', 'v', 700);
    assert.equal(await b.get('short-lived'), 'v');
    await new Promise((r) => setTimeout(r, 850));
    assert.equal(await b.get('short-lived'), undefined, 'the near copy expired with the shared entry');

    await b.delete('k');
    assert.equal(await b.get('k'), undefined);
    assert.equal(await redis.exists(`${prefix}k`), 0);
  });

  it('runs concurrent identical work once across instances (single-flight)', async () => {
    const a = createRedisCache(redis, prefix);
    const b = createRedisCache(redis, prefix);
    let runs = 0;
    const work = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 100));
      return { fetched: true };
    };
    const results = await Promise.all([
      a.singleFlight('flight', 60_000, work),
      b.singleFlight('flight', 60_000, work),
      a.singleFlight('flight', 60_000, work),
    ]);
    assert.equal(runs, 1);
    for (const result of results) assert.deepEqual(result, { fetched: true });
  });

  it('a flight that fails gives the other instances its answer instead of each repeating the work in turn', async () => {
    const a = createRedisCache(redis, prefix);
    const b = createRedisCache(redis, prefix);
    let runs = 0;
    const work = async (): Promise<never> => {
      runs++;
      await new Promise((r) => setTimeout(r, 100));
      throw new AppError('UPSTREAM_TIMEOUT', 'The video platform did not answer channels within 10000 ms.');
    };
    const outcomes = await Promise.allSettled([a.singleFlight('failing', 0, work), b.singleFlight('failing', 0, work)]);
    assert.equal(runs, 1, 'one attempt between them');
    for (const outcome of outcomes) {
      assert.equal(outcome.status, 'rejected');
      assert.equal((outcome as PromiseRejectedResult).reason.code, 'UPSTREAM_TIMEOUT');
    }
    // A later flight is not answered by the old failure: it does the work again.
    let later = 0;
    assert.deepEqual(await a.singleFlight('failing', 0, async () => ++later), 1);
  });

  it('a waiter takes the failure of the flight it waited on even when another flight has taken the lock since (found by CI)', async () => {
    const a = createRedisCache(redis, prefix);
    const b = createRedisCache(redis, prefix);
    const c = createRedisCache(redis, prefix);
    const failing = async (): Promise<never> => {
      await new Promise((r) => setTimeout(r, 100));
      throw new AppError('UPSTREAM_TIMEOUT', 'The video platform did not answer channels within 10000 ms.');
    };
    let waiterSettled!: () => void;
    const settled = new Promise<void>((resolve) => (waiterSettled = resolve));
    let nextRuns = 0;
    // c's flight starts the moment a's is released and holds the lock until the waiter has its answer.
    const next = a.singleFlight('handover', 60_000, failing).catch(() =>
      c.singleFlight('handover', 60_000, async () => {
        nextRuns++;
        await Promise.race([settled, new Promise((r) => setTimeout(r, 3_000))]);
        return 'second';
      }),
    );
    await new Promise((r) => setTimeout(r, 20)); // a holds the lock
    const waiter = b.singleFlight('handover', 60_000, async () => 'waiter ran its own work');
    const outcome = await waiter.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    waiterSettled();
    assert.equal(
      (outcome as { error?: AppError }).error?.code,
      'UPSTREAM_TIMEOUT',
      `the waiter got a's failure, not ${JSON.stringify(outcome)}`,
    );
    assert.equal(await next, 'second');
    assert.equal(nextRuns, 1);
  });

  it('many waiters on failing flights never repeat the work (found by CI: a waiter could miss the failure and run it again)', async () => {
    for (let round = 0; round < 20; round++) {
      const caches = [0, 1, 2, 3].map(() => createRedisCache(redis, prefix));
      let runs = 0;
      const work = async (): Promise<never> => {
        runs++;
        await new Promise((r) => setTimeout(r, 5 + (round % 5) * 7));
        throw new AppError('UPSTREAM_TIMEOUT', 'timed out');
      };
      const outcomes = await Promise.allSettled(caches.map((cache) => cache.singleFlight(`many-${round}`, 0, work)));
      assert.equal(runs, 1, `round ${round}: one attempt between them`);
      assert.ok(outcomes.every((o) => o.status === 'rejected'));
    }
  });
});

describe('Redis cache: a stall', { skip: skipWithout('redis-server') }, () => {
  it('a single-flight lock whose SET timed out in a Redis stall does not hold the channel once Redis recovers', async (ctx) => {
    const port = await freePort();
    const server = await startRedis(port);
    const redis = await connectRedis(`redis://127.0.0.1:${port}`, 'stall:', 300);
    ctx.after(async () => {
      redis.disconnect();
      server.kill('SIGKILL');
    });
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
    const cache = createRedisCache(redis);
    process.kill(server.pid!, 'SIGSTOP'); // answers nothing, the connection stays up
    await assert.rejects(
      cache.singleFlight('channel-x', 60_000, async () => 'fresh'),
      /timed out/,
    );
    process.kill(server.pid!, 'SIGCONT'); // the SET runs now, then the release sent after it
    await until(async () => (await redis.ping().catch(() => null)) === 'PONG', 5_000, 20);
    assert.equal(await redis.exists('cache:lock:channel-x'), 0, 'no lock left behind');
    const started = Date.now();
    assert.equal(await cache.singleFlight('channel-x', 60_000, async () => 'fresh'), 'fresh');
    assert.ok(Date.now() - started < 5_000, 'the next caller did not wait out the lock');
  });
});
