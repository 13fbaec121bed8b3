// Embedded mode: counters in this process. Exact for one instance; use Redis or PostgreSQL for many.
import { decide, windowStart, type RateLimiter, type WindowSpec } from './rate-limiter.ts';

export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const counters = new Map<string, { start: number; count: number; expiresAt: number }>();
  let lastSweep = 0;
  const sweep = (nowMs: number) => {
    if (nowMs - lastSweep < 60_000) return;
    lastSweep = nowMs;
    for (const [key, entry] of counters) if (entry.expiresAt <= nowMs) counters.delete(key);
  };
  const read = (bucket: string, spec: WindowSpec, nowMs: number) => {
    const start = windowStart(spec, nowMs);
    const entry = counters.get(`${bucket}:${spec.name}`);
    return entry && entry.start === start ? entry.count : 0;
  };
  return {
    async consume(bucket, windows, nowMs = now()) {
      sweep(nowMs);
      const counts = windows.map((w) => read(bucket, w, nowMs));
      const admitted = counts.every((c, i) => c < windows[i]!.limit);
      if (!admitted) return decide(windows, counts, false, nowMs);
      windows.forEach((w, i) => {
        const start = windowStart(w, nowMs);
        counters.set(`${bucket}:${w.name}`, { start, count: counts[i]! + 1, expiresAt: start + w.seconds * 1000 });
      });
      return decide(
        windows,
        counts.map((c) => c + 1),
        true,
        nowMs,
      );
    },
    async peek(bucket, windows, nowMs = now()) {
      const counts = windows.map((w) => read(bucket, w, nowMs));
      return decide(
        windows,
        counts,
        counts.every((c, i) => c < windows[i]!.limit),
        nowMs,
      );
    },
    async close() {},
  };
}
