// The pool of YouTube Data API keys (YOUTUBE_API_KEYS). Every call takes its units from the first
// key that still has them today; usage per key and quota day lives in the database, so every
// instance sees the same numbers and a key's budget is never overspent by instances racing.
//
// - A key that answers quotaExceeded rests until the next quota day (midnight Los Angeles).
// - A key the platform rejects (keyInvalid, API not enabled) is taken out, then re-checked with one
//   cheap call (KeyPoolOptions.recheck) before any request's call goes to it: after a minute, then
//   after twice as long as it has been out, up to KEY_RECHECK_MS, so a key revoked by mistake and
//   restored costs minutes of 502s, not an hour, and a dead key one call an hour. It is reported in
//   the log, /readyz and /metrics meanwhile.
// - Each key's budget is YOUTUBE_KEY_DAILY_UNITS minus YOUTUBE_KEY_RESERVE_UNITS: the reserve is
//   held back for drift between our count and Google's (e.g. other users of the same project).
// - Units are counted in the database a lease at a time: a process takes LEASE_UNITS of a key
//   in one statement and spends them call by call in memory. A database statement per call sat on
//   the critical path of every playlist page (2-5 ms each on embedded PGlite, ~60 pages for a
//   3,000-short channel). The count in the database is what was spent plus what running processes
//   hold: a budget can still never be overspent; at worst a key stops LEASE_UNITS - 1 units early
//   per process, for the units a process held when it was killed or when the quota day turned
//   (a clean stop gives them back, and so does the first take of a new day).
import { createHash } from 'node:crypto';
import type { Queryable } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import { quotaDay, secondsToNextQuotaDay } from './quota-day.ts';

/** The longest a rejected key stays out before it is checked again. */
const KEY_RECHECK_MS = 3600_000;
/** The first re-check of a rejected key, a minute after its rejection. */
const KEY_FIRST_RECHECK_MS = 60_000;
/** Units a process takes from a key's budget per database statement (more when one call needs more). */
export const LEASE_UNITS = 25;

export interface KeyLease {
  /** Position in YOUTUBE_API_KEYS, from 1. */
  index: number;
  /** Short hash of the key: safe to log and to use as a metric label. */
  keyId: string;
  key: string;
  /**
   * The quota day the call was made on: its quotaExceeded is that day's (an answer that comes just
   * after midnight must not mark the key spent for the whole next day).
   */
  quotaDay?: string;
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
  /**
   * The call `lease` was taken for was never sent (its request could not pay for it): its units go
   * back to what this process holds of the key, or to the key's count once that is gone.
   */
  unspent(lease: KeyLease, units: number): void;
  /** The key answered quotaExceeded: it rests until the next quota day. */
  markExhausted(lease: KeyLease): Promise<void>;
  /** The key was rejected by the platform. */
  markInvalid(lease: KeyLease, reason: string): Promise<void>;
  /** Whether any key can take a call now (a cheap pre-check; take() is the exact one). */
  hasQuota(): Promise<boolean>;
  status(): Promise<KeyState[]>;
  /** Gives the units this process holds and has not spent back to their keys' budgets. */
  close(): Promise<void>;
}

export interface KeyPoolOptions {
  keys: string[];
  dailyUnits: number;
  reserveUnits: number;
  now: () => number;
  onInvalid?: (lease: KeyLease, reason: string) => void;
  onExhausted?: (lease: KeyLease) => void;
  /**
   * One cheap call (1 unit) with a rejected key whose time out is over: true, it works again; false,
   * still rejected; undefined, no answer (checked again a minute later). Without it, the next
   * request's own call is the check.
   */
  recheck?: (key: string) => Promise<boolean | undefined>;
  /** A rejected key passed its re-check and is back in the pool. */
  onRestored?: (lease: KeyLease) => void;
  /** Units taken per database statement (LEASE_UNITS). */
  leaseUnits?: number;
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
  return new AppError(
    'UPSTREAM_QUOTA_EXHAUSTED',
    'The video platform quota of every configured key is spent for today; it renews ' +
      `in ${Math.ceil(seconds / 60)} min (midnight America/Los_Angeles).`,
    { headers: { 'retry-after': String(seconds) } },
  );
}

interface PoolKey {
  index: number;
  keyId: string;
  key: string;
}

/** One pool's state in this process, shared by the functions below. */
interface PoolState {
  db: Queryable;
  options: KeyPoolOptions;
  /** Each key's units per quota day, the reserve held back. */
  budget: number;
  keys: PoolKey[];
  leaseUnits: number;
  /** What this process already knows is out, so a spent key costs no database round trip per call. */
  outUntil: Map<string, { day?: string; untilMs?: number }>;
  /** Units this process took from a key's budget for `day` and has not spent yet. */
  held: Map<string, { day: string; units: number }>;
  /** Refills of one key's lease take turns, so concurrent calls wait for one statement instead of each leasing. */
  refills: Map<string, Promise<unknown>>;
  /** The re-check of a rejected key in flight: concurrent calls wait for its one call. */
  rechecks: Map<string, Promise<boolean>>;
}

export function createKeyPool(db: Queryable, options: KeyPoolOptions): KeyPool {
  const state: PoolState = {
    db,
    options,
    budget: Math.max(0, options.dailyUnits - options.reserveUnits),
    keys: options.keys.map((key, i) => ({ index: i + 1, keyId: keyIdOf(key), key })),
    leaseUnits: options.leaseUnits ?? LEASE_UNITS,
    outUntil: new Map(),
    held: new Map(),
    refills: new Map(),
    rechecks: new Map(),
  };
  return {
    size: state.keys.length,
    take: (units) => takeUnits(state, units),
    unspent: (lease, units) => unspent(state, lease, units),
    markExhausted: (lease) => markExhausted(state, lease),
    markInvalid: (lease, reason) => markInvalid(state, lease, reason),
    async hasQuota() {
      const now = options.now();
      const day = quotaDay(now);
      if (state.keys.every((k) => isOut(state, k.keyId, day, now))) return false;
      return (await this.status()).some((s) => s.state === 'active' && s.unitsRemaining > 0);
    },
    status: () => keyStates(state),
    close: () => closePool(state),
  };
}

function isOut(state: PoolState, keyId: string, day: string, now: number): boolean {
  const out = state.outUntil.get(keyId);
  return !!out && (out.day === day || (out.untilMs !== undefined && out.untilMs > now));
}

async function takeUnits(state: PoolState, units: number): Promise<KeyLease> {
  const { keys, outUntil } = state;
  const now = state.options.now();
  const day = quotaDay(now);
  if (keys.length === 0) throw new AppError('UPSTREAM_ERROR', 'No YouTube Data API key is configured on this service.');
  for (const k of keys) {
    // units in hand are spent even when the key has no more to lease
    if (spendHeld(state, k.keyId, units, day)) return { ...k, quotaDay: day };
    if (isOut(state, k.keyId, day, now)) continue;
    if (rejectedUntil(state, k.keyId) !== undefined && !(await recheckOnce(state, k, day, now))) continue;
    if (await takeFrom(state, k, units, day, now)) return { ...k, quotaDay: day };
  }
  const allInvalid = keys.every(
    (k) => outUntil.get(k.keyId)?.untilMs !== undefined && outUntil.get(k.keyId)!.untilMs! > now,
  );
  if (allInvalid)
    throw new AppError('UPSTREAM_ERROR', 'The video platform rejects every API key this service is configured with.');
  throw noQuotaError(now);
}

/** Counts `units` more against the key's budget for `day`, if they fit and the key is not resting. */
async function grant(state: PoolState, keyId: string, units: number, day: string, now: number): Promise<boolean> {
  const rows = await state.db.query(
    `INSERT INTO upstream_key_usage AS u (key_id, quota_day, units)
     SELECT $1::text, $2::text, $3::int WHERE $3::int <= $4::int
       AND NOT EXISTS (SELECT 1 FROM upstream_key_status WHERE key_id = $1::text AND retry_at > $5::timestamptz)
     ON CONFLICT (key_id, quota_day) DO UPDATE SET units = u.units + EXCLUDED.units
       WHERE u.exhausted_at IS NULL AND u.units + EXCLUDED.units <= $4::int
     RETURNING units`,
    [keyId, day, units, state.budget, new Date(now)],
  );
  return rows.length === 1;
}

/** Units held for a day that is over go back to that day's count (best effort: the count only ever errs high). */
function giveBack(state: PoolState, keyId: string, lease: { day: string; units: number }): Promise<unknown> {
  if (lease.units <= 0) return Promise.resolve();
  return state.db
    .query('UPDATE upstream_key_usage SET units = greatest(0, units - $3) WHERE key_id = $1 AND quota_day = $2', [
      keyId,
      lease.day,
      lease.units,
    ])
    .catch(() => null);
}

function spendHeld(state: PoolState, keyId: string, units: number, day: string): boolean {
  const lease = state.held.get(keyId);
  if (lease?.day !== day || lease.units < units) return false;
  lease.units -= units;
  return true;
}

/** A new lease of the key: LEASE_UNITS, or what is left of its budget when that is less (but enough for this call). */
async function lease(state: PoolState, k: PoolKey, units: number, day: string, now: number): Promise<boolean> {
  if (spendHeld(state, k.keyId, units, day)) return true; // another call refilled while this one waited its turn
  const old = state.held.get(k.keyId);
  const left = old?.day === day ? old.units : 0;
  if (old && old.day !== day) {
    state.held.delete(k.keyId);
    void giveBack(state, k.keyId, old);
  }
  const need = units - left;
  let size = Math.max(need, state.leaseUnits);
  if (!(await grant(state, k.keyId, size, day, now))) {
    // Not a whole lease: the rest of the budget, if it covers this call.
    const [row] = await state.db.query<{ units: number; exhausted_at: Date | null }>(
      'SELECT units, exhausted_at FROM upstream_key_usage WHERE key_id = $1 AND quota_day = $2',
      [k.keyId, day],
    );
    const rest = row && !row.exhausted_at ? state.budget - row.units : row ? 0 : state.budget;
    size = rest;
    if (rest < need || !(await grant(state, k.keyId, size, day, now))) {
      await learnWhyOut(state, k, rest, day, now);
      return false;
    }
  }
  state.held.set(k.keyId, { day, units: left + size - units });
  return true;
}

/** lease() in turn with the key's other refills (one entry per key: the map stays as small as the pool). */
function takeFrom(state: PoolState, k: PoolKey, units: number, day: string, now: number): Promise<boolean> {
  const turn = (state.refills.get(k.keyId) ?? Promise.resolve()).then(() => lease(state, k, units, day, now));
  state.refills.set(
    k.keyId,
    turn.catch(() => null),
  );
  return turn;
}

async function learnWhyOut(state: PoolState, k: PoolKey, rest: number, day: string, now: number): Promise<void> {
  const [invalid] = await state.db.query<{ retry_at: Date }>(
    'SELECT retry_at FROM upstream_key_status WHERE key_id = $1 AND retry_at > $2',
    [k.keyId, new Date(now)],
  );
  if (invalid) state.outUntil.set(k.keyId, { untilMs: invalid.retry_at.getTime() });
  else if (rest < 1) state.outUntil.set(k.keyId, { day }); // not even one unit left (or resting): out for the day
}

function unspent(state: PoolState, lease: KeyLease, units: number): void {
  const day = lease.quotaDay ?? quotaDay(state.options.now());
  const mine = state.held.get(lease.keyId);
  if (mine?.day === day) mine.units += units;
  else void giveBack(state, lease.keyId, { day, units });
}

async function markExhausted(state: PoolState, lease: KeyLease): Promise<void> {
  const day = lease.quotaDay ?? quotaDay(state.options.now());
  // The platform's word beats our count: what this process held for that day is void.
  if (state.held.get(lease.keyId)?.day === day) state.held.delete(lease.keyId);
  await state.db.query(
    `INSERT INTO upstream_key_usage AS u (key_id, quota_day, units, exhausted_at) VALUES ($1, $2, 0, $3)
     ON CONFLICT (key_id, quota_day) DO UPDATE SET exhausted_at = coalesce(u.exhausted_at, EXCLUDED.exhausted_at)`,
    [lease.keyId, day, new Date(state.options.now())],
  );
  state.outUntil.set(lease.keyId, { day });
  state.options.onExhausted?.(lease);
}

async function markInvalid(state: PoolState, lease: KeyLease, reason: string): Promise<void> {
  const now = state.options.now();
  state.held.delete(lease.keyId);
  // A rejection soon after the last time out ended continues its run: out twice as long as the key
  // has been out so far (1, 2, 4… minutes, at most KEY_RECHECK_MS). Otherwise a new run starts.
  const [previous] = await state.db.query<{ invalid_since: Date; retry_at: Date }>(
    'SELECT invalid_since, retry_at FROM upstream_key_status WHERE key_id = $1',
    [lease.keyId],
  );
  const since =
    previous && previous.retry_at.getTime() >= now - KEY_RECHECK_MS ? previous.invalid_since.getTime() : now;
  const retryAt = now + Math.min(KEY_RECHECK_MS, Math.max(KEY_FIRST_RECHECK_MS, now - since));
  await state.db.query(
    `INSERT INTO upstream_key_status (key_id, invalid_reason, invalid_since, retry_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (key_id) DO UPDATE
       SET invalid_reason = EXCLUDED.invalid_reason, invalid_since = EXCLUDED.invalid_since,
       retry_at = EXCLUDED.retry_at`,
    [lease.keyId, reason, new Date(since), new Date(retryAt)],
  );
  state.outUntil.set(lease.keyId, { untilMs: retryAt });
  state.options.onInvalid?.(lease, reason);
}

/** When the key's time out for a rejection ended, if this process knows it was rejected. */
function rejectedUntil(state: PoolState, keyId: string): number | undefined {
  return state.outUntil.get(keyId)?.untilMs;
}

/**
 * A rejected key whose time out is over is checked with one cheap call before a request's call may
 * use it; concurrent calls wait for that one. Passed: back in the pool. Still rejected: out again,
 * for longer (markInvalid). No answer: checked again a minute later. Without a recheck function the
 * request's own call is the check.
 */
function recheckOnce(state: PoolState, k: PoolKey, day: string, now: number): Promise<boolean> {
  const { recheck } = state.options;
  if (!recheck) {
    state.outUntil.delete(k.keyId);
    return Promise.resolve(true);
  }
  let check = state.rechecks.get(k.keyId);
  if (!check) {
    check = (async () => {
      // The check's unit counts against the key like any call's.
      if (!(await takeFrom(state, k, 1, day, now))) return false;
      const lease = { ...k, quotaDay: day };
      const verdict = await recheck(k.key).catch(() => undefined);
      if (verdict === false) {
        await markInvalid(state, lease, 'still rejected when checked again');
        return false;
      }
      if (verdict === undefined) {
        state.outUntil.set(k.keyId, { untilMs: now + KEY_FIRST_RECHECK_MS });
        return false;
      }
      await state.db.query('DELETE FROM upstream_key_status WHERE key_id = $1', [k.keyId]);
      state.outUntil.delete(k.keyId);
      state.options.onRestored?.(lease);
      return true;
    })().finally(() => state.rechecks.delete(k.keyId));
    state.rechecks.set(k.keyId, check);
  }
  return check;
}

async function keyStates(state: PoolState): Promise<KeyState[]> {
  const now = state.options.now();
  const day = quotaDay(now);
  const ids = state.keys.map((k) => k.keyId);
  const usage = await state.db.query<{ key_id: string; units: number; exhausted_at: Date | null }>(
    'SELECT key_id, units, exhausted_at FROM upstream_key_usage WHERE quota_day = $1 AND key_id = ANY($2)',
    [day, ids],
  );
  const invalid = await state.db.query<{ key_id: string; invalid_reason: string }>(
    'SELECT key_id, invalid_reason FROM upstream_key_status WHERE retry_at > $1 AND key_id = ANY($2)',
    [new Date(now), ids],
  );
  return state.keys.map((k) => {
    const used = usage.find((u) => u.key_id === k.keyId);
    const bad = invalid.find((i) => i.key_id === k.keyId);
    // What this process holds is not spent: counted for the others, not for itself.
    const mine = state.held.get(k.keyId);
    const unitsUsed = Math.max(0, (used?.units ?? 0) - (mine?.day === day ? mine.units : 0));
    const keyState = bad ? 'invalid' : used?.exhausted_at ? 'exhausted' : 'active';
    return {
      index: k.index,
      keyId: k.keyId,
      label: `${k.index}:${k.keyId}`,
      quotaDay: day,
      unitsUsed,
      budget: state.budget,
      unitsRemaining: keyState === 'active' ? Math.max(0, state.budget - unitsUsed) : 0,
      state: keyState,
      invalidReason: bad?.invalid_reason,
    } satisfies KeyState;
  });
}

/** Gives the units this process holds and has not spent back to their keys' budgets. */
async function closePool(state: PoolState): Promise<void> {
  await Promise.all([...state.refills.values()]);
  const leases = [...state.held];
  state.held.clear();
  await Promise.all(leases.map(([keyId, lease]) => giveBack(state, keyId, lease)));
}
