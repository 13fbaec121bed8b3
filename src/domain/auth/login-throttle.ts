// Login brute-force throttle. Three counters of failed attempts, each with a growing delay once it
// reaches its limit:
//   pair    (email, client address): LOGIN_MAX_FAILURES, then 30 s, 60 s, 120 s … (capped at the window)
//   email   (all addresses):         LOGIN_MAX_FAILURES × 4, then growing delays — but only for
//                                    addresses that already failed for this email, so it slows
//                                    guessing without locking the owner out
//   address (all emails):            LOGIN_MAX_FAILURES × 4, then growing delays (credential stuffing)
// An attempt is counted as a failure *before* the password is checked (count-and-check in one
// atomic step), so parallel requests cannot outrun the limit: at most LOGIN_MAX_FAILURES checks
// per pair get through before the delay starts. A correct password clears its pair and refunds
// the email and address counters.
import type { Redis } from 'ioredis';
import type { Database } from '../../infra/db/database.ts';

export interface ThrottleRecord {
  failures: number;
  /** Epoch ms before which the record refuses attempts (0: not delayed). */
  nextAt: number;
}

export interface ThrottleRule {
  limit: number;
  /** Only refuse when the pair (record 0) already has failures. */
  onlyDirty: boolean;
}

export interface ThrottleTiming {
  windowMs: number;
  baseDelayMs: number;
}

export type Verdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export function delayMs(excess: number, timing: ThrottleTiming): number {
  return Math.min(timing.windowMs, timing.baseDelayMs * 2 ** Math.min(excess, 30));
}

/** The decision, shared by the memory and SQL stores (the Redis script mirrors it). Mutates records. */
export function reserve(
  records: ThrottleRecord[],
  rules: ThrottleRule[],
  now: number,
  timing: ThrottleTiming,
): Verdict {
  const pairDirty = records[0]!.failures > 0;
  let waitMs = 0;
  records.forEach((r, i) => {
    if (r.nextAt > now && (!rules[i]!.onlyDirty || pairDirty)) waitMs = Math.max(waitMs, r.nextAt - now);
  });
  if (waitMs > 0) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  records.forEach((r, i) => {
    r.failures += 1;
    if (r.failures >= rules[i]!.limit) r.nextAt = now + delayMs(r.failures - rules[i]!.limit, timing);
  });
  return { allowed: true };
}

/**
 * After a correct password (`success`): the pair starts over, the others give back the reserved
 * attempt. Without `success` (the password was never checked, e.g. the gate was full) every record
 * gives back the reserved attempt.
 */
export function refund(records: ThrottleRecord[], rules: ThrottleRule[], success = true): void {
  records.forEach((r, i) => {
    if (i === 0 && success) {
      r.failures = 0;
      r.nextAt = 0;
      return;
    }
    r.failures = Math.max(0, r.failures - 1);
    if (r.failures < rules[i]!.limit) r.nextAt = 0;
  });
}

export interface ThrottleStore {
  reserve(keys: string[], rules: ThrottleRule[], now: number, timing: ThrottleTiming): Promise<Verdict>;
  refund(keys: string[], rules: ThrottleRule[], now: number, timing: ThrottleTiming, success: boolean): Promise<void>;
}

const expiry = (r: ThrottleRecord, now: number, timing: ThrottleTiming) => Math.max(r.nextAt, now) + timing.windowMs;

export function memoryThrottleStore(): ThrottleStore {
  const records = new Map<string, ThrottleRecord & { expiresAt: number }>();
  let lastSweep = 0;
  const load = (keys: string[], now: number) => {
    if (now - lastSweep > 60_000) {
      lastSweep = now;
      for (const [k, r] of records) if (r.expiresAt <= now) records.delete(k);
    }
    return keys.map((k) => {
      const r = records.get(k);
      return r && r.expiresAt > now ? { failures: r.failures, nextAt: r.nextAt } : { failures: 0, nextAt: 0 };
    });
  };
  const save = (keys: string[], list: ThrottleRecord[], now: number, timing: ThrottleTiming) =>
    keys.forEach((k, i) => {
      if (list[i]!.failures === 0) records.delete(k);
      else records.set(k, { ...list[i]!, expiresAt: expiry(list[i]!, now, timing) });
    });
  return {
    async reserve(keys, rules, now, timing) {
      const list = load(keys, now);
      const verdict = reserve(list, rules, now, timing);
      if (verdict.allowed) save(keys, list, now, timing);
      return verdict;
    },
    async refund(keys, rules, now, timing, success) {
      const list = load(keys, now);
      refund(list, rules, success);
      save(keys, list, now, timing);
    },
  };
}

/** PostgreSQL without Redis: rows in login_throttle, locked (in key order) for the read-modify-write. */
export function sqlThrottleStore(db: Database): ThrottleStore {
  let lastSweep = 0;
  const run = (keys: string[], now: number, timing: ThrottleTiming, work: (list: ThrottleRecord[]) => boolean) =>
    db.transaction(async (tx) => {
      for (const key of [...keys].sort())
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`login-throttle:${key}`]);
      const rows = await tx.query<{ key: string; failures: number; next_at: number | string }>(
        'SELECT key, failures, next_at FROM login_throttle WHERE key = ANY($1::text[]) AND expires_at > $2',
        [keys, new Date(now)],
      );
      const list = keys.map((k) => {
        const row = rows.find((r) => r.key === k);
        return row ? { failures: row.failures, nextAt: Number(row.next_at) } : { failures: 0, nextAt: 0 };
      });
      if (!work(list)) return;
      for (const [i, key] of keys.entries()) {
        const r = list[i]!;
        if (r.failures === 0) await tx.query('DELETE FROM login_throttle WHERE key = $1', [key]);
        else
          await tx.query(
            `INSERT INTO login_throttle (key, failures, next_at, expires_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (key) DO UPDATE SET failures = EXCLUDED.failures, next_at = EXCLUDED.next_at,
             expires_at = EXCLUDED.expires_at`,
            [key, r.failures, r.nextAt, new Date(expiry(r, now, timing))],
          );
      }
      if (now - lastSweep > 60_000) {
        lastSweep = now;
        await tx.query('DELETE FROM login_throttle WHERE expires_at < $1', [new Date(now)]);
      }
    });
  return {
    async reserve(keys, rules, now, timing) {
      let verdict: Verdict = { allowed: true };
      await run(keys, now, timing, (list) => {
        verdict = reserve(list, rules, now, timing);
        return verdict.allowed;
      });
      return verdict;
    },
    async refund(keys, rules, now, timing, success) {
      await run(keys, now, timing, (list) => {
        refund(list, rules, success);
        return true;
      });
    },
  };
}

// Redis: the same decision in one Lua script per step. Each record is a hash {f: failures, n: nextAt}.
// ARGV: now, windowMs, baseDelayMs, mode (reserve | refund: a success | release: never checked),
// then per key: limit, onlyDirty (0/1).
const SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local base = tonumber(ARGV[3])
local mode = ARGV[4]
local f, n = {}, {}
for i = 1, #KEYS do
  local v = redis.call('HMGET', KEYS[i], 'f', 'n')
  f[i] = tonumber(v[1] or '0')
  n[i] = tonumber(v[2] or '0')
end
local function limit(i) return tonumber(ARGV[3 + 2 * i]) end
local function onlyDirty(i) return ARGV[4 + 2 * i] == '1' end
if mode == 'reserve' then
  local wait = 0
  for i = 1, #KEYS do
    if n[i] > now and (not onlyDirty(i) or f[1] > 0) then wait = math.max(wait, n[i] - now) end
  end
  if wait > 0 then return wait end
  for i = 1, #KEYS do
    f[i] = f[i] + 1
    if f[i] >= limit(i) then n[i] = now + math.min(window, base * 2 ^ math.min(f[i] - limit(i), 30)) end
  end
else
  local first = 1
  if mode == 'refund' then
    f[1] = 0
    n[1] = 0
    first = 2
  end
  for i = first, #KEYS do
    f[i] = math.max(0, f[i] - 1)
    if f[i] < limit(i) then n[i] = 0 end
  end
end
for i = 1, #KEYS do
  if f[i] == 0 then
    redis.call('DEL', KEYS[i])
  else
    redis.call('HSET', KEYS[i], 'f', f[i], 'n', n[i])
    redis.call('PEXPIRE', KEYS[i], math.max(n[i], now) - now + window)
  end
end
return 0
`;

export function redisThrottleStore(redis: Redis): ThrottleStore {
  // One hash slot per email is not possible for the address key, so keys are not hash-tagged;
  // this store assumes a single Redis (not Redis Cluster), as the rest of the service does.
  const run = async (
    keys: string[],
    rules: ThrottleRule[],
    now: number,
    timing: ThrottleTiming,
    mode: 'reserve' | 'refund' | 'release',
  ) =>
    Number(
      await redis.eval(
        SCRIPT,
        keys.length,
        ...keys.map((k) => `login:${k}`),
        String(now),
        String(timing.windowMs),
        String(timing.baseDelayMs),
        mode,
        ...rules.flatMap((r) => [String(r.limit), r.onlyDirty ? '1' : '0']),
      ),
    );
  return {
    async reserve(keys, rules, now, timing) {
      const waitMs = await run(keys, rules, now, timing, 'reserve');
      return waitMs > 0
        ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) }
        : { allowed: true };
    },
    async refund(keys, rules, now, timing, success) {
      await run(keys, rules, now, timing, success ? 'refund' : 'release');
    },
  };
}

export interface LoginThrottleSettings {
  maxFailures: number;
  windowSeconds: number;
  /** Delay after the limit is reached; doubles with each further failure. Default 30 s. */
  baseDelayMs?: number;
  now?: () => number;
}

export interface LoginAttempt {
  /** Call once the password was checked: a correct password refunds the reservation. */
  settle(success: boolean): Promise<void>;
  /** The password was not checked after all (e.g. the password gate was full): give the attempt back. */
  release(): Promise<void>;
}

export interface LoginThrottle {
  /** Reserve one password check for (email, address), or refuse with the seconds to wait. */
  begin(
    email: string,
    address: string,
  ): Promise<{ allowed: true; attempt: LoginAttempt } | { allowed: false; retryAfterSeconds: number }>;
}

export function createLoginThrottle(store: ThrottleStore, settings: LoginThrottleSettings): LoginThrottle {
  const now = settings.now ?? Date.now;
  const timing: ThrottleTiming = {
    windowMs: settings.windowSeconds * 1000,
    baseDelayMs: Math.min(settings.baseDelayMs ?? 30_000, settings.windowSeconds * 1000),
  };
  const rules: ThrottleRule[] = [
    { limit: settings.maxFailures, onlyDirty: false },
    { limit: settings.maxFailures * 4, onlyDirty: true },
    { limit: settings.maxFailures * 4, onlyDirty: false },
  ];
  return {
    async begin(email, address) {
      const keys = [`pair:${email}|${address}`, `email:${email}`, `address:${address}`];
      const verdict = await store.reserve(keys, rules, now(), timing);
      if (!verdict.allowed) return verdict;
      return {
        allowed: true,
        attempt: {
          async settle(success) {
            if (success) await store.refund(keys, rules, now(), timing, true);
          },
          async release() {
            await store.refund(keys, rules, now(), timing, false);
          },
        },
      };
    },
  };
}
