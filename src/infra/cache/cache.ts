// Upstream response cache and single-flight. The embedded implementation keeps objects in memory;
// the Redis one shares them (as JSON) with every instance.
export interface Cache {
  get<T>(key: string): Promise<T | undefined>;
  set<T>(key: string, value: T, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Run `work` once per key at a time: concurrent callers (in this process, and across processes
   * where the cache is shared) wait for the first one's result instead of repeating the work.
   * The result is stored under `key` for `ttlMs`.
   */
  singleFlight<T>(key: string, ttlMs: number, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * A bound on what a cache holds, by weight rather than entry count (e.g. shorts per result):
 * the least recently stored entries are dropped first.
 */
export interface CacheBound {
  maxWeight: number;
  weigh(value: unknown): number;
}
