// Shared cache in Redis. Single-flight across instances: the first caller takes a short lock
// (SET NX PX) and does the work; the others wait for the value to appear, and take over if the
// lock holder dies (the lock expires). Within this process, callers also share one promise.
//
// Near cache: a value read from Redis is also kept in this process for up to NEAR_TTL_MS (never
// past its Redis expiry, which is stored with it). A cached result is ~1 KB of JSON per short, and
// parsing, re-rendering and re-encoding it on every hit cost more than the rest of the request;
// with the near cache a hot entry is parsed once a second per process. Entries are immutable, so
// the only staleness is a delete() made by another instance, seen here within NEAR_TTL_MS.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AppError, isAppError, type ErrorCode } from '../../errors.ts';
import type { Cache, CacheBound } from './cache.ts';

/**
 * How long a failed flight's answer (an error of the catalog) is kept for the instances that waited
 * on it: they take it instead of repeating the work one after another, each waiting out its own
 * timeout (found by review: three instances answered after 10, 20 and 30 s).
 */
const FAILURE_TTL_MS = 5_000;

const LOCK_TTL_MS = 30_000;
const NEAR_TTL_MS = 1_000;
const NEAR_MAX_ENTRIES = 256;
const POLL_MS = 25;
/** Takes the lock (1), or answers the token of the flight holding it, in one step. */
const TAKE_SCRIPT = `if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 1 else return redis.call('GET', KEYS[1]) end`;
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
// Bounded set: KEYS = value key, index zset (key -> stored time), weights hash; ARGV = value, ttl ms,
// weight, max weight, now ms. Entries that expired or that overflow the bound (oldest first) go.
const BOUNDED_SET_SCRIPT = `
local old = tonumber(redis.call('HGET', KEYS[3], KEYS[1]) or '0')
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[5], KEYS[1])
redis.call('HSET', KEYS[3], KEYS[1], ARGV[3])
local total = redis.call('HINCRBY', KEYS[3], '__total', tonumber(ARGV[3]) - old)
while total > tonumber(ARGV[4]) do
  local oldest = redis.call('ZPOPMIN', KEYS[2])
  if #oldest == 0 then break end
  local w = tonumber(redis.call('HGET', KEYS[3], oldest[1]) or '0')
  redis.call('HDEL', KEYS[3], oldest[1])
  redis.call('DEL', oldest[1])
  total = redis.call('HINCRBY', KEYS[3], '__total', -w)
end
return total`;

export function createRedisCache(redis: Redis, prefix = 'cache:', bound?: CacheBound): Cache {
  const inFlight = new Map<string, Promise<unknown>>();
  const near = new Map<string, { value: unknown; until: number }>();
  const remember = (key: string, value: unknown, expiresAt: number) => {
    if (near.size >= NEAR_MAX_ENTRIES) near.delete(near.keys().next().value!); // oldest first
    near.set(key, { value, until: Math.min(expiresAt, Date.now() + NEAR_TTL_MS) });
  };
  // Reads of a key the near cache lacks, shared by the callers that arrive meanwhile (#13): when a
  // hot entry's near copy lapsed, all 50 concurrent requests of the benchmark fetched and parsed the
  // same value (and rendered their own copy of its JSON) instead of one.
  const reading = new Map<string, Promise<unknown>>();
  const get = <T>(key: string): Promise<T | undefined> => {
    const kept = near.get(key);
    if (kept && kept.until > Date.now()) return Promise.resolve(kept.value as T);
    near.delete(key);
    let pending = reading.get(key);
    if (!pending) {
      pending = readShared(key).finally(() => reading.delete(key));
      reading.set(key, pending);
    }
    return pending as Promise<T | undefined>;
  };
  /** The value in Redis now (kept near). */
  const readShared = async <T>(key: string): Promise<T | undefined> => {
    // Stored as "<expiry ms>:<json>", so the near copy never outlives the shared one.
    const raw = await redis.get(prefix + key);
    return raw === null ? undefined : parseShared<T>(key, raw);
  };
  const parseShared = <T>(key: string, raw: string): T => {
    const colon = raw.indexOf(':');
    const value = JSON.parse(raw.slice(colon + 1)) as T;
    remember(key, value, Number(raw.slice(0, colon)));
    return value;
  };
  const set = async (key: string, value: unknown, ttlMs: number) => {
    if (ttlMs <= 0) return;
    const expiresAt = Date.now() + ttlMs;
    const stored = `${expiresAt}:${JSON.stringify(value)}`;
    if (bound) {
      // The index never outlives the longest entry by much: entries are written with the same TTL.
      const weight = bound.weigh(value);
      if (weight > bound.maxWeight) return;
      await redis.eval(
        BOUNDED_SET_SCRIPT,
        3,
        prefix + key,
        `${prefix}__index`,
        `${prefix}__weights`,
        stored,
        ttlMs,
        weight,
        bound.maxWeight,
        Date.now(),
      );
    } else {
      await redis.set(prefix + key, stored, 'PX', ttlMs);
    }
    remember(key, value, expiresAt);
  };
  const acrossInstances = async <T>(key: string, ttlMs: number, work: () => Promise<T>): Promise<T> => {
    const lockKey = `${prefix}lock:${key}`;
    // A failed flight's answer is kept under its holder's token: a waiter takes only the answer of
    // a flight it saw hold the lock, never an older flight's, and can read it whatever the lock's
    // state is now (the failure is written before the release, and another instance may have
    // taken the lock since).
    const failureKey = (holder: string) => `${prefix}failed:${key}:${holder}`;
    const token = randomUUID();
    const deadline = Date.now() + LOCK_TTL_MS * 2;
    /** true when this caller holds the lock now; otherwise the token of the flight that does. */
    const take = async (): Promise<true | string> => {
      try {
        const holder = (await redis.eval(TAKE_SCRIPT, 1, lockKey, token, LOCK_TTL_MS)) as number | string;
        return holder === 1 ? true : String(holder);
      } catch (error) {
        // A SET that timed out in a Redis stall still runs when Redis recovers, and would hold the
        // lock for its TTL with nobody behind it: every instance's next read of this channel waited
        // 30 s (found by review). The release, sent after it on the same connection, runs after it.
        void redis.eval(RELEASE_SCRIPT, 1, lockKey, token).catch(() => {});
        throw error;
      }
    };
    for (;;) {
      const taken = await take();
      if (taken === true) {
        try {
          // Another instance may have finished between our cache miss and taking the lock.
          const ready = ttlMs > 0 ? await readShared<T>(key) : undefined;
          if (ready !== undefined) return ready;
          let value: T;
          try {
            value = await work();
          } catch (error) {
            if (isAppError(error))
              await redis
                .set(
                  failureKey(token),
                  JSON.stringify({ code: error.code, message: error.message, headers: error.headers }),
                  'PX',
                  FAILURE_TTL_MS,
                )
                .catch(() => {});
            throw error;
          }
          await set(key, value, ttlMs);
          return value;
        } finally {
          // Safe to ignore: the lock has a TTL, so a failed release only delays the next holder.
          await redis.eval(RELEASE_SCRIPT, 1, lockKey, token).catch(() => {});
        }
      }
      let holder: string = taken;
      // Wait for the holder's outcome. The lock, its failure and the value are read in one MGET:
      // the holder writes its outcome before it releases the lock, so a snapshot without the lock
      // shows that outcome if there is one (found by CI: read one after another, a waiter could
      // miss the failure, then see the lock gone and repeat the work).
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        const [lock, failed, raw] = await redis.mget(lockKey, failureKey(holder), prefix + key);
        if (ttlMs > 0 && raw !== null && raw !== undefined) return parseShared<T>(key, raw);
        if (failed !== null && failed !== undefined) {
          // The flight this instance waited on failed: its answer, as the holder's own followers get it.
          const { code, message, headers } = JSON.parse(failed) as {
            code: ErrorCode;
            message: string;
            headers: Record<string, string>;
          };
          throw new AppError(code, message, { headers });
        }
        if (Date.now() > deadline) return work();
        if (lock === null || lock === undefined) {
          // With caching off nothing is shared: once the holder has finished, do our own work.
          if (ttlMs <= 0) return work();
          break; // the holder died, or its value could not be kept: take the lock ourselves
        }
        holder = lock; // another flight holds it now: wait on that one
      }
    }
  };
  return {
    get,
    set,
    async delete(key) {
      near.delete(key);
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
