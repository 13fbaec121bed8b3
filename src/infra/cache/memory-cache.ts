// In-process cache: values are kept as objects (callers must not mutate them), bounded by entry
// count with least-recently-used eviction (a Map keeps insertion order; re-inserting on read moves
// an entry to the back).
import type { Cache } from './cache.ts';

export function createMemoryCache(maxEntries = 1000): Cache {
  const entries = new Map<string, { value: unknown; expiresAt: number }>();
  const inFlight = new Map<string, Promise<unknown>>();
  const cache: Cache = {
    async get<T>(key: string) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= Date.now()) {
        entries.delete(key);
        return undefined;
      }
      entries.delete(key);
      entries.set(key, entry);
      return entry.value as T;
    },
    async set(key, value, ttlMs) {
      if (ttlMs <= 0) return;
      entries.delete(key);
      entries.set(key, { value, expiresAt: Date.now() + ttlMs });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    async delete(key) {
      entries.delete(key);
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
    },
  };
  return cache;
}
