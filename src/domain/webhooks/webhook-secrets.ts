// Per-account Standard Webhooks signing secrets. Rotation keeps the previous secret signing
// until its expiry, so receivers can switch over without dropping deliveries.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from '../../infra/db/database.ts';
import type { WebhookSecret } from '../../contract/accounts.ts';

export type { WebhookSecret };

export function generateWebhookSecret(): string {
  return 'whsec_' + randomBytes(32).toString('base64');
}

/**
 * At most two secrets sign at any time (docs/spec.md, security commitments): the new one and the one it replaces,
 * which keeps signing until previousExpiresAt. Older ones (still in an earlier overlap) stop at once, so rapid
 * rotation cannot grow the signature header.
 */
export async function createWebhookSecret(
  tx: Queryable,
  accountId: string,
  previousExpiresAt: Date | null,
  now = new Date(),
): Promise<WebhookSecret> {
  if (previousExpiresAt) {
    // Serialises concurrent rotations of one account.
    await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
    const [current] = await tx.query<{ id: string }>(
      'SELECT id FROM webhook_secrets WHERE account_id = $1 AND (expires_at IS NULL OR expires_at > $2) ' +
        'ORDER BY created_at DESC, id LIMIT 1',
      [accountId, now],
    );
    await tx.query(
      'UPDATE webhook_secrets SET expires_at = $2 WHERE account_id = $1 AND id IS DISTINCT FROM $3 ' +
        'AND (expires_at IS NULL OR expires_at > $2)',
      [accountId, now, current?.id ?? null],
    );
    if (current)
      await tx.query(
        'UPDATE webhook_secrets SET expires_at = $2 WHERE id = $1 AND (expires_at IS NULL OR expires_at > $2)',
        [current.id, previousExpiresAt],
      );
  }
  const secret = generateWebhookSecret();
  const [row] = await tx.query<{ created_at: Date }>(
    'INSERT INTO webhook_secrets (id, account_id, secret) VALUES ($1, $2, $3) RETURNING created_at',
    [randomUUID(), accountId, secret],
  );
  return { secret, createdAt: row!.created_at.toISOString(), expiresAt: null };
}

/** Which secrets still sign, and in what order (the current one first), as SQL over webhook_secrets. */
const SIGNING = (account: string, at: string) =>
  `FROM webhook_secrets WHERE account_id = ${account} AND (expires_at IS NULL OR expires_at > ${at})`;
const SIGNING_ORDER = 'created_at DESC, id';

/** Secrets that still sign: the current one first, then those in their overlap period. */
export async function activeWebhookSecrets(
  db: Queryable,
  accountId: string,
  now = new Date(),
): Promise<WebhookSecret[]> {
  const rows = await db.query<{ secret: string; created_at: Date; expires_at: Date | null }>(
    `SELECT secret, created_at, expires_at ${SIGNING('$1', '$2')} ORDER BY ${SIGNING_ORDER}`,
    [accountId, now],
  );
  return rows.map((r) => ({
    secret: r.secret,
    createdAt: r.created_at.toISOString(),
    expiresAt: r.expires_at?.toISOString() ?? null,
  }));
}

/**
 * The signing secrets of the account named by the SQL expression `account`, at `at`, as a json
 * array in signing order: for a statement that reads them with what they sign.
 */
export function signingSecretsSql(account: string, at: string): string {
  return `coalesce((SELECT json_agg(secret ORDER BY ${SIGNING_ORDER}) ${SIGNING(account, at)}), '[]'::json)`;
}
