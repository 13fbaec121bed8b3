// API key lifecycle: create (secret returned once), list (never secrets), revoke, resolve by secret.
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import { generateApiKey, hashApiKey } from './api-key-format.ts';
import { ALL_SCOPES, normaliseScopes, type KeyScope } from './scopes.ts';
import type { ApiKey } from '../../contract/accounts.ts';

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
  scopes: string[] | null;
}

const MAX_ACTIVE_KEYS = 100;

function toView(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
    scopes: row.scopes ? normaliseScopes(row.scopes) : ALL_SCOPES,
  };
}

export async function createApiKey(db: Queryable, accountId: string, name: string, scopes: readonly string[] = ALL_SCOPES): Promise<ApiKeyView & { key: string }> {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw new AppError('VALIDATION_FAILED', 'name must not be blank.');
  const granted = normaliseScopes(scopes);
  if (granted.length === 0) throw new AppError('VALIDATION_FAILED', `scopes must name at least one of ${ALL_SCOPES.join(', ')}.`);
  const [{ n } = { n: 0 }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL', [accountId]);
  if (n >= MAX_ACTIVE_KEYS) throw new AppError('CONFLICT', `An account may hold at most ${MAX_ACTIVE_KEYS} active keys; revoke one first.`);
  const generated = generateApiKey();
  const [row] = await db.query<ApiKeyRow>(
    'INSERT INTO api_keys (id, account_id, name, prefix, key_hash, scopes) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
    [randomUUID(), accountId, trimmed, generated.prefix, generated.hash, granted],
  );
  return { ...toView(row!), key: generated.key };
}

export async function listApiKeys(db: Queryable, accountId: string): Promise<ApiKeyView[]> {
  const rows = await db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC, id', [accountId]);
  return rows.map(toView);
}

/** Revoking twice is harmless and keeps the first revocation time. Another account's key is "not found". */
export async function revokeApiKey(db: Queryable, accountId: string, keyId: string): Promise<ApiKeyView & { keyHash: string }> {
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
  scopes: KeyScope[];
}

export async function findKeyBySecret(db: Queryable, secret: string): Promise<ResolvedKey | undefined> {
  const [row] = await db.query<{ id: string; account_id: string; revoked_at: Date | null; scopes: string[] | null }>(
    'SELECT id, account_id, revoked_at, scopes FROM api_keys WHERE key_hash = $1',
    [hashApiKey(secret)],
  );
  return row ? { keyId: row.id, accountId: row.account_id, revoked: row.revoked_at !== null, scopes: row.scopes ? normaliseScopes(row.scopes) : ALL_SCOPES } : undefined;
}

export async function touchApiKey(db: Queryable, keyId: string): Promise<void> {
  await db.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [keyId]);
}
