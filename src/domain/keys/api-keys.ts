// API key lifecycle: create (secret returned once), list (never secrets), revoke, resolve by secret.
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import { generateApiKey, hashApiKey } from './api-key-format.ts';
import { ALL_SCOPES, normaliseScopes, type KeyScope } from './scopes.ts';
import type { ApiKey } from '../../contract/accounts.ts';
import type { KeyUsageEntry } from '../../contract/credits.ts';
import type { AccountRow } from '../accounts/accounts.ts';

/** The API's ApiKey shape (contract/accounts.ts). */
export type ApiKeyView = ApiKey;

interface ApiKeyRow {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  expires_at: Date | null;
  scopes: string[] | null;
}

const MAX_ACTIVE_KEYS = 100;
/** The furthest expiry a key may be given (a longer-lived key should simply not expire). */
const MAX_KEY_LIFETIME_MS = 5 * 366 * 86_400_000;

function toView(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
    expiresAt: row.expires_at?.toISOString() ?? null,
    scopes: row.scopes ? normaliseScopes(row.scopes) : ALL_SCOPES,
  };
}

export interface NewKeyOptions {
  scopes?: readonly string[] | undefined;
  /** ISO 8601 date-time in the future; the key stops working then. */
  expiresAt?: string | undefined;
  now?: number;
}

export async function createApiKey(
  db: Database,
  accountId: string,
  name: string,
  { scopes = ALL_SCOPES, expiresAt, now = Date.now() }: NewKeyOptions = {},
): Promise<ApiKeyView & { key: string }> {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw new AppError('VALIDATION_FAILED', 'name must not be blank.');
  const expiry = expiresAt === undefined ? null : Date.parse(expiresAt);
  if (expiry !== null && (Number.isNaN(expiry) || expiry <= now))
    throw new AppError(
      'VALIDATION_FAILED',
      'expiresAt must be a date-time in the future (ISO 8601, e.g. 2030-01-31T00:00:00Z).',
    );
  if (expiry !== null && expiry > now + MAX_KEY_LIFETIME_MS)
    throw new AppError(
      'VALIDATION_FAILED',
      'expiresAt may be at most 5 years ahead; omit it for a key that does not expire.',
    );
  const granted = normaliseScopes(scopes);
  if (granted.length === 0)
    throw new AppError('VALIDATION_FAILED', `scopes must name at least one of ${ALL_SCOPES.join(', ')}.`);
  const generated = generateApiKey();
  const row = await db.transaction(async (tx) => {
    // Counted and inserted under the account's lock, so concurrent creations cannot pass the
    // maximum together (20 at once took an account holding 98 keys to 118).
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`api-keys:${accountId}`]);
    // Active: neither revoked nor expired, as the dashboard counts them (an expired key works no more).
    const [{ n } = { n: 0 }] = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL ' +
        'AND (expires_at IS NULL OR expires_at > $2)',
      [accountId, new Date(now)],
    );
    if (n >= MAX_ACTIVE_KEYS)
      throw new AppError('CONFLICT', `An account may hold at most ${MAX_ACTIVE_KEYS} active keys; revoke one first.`);
    const [inserted] = await tx.query<ApiKeyRow>(
      'INSERT INTO api_keys (id, account_id, name, prefix, key_hash, scopes, expires_at) ' +
        'VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *',
      [
        randomUUID(),
        accountId,
        trimmed,
        generated.prefix,
        generated.hash,
        granted,
        expiry === null ? null : new Date(expiry),
      ],
    );
    return inserted!;
  });
  return { ...toView(row), key: generated.key };
}

export async function listApiKeys(db: Queryable, accountId: string): Promise<ApiKeyView[]> {
  const rows = await db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC, id', [
    accountId,
  ]);
  return rows.map(toView);
}

/** Revoking twice is harmless and keeps the first revocation time. Another account's key is "not found". */
export async function revokeApiKey(
  db: Queryable,
  accountId: string,
  keyId: string,
): Promise<ApiKeyView & { keyHash: string }> {
  const [row] = await db.query<ApiKeyRow & { key_hash: string }>(
    'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 AND account_id = $2 RETURNING *',
    [keyId, accountId],
  );
  if (!row) throw new AppError('NOT_FOUND', 'No API key with that id.');
  return { ...toView(row), keyHash: row.key_hash };
}

export interface ResolvedKey {
  keyId: string;
  accountId: string;
  revoked: boolean;
  /** Epoch ms; null: never expires. */
  expiresAt: number | null;
  scopes: KeyScope[];
}

/** An API key found by its secret, with its account as the same statement read it (undefined: none). */
export interface KeyWithAccount {
  key: ResolvedKey;
  account: AccountRow | undefined;
}

/**
 * The key behind `secret` and its account, in one statement. The authenticator caches both for
 * CREDENTIAL_CACHE_MS; when they lapse, the next request read the key and then the account, two
 * round trips before any of its work (on embedded PGlite, 2-3 ms each on a slow machine).
 */
export async function findKeyWithAccount(db: Queryable, secret: string): Promise<KeyWithAccount | undefined> {
  // The key's columns come as key_*, the account's as they are (a.*: what getAccount returns);
  // no accounts column may be named key_* (it would be taken for the key's).
  const [row] = await db.query<
    Omit<AccountRow, 'id'> & {
      id: string | null;
      key_id: string;
      key_account_id: string;
      key_revoked_at: Date | null;
      key_expires_at: Date | null;
      key_scopes: string[] | null;
    }
  >(
    `SELECT k.id AS key_id, k.account_id AS key_account_id, k.revoked_at AS key_revoked_at,
      k.expires_at AS key_expires_at, k.scopes AS key_scopes, a.*
     FROM api_keys k LEFT JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = $1`,
    [hashApiKey(secret)],
  );
  if (!row) return undefined;
  const { key_id, key_account_id, key_revoked_at, key_expires_at, key_scopes, ...account } = row;
  return {
    key: {
      keyId: key_id,
      accountId: key_account_id,
      revoked: key_revoked_at !== null,
      expiresAt: key_expires_at?.getTime() ?? null,
      scopes: key_scopes ? normaliseScopes(key_scopes) : ALL_SCOPES,
    },
    account: account.id === null ? undefined : (account as AccountRow),
  };
}

export async function touchApiKey(db: Queryable, keyId: string): Promise<void> {
  await db.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [keyId]);
}

/** Requests and credits of one key (null: a dashboard session): the contract's KeyUsageEntry. */
export type KeyUsage = KeyUsageEntry;

/** Requests and credits charged per key over the last `days` days (to `now`), busiest first. */
export async function keyUsage(db: Queryable, accountId: string, days: number, now: Date): Promise<KeyUsage[]> {
  const rows = await db.query<{ api_key_id: string | null; requests: number; credits: number }>(
    `SELECT api_key_id, count(*)::int AS requests, coalesce(sum(credits_charged), 0)::int AS credits
     FROM shorts_requests WHERE account_id = $1 AND created_at > $2 GROUP BY api_key_id
       ORDER BY requests DESC, api_key_id`,
    [accountId, new Date(now.getTime() - days * 86_400_000)],
  );
  return rows.map((r) => ({ keyId: r.api_key_id, requests: r.requests, credits: r.credits }));
}
