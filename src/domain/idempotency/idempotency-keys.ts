// Idempotency keys (the Idempotency-Key header): the first call with a key claims it, runs, and stores
// its answer; a retry with the same key and the same request gets that answer back and runs nothing.
// Keys live in the database, per caller, so every instance and every restart sees the same claims.
import { createHash } from 'node:crypto';
import type { Queryable } from '../../infra/db/database.ts';

/** How long an answer is replayed: a retry later than this runs again as a new call. */
export const REPLAY_WINDOW_MS = 24 * 3600_000;
/**
 * A claim still unanswered after this long belongs to a process that died mid-call: the next call with its key
 * takes it over. Longer than any call runs (a synchronous request reads at most MAX_SHORTS_PER_REQUEST shorts).
 */
export const CLAIM_LEASE_MS = 10 * 60_000;

/** What a replay sends: the first answer's status, the headers that belong to it, its body and request id. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  requestId: string;
}

export type Claim =
  | { outcome: 'claimed' }
  | { outcome: 'replay'; answer: StoredAnswer }
  | { outcome: 'in-progress' }
  | { outcome: 'reused' };

export interface KeyRef {
  /** The caller the key belongs to: an account id (or the operator token's fixed name). */
  owner: string;
  key: string;
  /** The id of the call that claimed the key: only it may answer or release the claim. */
  requestId: string;
}

/** What makes two calls "the same request": method, route, path parameters, query and body. */
export function requestHash(parts: { method: string; route: string; params: unknown; query: unknown; body: unknown }) {
  const text = JSON.stringify([
    parts.method,
    parts.route,
    parts.params ?? null,
    parts.query ?? null,
    parts.body ?? null,
  ]);
  return createHash('sha256').update(text).digest('base64url');
}

interface KeyRow {
  request_hash: string;
  request_id: string;
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
}

/**
 * Claims `ref.key` for this call, or says what the call must answer instead. An expired row (past the replay
 * window) and an abandoned claim (past the lease) are taken over in the same statement, so two instances
 * racing for one key cannot both win.
 */
export async function claimKey(db: Queryable, ref: KeyRef, hash: string, now: number): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const won = await db.query(
      'INSERT INTO idempotency_keys (owner, key, request_hash, request_id, created_at) VALUES ($1, $2, $3, $4, $5) ' +
        'ON CONFLICT (owner, key) DO UPDATE SET request_hash = excluded.request_hash, ' +
        'request_id = excluded.request_id, status = NULL, headers = NULL, body = NULL, created_at = excluded.created_at ' +
        'WHERE idempotency_keys.created_at <= $6 ' +
        'OR (idempotency_keys.status IS NULL AND idempotency_keys.created_at <= $7) RETURNING 1',
      [
        ref.owner,
        ref.key,
        hash,
        ref.requestId,
        new Date(now),
        new Date(now - REPLAY_WINDOW_MS),
        new Date(now - CLAIM_LEASE_MS),
      ],
    );
    if (won.length > 0) return { outcome: 'claimed' };
    const [row] = await db.query<KeyRow>(
      'SELECT request_hash, request_id, status, headers, body FROM idempotency_keys WHERE owner = $1 AND key = $2',
      [ref.owner, ref.key],
    );
    // Released between the two statements (its first call failed): claim it again.
    if (!row) continue;
    if (row.request_hash !== hash) return { outcome: 'reused' };
    if (row.status === null) return { outcome: 'in-progress' };
    return {
      outcome: 'replay',
      answer: { status: row.status, headers: row.headers ?? {}, body: row.body ?? '', requestId: row.request_id },
    };
  }
  // Claimed and released twice while we looked: as good as a call still running.
  return { outcome: 'in-progress' };
}

/** Stores the claiming call's answer, to be replayed for REPLAY_WINDOW_MS from the claim. */
export async function storeAnswer(db: Queryable, ref: KeyRef, answer: Omit<StoredAnswer, 'requestId'>) {
  await db.query(
    'UPDATE idempotency_keys SET status = $4, headers = $5, body = $6 ' +
      'WHERE owner = $1 AND key = $2 AND request_id = $3 AND status IS NULL',
    [ref.owner, ref.key, ref.requestId, answer.status, JSON.stringify(answer.headers), answer.body],
  );
}

/** Gives the key up: the call's answer is not one to replay (a failure worth retrying), so a retry runs again. */
export async function releaseKey(db: Queryable, ref: KeyRef) {
  await db.query('DELETE FROM idempotency_keys WHERE owner = $1 AND key = $2 AND request_id = $3 AND status IS NULL', [
    ref.owner,
    ref.key,
    ref.requestId,
  ]);
}

/** Deletes keys past the replay window (they are never replayed; this only frees the space). */
export async function purgeExpiredKeys(db: Queryable, now: number): Promise<number> {
  const rows = await db.query('DELETE FROM idempotency_keys WHERE created_at <= $1 RETURNING 1', [
    new Date(now - REPLAY_WINDOW_MS),
  ]);
  return rows.length;
}
