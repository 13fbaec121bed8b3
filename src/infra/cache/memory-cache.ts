// In-process cache: values are kept as objects (callers must not mutate them), bounded by entry
// count with least-recently-used eviction (a Map keeps insertion order; re-inserting on read moves
// an entry to the back).
import type { Cache, CacheBound } from './cache.ts';

export function createMemoryCache(maxEntries = 1000, bound?: CacheBound, now: () => number = Date.now): Cache {
  const entries = new Map<string, { value: unknown; expiresAt: number; weight: number }>();
  let weight = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (entry) weight -= entry.weight;
    entries.delete(key);
  };
  const inFlight = new Map<string, Promise<unknown>>();
  const cache: Cache = {
    async get<T>(key: string) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        drop(key);
        return undefined;
      }
      entries.delete(key);
      entries.set(key, entry);
      return entry.value as T;
    },
    async set(key, value, ttlMs) {
      if (ttlMs <= 0) return;
      drop(key);
      const w = bound ? bound.weigh(value) : 0;
      if (bound && w > bound.maxWeight) return;
      entries.set(key, { value, expiresAt: now() + ttlMs, weight: w });
      weight += w;
      while (entries.size > maxEntries || (bound && weight > bound.maxWeight)) drop(entries.keys().next().value!);
    },
    async delete(key) {
      drop(key);
    },
    singleFlight<T>(key: string, ttlMs: number, work: () => Promise<T>): Promise<T> {
      const running = inFlight.get(key);
      if (running) return running as Promise<T>;
      const promise = (async () => {
        try {
          const value = await work();
          await cache.set(key, value, ttlMs);
          return value;
        } finally {
          inFlight.delete(key);
        }
      })();
      inFlight.set(key, promise);
      return promise;
    },
    async close() {
      entries.clear();
      weight = 0;
    },
  };
  return cache;
}
