// A short-lived cache in front of a per-request database lookup (API key by hash, account by id).
//
// Concurrent misses share one lookup: when an entry lapsed, every request that arrived before
// the database answered used to run its own — 255 key and 214 account lookups for 1,000 webhook
// requests, on the embedded database's one thread, where each waited behind the others.
//
// Hand-written rather than lru-cache's fetch(): a lookup still in flight when its key is deleted
// (an API key revoked) must not store what it read before the revocation, and the clock is
// injected (tests move it); lru-cache's fetch() either aborts the waiting callers or stores the
// stale value.
export interface LookupCache<V> {
  /** The cached value, or `load()`'s (shared with the other callers waiting for the same key). */
  get(key: string, load: () => Promise<V>): Promise<V>;
  /** Forgets the key now, including a lookup in flight (it answers its callers but is not kept). */
  delete(key: string): void;
}

export function createLookupCache<V>({
  ttlMs,
  now = Date.now,
  max = 10_000,
}: {
  ttlMs: number;
  now?: () => number;
  max?: number;
}): LookupCache<V> {
  const entries = new Map<string, { value: V; expiresAt: number }>();
  const inFlight = new Map<string, Promise<V>>();
  return {
    get(key, load) {
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now()) return Promise.resolve(hit.value);
      const pending = inFlight.get(key);
      if (pending) return pending;
      const startedAt = now();
      const lookup = load()
        .then((value) => {
          // Not kept if the key was deleted meanwhile (the in-flight entry is gone or replaced).
          if (inFlight.get(key) === lookup && ttlMs > 0) {
            if (entries.size >= max) entries.clear();
            entries.set(key, { value, expiresAt: startedAt + ttlMs });
          }
          return value;
        })
        .finally(() => {
          if (inFlight.get(key) === lookup) inFlight.delete(key);
        });
      inFlight.set(key, lookup);
      return lookup;
    },
    delete(key) {
      entries.delete(key);
      inFlight.delete(key);
    },
  };
}
