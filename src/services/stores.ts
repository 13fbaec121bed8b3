// The stores of one process: the database, Redis (a connection for commands, one for pub/sub), the
// caches and the rate limiter. Embedded or scale-out: Redis when REDIS_URL is set; without it, the
// limiter counts in PostgreSQL when there is one, and everything else lives in memory.
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { ServiceOptions } from './options.ts';
import type { Database } from '../infra/db/database.ts';
import { openDatabase } from '../infra/db/open-database.ts';
import type { Cache } from '../infra/cache/cache.ts';
import { createMemoryCache } from '../infra/cache/memory-cache.ts';
import { createRedisCache } from '../infra/cache/redis-cache.ts';
import type { RateLimiter } from '../infra/ratelimit/rate-limiter.ts';
import { createMemoryRateLimiter } from '../infra/ratelimit/memory-rate-limiter.ts';
import { createRedisRateLimiter } from '../infra/ratelimit/redis-rate-limiter.ts';
import { createSqlRateLimiter } from '../infra/ratelimit/sql-rate-limiter.ts';
import { connectRedis, logConnectionState } from '../infra/redis.ts';
import type { Metrics } from '../infra/metrics.ts';
import type { ShortsResult } from '../domain/shorts/shorts-result.ts';

export interface Stores {
  db: Database;
  redis: Redis | null;
  /** Redis pub/sub (a subscribed connection runs no other command). */
  subscriber: Redis | null;
  cache: Cache;
  /** Copies kept past their freshness, served when upstream cannot answer. */
  staleCache: Cache;
  rateLimiter: RateLimiter;
  /** Closes the caches and the limiter; the connections and the database are closed by `disconnect`. */
  closeCaches(): Promise<unknown>;
  disconnect(): Promise<void>;
}

export async function openStores(
  config: Config,
  options: Pick<ServiceOptions, 'role' | 'abortSignal' | 'log'>,
  metrics: Metrics,
  now: () => number,
): Promise<Stores> {
  const { log } = options;
  const db = await openDatabase(
    config,
    {
      role: options.role ?? 'server',
      waitSeconds: config.LOCK_WAIT_SECONDS,
      abortSignal: options.abortSignal,
      onWait: (holder) =>
        log.info(
          { holder },
          `waiting up to ${config.LOCK_WAIT_SECONDS} s for ${holder.role} pid ${holder.pid} ` +
            `to release ${config.DATA_DIR}`,
        ),
      onTakeover: (stale) => log.info({ stale }, 'took over the lock of a process that no longer runs'),
    },
    { onRetry: (code) => metrics.dbRetries.inc({ code }) },
  );
  const connect = async (name: string) =>
    config.REDIS_URL
      ? logConnectionState(
          await connectRedis(config.REDIS_URL, config.REDIS_KEY_PREFIX, config.REDIS_COMMAND_TIMEOUT_MS),
          name,
          log,
        )
      : null;
  const redis = await connect('commands');
  const subscriber = await connect('subscriber');
  const cache = redis ? createRedisCache(redis) : createMemoryCache(1000, undefined, now);
  // Stale copies are bounded by the shorts they hold, not by entries: one can hold 5,000.
  const staleBound = {
    maxWeight: config.STALE_MAX_SHORTS,
    weigh: (value: unknown) => 1 + ((value as { result?: ShortsResult }).result?.shorts.length ?? 0),
  };
  const staleCache = redis
    ? createRedisCache(redis, 'stale:', staleBound)
    : createMemoryCache(100_000, staleBound, now);
  // The windows follow the service's clock (injected in tests: a minute boundary must not reset a test's window).
  const rateLimiter = redis
    ? createRedisRateLimiter(redis, now)
    : db.kind === 'postgres'
      ? createSqlRateLimiter(db, now)
      : createMemoryRateLimiter(now);
  return {
    db,
    redis,
    subscriber,
    cache,
    staleCache,
    rateLimiter,
    closeCaches: () => Promise.allSettled([cache.close(), staleCache.close(), rateLimiter.close()]),
    async disconnect() {
      subscriber?.disconnect();
      redis?.disconnect();
      await db.close();
    },
  };
}
