// Scale-out mode: counters in Redis, checked and counted by one Lua script so that every instance
// sees the same totals and a rejected request increments nothing.
import type { Redis } from 'ioredis';
import { decide, windowStart, type RateLimiter, type WindowSpec } from './rate-limiter.ts';

// KEYS: one counter per window. ARGV: limits, then TTLs in ms, then 1 to count / 0 to peek.
const SCRIPT = `
local n = #KEYS
local counts = {}
for i = 1, n do counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0') end
local admitted = 1
for i = 1, n do if counts[i] >= tonumber(ARGV[i]) then admitted = 0 end end
if admitted == 1 and ARGV[2 * n + 1] == '1' then
  for i = 1, n do
    counts[i] = redis.call('INCR', KEYS[i])
    if counts[i] == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[n + i]) end
  end
end
local out = { admitted }
for i = 1, n do out[i + 1] = counts[i] end
return out
`;

/** How long a window's counter is kept after the window ends, for instances whose clocks run behind. */
const SKEW_GRACE_MS = 5 * 60_000;

/** The script as a command of the connection (ioredis's defineCommand). */
type WithScript = Redis & { consumeWindows(numberOfKeys: number, ...args: string[]): Promise<number[]> };

export function createRedisRateLimiter(redis: Redis, now: () => number = Date.now): RateLimiter {
  // Sent as EVALSHA: with EVAL every request carried the script's 500 bytes and Redis hashed
  // them each time; ioredis loads the script by itself when Redis answers NOSCRIPT.
  redis.defineCommand('consumeWindows', { lua: SCRIPT });
  const run = async (bucket: string, windows: WindowSpec[], nowMs: number, count: boolean) => {
    // The hash tag keeps all of a bucket's keys in one cluster slot, as a multi-key script requires.
    const keys = windows.map((w) => `rl:{${bucket}}:${w.name}:${windowStart(w, nowMs)}`);
    // A counter outlives its window by SKEW_GRACE_MS: an instance whose clock runs behind still
    // counts in that window's key, and one expired by the clock that created it was made again at 0
    // — a second full limit in the same window (the SQL limiter keeps 5 minutes too).
    const ttls = windows.map((w) => String(windowStart(w, nowMs) + w.seconds * 1000 - nowMs + SKEW_GRACE_MS));
    const args = [...keys, ...windows.map((w) => String(w.limit)), ...ttls, count ? '1' : '0'];
    const result = await (redis as WithScript).consumeWindows(keys.length, ...args);
    const admitted = result[0] === 1;
    return decide(windows, result.slice(1).map(Number), admitted, nowMs);
  };
  return {
    consume: (bucket, windows, nowMs = now()) => run(bucket, windows, nowMs, true),
    peek: (bucket, windows, nowMs = now()) => run(bucket, windows, nowMs, false),
    async close() {},
  };
}
