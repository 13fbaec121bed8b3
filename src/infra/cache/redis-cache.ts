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
 * timeout (three waiting instances would answer after 10, 20 and 30 s).
 */
const FAILURE_TTL_MS = 5_000;

const LOCK_TTL_MS = 30_000;
const NEAR_TTL_MS = 1_000;
const NEAR_MAX_ENTRIES = 256;
const POLL_MS = 25;
/** Takes the lock (1), or answers the token of the flight holding it, in one step. */
const TAKE_SCRIPT =
  "if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 1 else return " +
  "redis.call('GET', KEYS[1]) end";
const RELEASE_SCRIPT =
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";
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

interface RedisCacheState {
  redis: Redis;
  prefix: string;
  bound: CacheBound | undefined;
  /** This process's flights by key: its callers share one. */
  inFlight: Map<string, Promise<unknown>>;
  /** Values read from Redis, kept here until `until` (ms); insertion order is age order. */
  near: Map<string, { value: unknown; until: number }>;
  /**
   * Reads of a key the near cache lacks, shared by the callers that arrive meanwhile: when a hot
   * entry's near copy lapses, 50 concurrent requests would otherwise each fetch and parse the same
   * value (and render their own copy of its JSON) instead of one.
   */
  reading: Map<string, Promise<unknown>>;
}

function remember(state: RedisCacheState, key: string, value: unknown, expiresAt: number): void {
  if (state.near.size >= NEAR_MAX_ENTRIES) state.near.delete(state.near.keys().next().value!); // oldest first
  state.near.set(key, { value, until: Math.min(expiresAt, Date.now() + NEAR_TTL_MS) });
}

function get<T>(state: RedisCacheState, key: string): Promise<T | undefined> {
  const kept = state.near.get(key);
  if (kept && kept.until > Date.now()) return Promise.resolve(kept.value as T);
  state.near.delete(key);
  let pending = state.reading.get(key);
  if (!pending) {
    pending = readShared(state, key).finally(() => state.reading.delete(key));
    state.reading.set(key, pending);
  }
  return pending as Promise<T | undefined>;
}

/** The value in Redis now (kept near). */
async function readShared<T>(state: RedisCacheState, key: string): Promise<T | undefined> {
  // Stored as "<expiry ms>:<json>", so the near copy never outlives the shared one.
  const raw = await state.redis.get(state.prefix + key);
  return raw === null ? undefined : parseShared<T>(state, key, raw);
}

function parseShared<T>(state: RedisCacheState, key: string, raw: string): T {
  const colon = raw.indexOf(':');
  const value = JSON.parse(raw.slice(colon + 1)) as T;
  remember(state, key, value, Number(raw.slice(0, colon)));
  return value;
}

async function set(state: RedisCacheState, key: string, value: unknown, ttlMs: number): Promise<void> {
  if (ttlMs <= 0) return;
  const { redis, prefix, bound } = state;
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
  remember(state, key, value, expiresAt);
}

/** One caller's part in the work for a key shared by every instance. */
interface Flight<T> {
  key: string;
  ttlMs: number;
  work: () => Promise<T>;
  lockKey: string;
  /** This caller's token: the lock's value while it holds it. */
  token: string;
  /** Past it, a waiter stops waiting and does the work itself. */
  deadline: number;
}

/**
 * A failed flight's answer is kept under its holder's token: a waiter takes only the answer of a
 * flight it saw hold the lock, never an older flight's, and can read it whatever the lock's state
 * is now (the failure is written before the release, and another instance may have taken the lock
 * since).
 */
const failureKey = (state: RedisCacheState, key: string, holder: string) => `${state.prefix}failed:${key}:${holder}`;

/** true when this caller holds the lock now; otherwise the token of the flight that does. */
async function takeLock(state: RedisCacheState, flight: Flight<unknown>): Promise<true | string> {
  const { redis } = state;
  try {
    const holder = (await redis.eval(TAKE_SCRIPT, 1, flight.lockKey, flight.token, LOCK_TTL_MS)) as number | string;
    return holder === 1 ? true : String(holder);
  } catch (error) {
    // A SET that timed out in a Redis stall still runs when Redis recovers, and would hold the
    // lock for its TTL with nobody behind it: every instance's next read of this key would wait
    // 30 s. The release, sent after it on the same connection, runs after it.
    void redis.eval(RELEASE_SCRIPT, 1, flight.lockKey, flight.token).catch(() => {});
    throw error;
  }
}

/** With the lock held: the work (or a value another instance stored meanwhile), then the release. */
async function runHoldingLock<T>(state: RedisCacheState, flight: Flight<T>): Promise<T> {
  const { redis } = state;
  const { key, ttlMs } = flight;
  try {
    // Another instance may have finished between our cache miss and taking the lock.
    const ready = ttlMs > 0 ? await readShared<T>(state, key) : undefined;
    if (ready !== undefined) return ready;
    let value: T;
    try {
      value = await flight.work();
    } catch (error) {
      if (isAppError(error))
        await redis
          .set(
            failureKey(state, key, flight.token),
            JSON.stringify({ code: error.code, message: error.message, headers: error.headers }),
            'PX',
            FAILURE_TTL_MS,
          )
          .catch(() => {});
      throw error;
    }
    await set(state, key, value, ttlMs);
    return value;
  } finally {
    // Safe to ignore: the lock has a TTL, so a failed release only delays the next holder.
    await redis.eval(RELEASE_SCRIPT, 1, flight.lockKey, flight.token).catch(() => {});
  }
}

/** Marks that the lock is free and the waiter is to take it itself. */
const TAKE_OVER = Symbol('take over');

/**
 * Waits for the outcome of the flight holding the lock. The lock, its failure and the value are
 * read in one MGET: the holder writes its outcome before it releases the lock, so a snapshot
 * without the lock shows that outcome if there is one. Read one after another, a waiter could miss
 * the failure, then see the lock gone and repeat the work.
 */
async function waitForHolder<T>(
  state: RedisCacheState,
  flight: Flight<T>,
  holding: string,
): Promise<T | typeof TAKE_OVER> {
  const { key, ttlMs } = flight;
  let holder = holding;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const [lock, failed, raw] = await state.redis.mget(
      flight.lockKey,
      failureKey(state, key, holder),
      state.prefix + key,
    );
    if (ttlMs > 0 && raw !== null && raw !== undefined) return parseShared<T>(state, key, raw);
    if (failed !== null && failed !== undefined) {
      // The flight this instance waited on failed: its answer, as the holder's own followers get it.
      const { code, message, headers } = JSON.parse(failed) as {
        code: ErrorCode;
        message: string;
        headers: Record<string, string>;
      };
      throw new AppError(code, message, { headers });
    }
    if (Date.now() > flight.deadline) return flight.work();
    if (lock === null || lock === undefined) {
      // With caching off nothing is shared: once the holder has finished, do our own work.
      if (ttlMs <= 0) return flight.work();
      return TAKE_OVER; // the holder died, or its value could not be kept: take the lock ourselves
    }
    holder = lock; // another flight holds it now: wait on that one
  }
}

async function acrossInstances<T>(
  state: RedisCacheState,
  key: string,
  ttlMs: number,
  work: () => Promise<T>,
): Promise<T> {
  const flight: Flight<T> = {
    key,
    ttlMs,
    work,
    lockKey: `${state.prefix}lock:${key}`,
    token: randomUUID(),
    deadline: Date.now() + LOCK_TTL_MS * 2,
  };
  for (;;) {
    const taken = await takeLock(state, flight);
    if (taken === true) return runHoldingLock(state, flight);
    const outcome = await waitForHolder(state, flight, taken);
    if (outcome !== TAKE_OVER) return outcome;
  }
}

export function createRedisCache(redis: Redis, prefix = 'cache:', bound?: CacheBound): Cache {
  const state: RedisCacheState = { redis, prefix, bound, inFlight: new Map(), near: new Map(), reading: new Map() };
  return {
    get: <T>(key: string) => get<T>(state, key),
    set: (key, value, ttlMs) => set(state, key, value, ttlMs),
    async delete(key) {
      state.near.delete(key);
      await redis.del(prefix + key);
    },
    singleFlight<T>(key: string, ttlMs: number, work: () => Promise<T>): Promise<T> {
      const running = state.inFlight.get(key);
      if (running) return running as Promise<T>;
      const promise = acrossInstances(state, key, ttlMs, work).finally(() => state.inFlight.delete(key));
      state.inFlight.set(key, promise);
      return promise;
    },
    async close() {},
  };
}
