// Shared cache in Redis. Single-flight across instances: the first caller takes a short lock
// (SET NX PX) and does the work; the others wait for the value to appear, and take over if the
// lock holder dies (the lock expires). Within this process, callers also share one promise.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Cache } from './cache.ts';

const LOCK_TTL_MS = 30_000;
const POLL_MS = 25;
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

export function createRedisCache(redis: Redis, prefix = 'cache:'): Cache {
  const inFlight = new Map<string, Promise<unknown>>();
  const get = async <T>(key: string): Promise<T | undefined> => {
    const raw = await redis.get(prefix + key);
    return raw === null ? undefined : (JSON.parse(raw) as T);
  };
  const set = async (key: string, value: unknown, ttlMs: number) => {
    if (ttlMs > 0) await redis.set(prefix + key, JSON.stringify(value), 'PX', ttlMs);
  };
  const acrossInstances = async <T>(key: string, ttlMs: number, work: () => Promise<T>): Promise<T> => {
    const lockKey = `${prefix}lock:${key}`;
    const token = randomUUID();
    const deadline = Date.now() + LOCK_TTL_MS * 2;
    for (;;) {
      if ((await redis.set(lockKey, token, 'PX', LOCK_TTL_MS, 'NX')) === 'OK') {
        try {
          // Another instance may have finished between our cache miss and taking the lock.
          const ready = ttlMs > 0 ? await get<T>(key) : undefined;
          if (ready !== undefined) return ready;
          const value = await work();
          await set(key, value, ttlMs);
          return value;
        } finally {
          await redis.eval(RELEASE_SCRIPT, 1, lockKey, token).catch(() => {});
        }
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const value = ttlMs > 0 ? await get<T>(key) : undefined;
      if (value !== undefined) return value;
      // With caching off nothing is shared; once the holder has finished, do our own work.
      if (ttlMs <= 0 && (await redis.exists(lockKey)) === 0) return work();
      if (Date.now() > deadline) return work();
    }
  };
  return {
    get,
    set,
    async delete(key) {
      await redis.del(prefix + key);
    },
    singleFlight<T>(key: string, ttlMs: number, work: () => Promise<T>): Promise<T> {
      const running = inFlight.get(key);
      if (running) return running as Promise<T>;
      const promise = acrossInstances(key, ttlMs, work).finally(() => inFlight.delete(key));
      inFlight.set(key, promise);
      return promise;
    },
    async close() {},
  };
}
