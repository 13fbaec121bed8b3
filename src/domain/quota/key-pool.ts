// The pool of YouTube Data API keys (YOUTUBE_API_KEYS). Every call takes its units from the first
// key that still has them today; usage per key and quota day lives in the database, so every
// instance sees the same numbers and a key's budget is never overspent by instances racing.
//
// - A key that answers quotaExceeded rests until the next quota day (midnight Los Angeles).
// - A key the platform rejects (keyInvalid, API not enabled) is taken out for KEY_RECHECK_MS, then
//   tried again once; it is reported in the log, /readyz and /metrics meanwhile.
// - Each key's budget is YOUTUBE_KEY_DAILY_UNITS minus YOUTUBE_KEY_RESERVE_UNITS: the reserve is
//   held back for drift between our count and Google's (e.g. other users of the same project).
import { createHash } from 'node:crypto';
import type { Queryable } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import { quotaDay, secondsToNextQuotaDay } from './quota-day.ts';

const KEY_RECHECK_MS = 3600_000;

export interface KeyLease {
  /** Position in YOUTUBE_API_KEYS, from 1. */
  index: number;
  /** Short hash of the key: safe to log and to use as a metric label. */
  keyId: string;
  key: string;
}

export interface KeyState {
  index: number;
  keyId: string;
  /** Label for metrics and status pages: "<index>:<keyId>", never the key. */
  label: string;
  quotaDay: string;
  unitsUsed: number;
  budget: number;
  unitsRemaining: number;
  state: 'active' | 'exhausted' | 'invalid';
  invalidReason?: string;
}

export interface KeyPool {
  readonly size: number;
  /** Takes `units` from the first key that has them today; UPSTREAM_QUOTA_EXHAUSTED when none has. */
  take(units: number): Promise<KeyLease>;
  /** The key answered quotaExceeded: it rests until the next quota day. */
  markExhausted(lease: KeyLease): Promise<void>;
  /** The key was rejected by the platform. */
  markInvalid(lease: KeyLease, reason: string): Promise<void>;
  /** Whether any key can take a call now (a cheap pre-check; take() is the exact one). */
  hasQuota(): Promise<boolean>;
  status(): Promise<KeyState[]>;
}

export interface KeyPoolOptions {
  keys: string[];
  dailyUnits: number;
  reserveUnits: number;
  now: () => number;
  onInvalid?: (lease: KeyLease, reason: string) => void;
  onExhausted?: (lease: KeyLease) => void;
}

export function keyIdOf(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** YOUTUBE_API_KEYS (comma-separated) plus YOUTUBE_API_KEY, de-duplicated, in order. */
export function parseKeyList(keys: string, single: string): string[] {
  const all = [...keys.split(','), single].map((k) => k.trim()).filter(Boolean);
  return [...new Set(all)];
}

export function noQuotaError(now: number): AppError {
  const seconds = secondsToNextQuotaDay(now);
  return new AppError('UPSTREAM_QUOTA_EXHAUSTED', `The video platform quota of every configured key is spent for today; it renews in ${Math.ceil(seconds / 60)} min (midnight America/Los_Angeles).`, { headers: { 'retry-after': String(seconds) } });
}

export function createKeyPool(db: Queryable, options: KeyPoolOptions): KeyPool {
  const budget = Math.max(0, options.dailyUnits - options.reserveUnits);
  const keys = options.keys.map((key, i) => ({ index: i + 1, keyId: keyIdOf(key), key }));
  // What this process already knows is out, so a spent key costs no database round trip per call.
  const outUntil = new Map<string, { day?: string; untilMs?: number }>();
  const isOut = (keyId: string, day: string, now: number) => {
    const out = outUntil.get(keyId);
    return !!out && (out.day === day || (out.untilMs !== undefined && out.untilMs > now));
  };

  async function tryKey(k: (typeof keys)[number], units: number, day: string, now: number): Promise<boolean> {
    const rows = await db.query(
      `INSERT INTO upstream_key_usage AS u (key_id, quota_day, units)
       SELECT $1::text, $2::text, $3::int WHERE $3::int <= $4::int AND NOT EXISTS (SELECT 1 FROM upstream_key_status WHERE key_id = $1::text AND retry_at > $5::timestamptz)
       ON CONFLICT (key_id, quota_day) DO UPDATE SET units = u.units + EXCLUDED.units
         WHERE u.exhausted_at IS NULL AND u.units + EXCLUDED.units <= $4::int
       RETURNING units`,
      [k.keyId, day, units, budget, new Date(now)],
    );
    return rows.length === 1;
  }

  async function learnWhyOut(k: (typeof keys)[number], units: number, day: string, now: number): Promise<void> {
    const [invalid] = await db.query<{ retry_at: Date }>('SELECT retry_at FROM upstream_key_status WHERE key_id = $1 AND retry_at > $2', [k.keyId, new Date(now)]);
    if (invalid) outUntil.set(k.keyId, { untilMs: invalid.retry_at.getTime() });
    else if (units <= 1) outUntil.set(k.keyId, { day }); // not even one unit left (or resting): out for the day
  }

  return {
    size: keys.length,
    async take(units) {
      const now = options.now();
      const day = quotaDay(now);
      if (keys.length === 0) throw new AppError('UPSTREAM_ERROR', 'No YouTube Data API key is configured on this service.');
      for (const k of keys) {
        if (isOut(k.keyId, day, now)) continue;
        if (await tryKey(k, units, day, now)) return k;
        await learnWhyOut(k, units, day, now);
      }
      const allInvalid = keys.every((k) => outUntil.get(k.keyId)?.untilMs !== undefined && outUntil.get(k.keyId)!.untilMs! > now);
      if (allInvalid) throw new AppError('UPSTREAM_ERROR', 'The video platform rejects every API key this service is configured with.');
      throw noQuotaError(now);
    },
    async markExhausted(lease) {
      const day = quotaDay(options.now());
      await db.query(
        `INSERT INTO upstream_key_usage AS u (key_id, quota_day, units, exhausted_at) VALUES ($1, $2, 0, $3)
         ON CONFLICT (key_id, quota_day) DO UPDATE SET exhausted_at = coalesce(u.exhausted_at, EXCLUDED.exhausted_at)`,
        [lease.keyId, day, new Date(options.now())],
      );
      outUntil.set(lease.keyId, { day });
      options.onExhausted?.(lease);
    },
    async markInvalid(lease, reason) {
      const now = options.now();
      await db.query(
        `INSERT INTO upstream_key_status (key_id, invalid_reason, invalid_since, retry_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key_id) DO UPDATE SET invalid_reason = EXCLUDED.invalid_reason, invalid_since = EXCLUDED.invalid_since, retry_at = EXCLUDED.retry_at`,
        [lease.keyId, reason, new Date(now), new Date(now + KEY_RECHECK_MS)],
      );
      outUntil.set(lease.keyId, { untilMs: now + KEY_RECHECK_MS });
      options.onInvalid?.(lease, reason);
    },
    async hasQuota() {
      const now = options.now();
      const day = quotaDay(now);
      if (keys.every((k) => isOut(k.keyId, day, now))) return false;
      return (await this.status()).some((s) => s.state === 'active' && s.unitsRemaining > 0);
    },
    async status() {
      const now = options.now();
      const day = quotaDay(now);
      const ids = keys.map((k) => k.keyId);
      const usage = await db.query<{ key_id: string; units: number; exhausted_at: Date | null }>('SELECT key_id, units, exhausted_at FROM upstream_key_usage WHERE quota_day = $1 AND key_id = ANY($2)', [day, ids]);
      const invalid = await db.query<{ key_id: string; invalid_reason: string }>('SELECT key_id, invalid_reason FROM upstream_key_status WHERE retry_at > $1 AND key_id = ANY($2)', [new Date(now), ids]);
      return keys.map((k) => {
        const used = usage.find((u) => u.key_id === k.keyId);
        const bad = invalid.find((i) => i.key_id === k.keyId);
        const unitsUsed = used?.units ?? 0;
        const state = bad ? 'invalid' : used?.exhausted_at ? 'exhausted' : 'active';
        return {
          index: k.index, keyId: k.keyId, label: `${k.index}:${k.keyId}`, quotaDay: day, unitsUsed, budget,
          unitsRemaining: state === 'active' ? Math.max(0, budget - unitsUsed) : 0, state,
          ...(bad ? { invalidReason: bad.invalid_reason } : {}),
        } satisfies KeyState;
      });
    },
  };
}
