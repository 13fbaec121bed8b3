// Operator use cases on users: list and search, create, disable and enable, change role, grant or
// deduct credits, set and reset limits, and a user's activity. Every change runs in one
// transaction with its audit entry (audit.ts): an action that fails changes nothing.
import { MAX_INTEGER, type Database, type Queryable, type Transaction } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import {
  effectiveRateLimits,
  insertAccount,
  normaliseEmail,
  prepareAccount,
  type AccountRole,
  type AccountRow,
  type NewAccount,
  type RateLimits,
} from '../accounts/accounts.ts';
import { deductCredits, grantCredits } from '../credits/ledger.ts';
import { writeAudit, type Actor } from './audit.ts';
import type { User } from '../../contract/operator.ts';
import type { UserDelivery } from '../../contract/operator.ts';
import { attemptOf, type DeliveryRow } from '../webhooks/delivery-log.ts';

/** The API's User shape (contract/operator.ts). */
export type UserView = User;

export function userView(row: AccountRow, defaults: RateLimits): UserView {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    credits: row.credit_balance,
    disabledAt: row.disabled_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    limitOverrides: {
      perMinute: row.rate_limit_per_minute,
      perHour: row.rate_limit_per_hour,
      perDay: row.rate_limit_per_day,
    },
    rateLimits: effectiveRateLimits(row, defaults),
  };
}

/** The audited part of a user's state. */
function snapshot(row: AccountRow) {
  return {
    email: row.email,
    role: row.role,
    credits: row.credit_balance,
    disabled: row.disabled_at !== null,
    limits: { perMinute: row.rate_limit_per_minute, perHour: row.rate_limit_per_hour, perDay: row.rate_limit_per_day },
  };
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function searchUsers(
  db: Queryable,
  query: { search?: string; limit: number; offset: number },
): Promise<{ users: AccountRow[]; total: number }> {
  const pattern = query.search
    ? `%${query.search
        .trim()
        .toLowerCase()
        .replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    : null;
  const where = '($1::text IS NULL OR email LIKE $1 OR id::text = $2)';
  const params = [pattern, query.search?.trim().toLowerCase() ?? ''];
  const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM accounts WHERE ${where}`, params);
  const users = await db.query<AccountRow>(
    `SELECT * FROM accounts WHERE ${where} ORDER BY created_at DESC, email LIMIT $3 OFFSET $4`,
    [...params, query.limit, query.offset],
  );
  return { users, total: count?.n ?? 0 };
}

/** A user by id or (for the CLI) by email; NOT_FOUND otherwise. */
export async function findUser(db: Queryable, idOrEmail: string, forUpdate = false): Promise<AccountRow> {
  const byId = UUID_PATTERN.test(idOrEmail);
  const [row] = await db.query<AccountRow>(
    `SELECT * FROM accounts WHERE ${byId ? 'id = $1' : 'email = $1'}${forUpdate ? ' FOR UPDATE' : ''}`,
    [byId ? idOrEmail.toLowerCase() : normaliseEmail(idOrEmail)],
  );
  if (!row)
    throw new AppError(
      'NOT_FOUND',
      `No user ${byId ? 'with id' : 'with email'} ${byId ? idOrEmail : normaliseEmail(idOrEmail)}.`,
    );
  return row;
}

async function changeUser(
  db: Database,
  actor: Actor,
  user: string,
  action: string,
  reason: string | null,
  change: (tx: Transaction, row: AccountRow) => Promise<AccountRow>,
): Promise<AccountRow> {
  return db.transaction(async (tx) => {
    const before = await findUser(tx, user, true);
    const after = await change(tx, before);
    await writeAudit(tx, actor, {
      action,
      targetAccountId: before.id,
      target: before.email,
      reason,
      before: snapshot(before),
      after: snapshot(after),
    });
    return after;
  });
}

export async function createUser(db: Database, actor: Actor, input: NewAccount): Promise<AccountRow> {
  const prepared = await prepareAccount(input);
  return db.transaction(async (tx) => {
    const row = await insertAccount(tx, prepared, 'initial grant by an operator');
    await writeAudit(tx, actor, {
      action: 'user.create',
      targetAccountId: row.id,
      target: row.email,
      before: null,
      after: snapshot(row),
    });
    return row;
  });
}

export async function setUserDisabled(
  db: Database,
  actor: Actor,
  user: string,
  disabled: boolean,
  reason: string | null,
): Promise<AccountRow> {
  return changeUser(db, actor, user, disabled ? 'user.disable' : 'user.enable', reason, async (tx, row) => {
    if (disabled && actor.accountId === row.id)
      throw new AppError('CONFLICT', 'Operators cannot disable their own account.');
    const [updated] = await tx.query<AccountRow>(
      `UPDATE accounts SET disabled_at = ${disabled ? 'coalesce(disabled_at, now())' : 'NULL'} WHERE id = $1
        RETURNING *`,
      [row.id],
    );
    return updated!;
  });
}

export async function setUserRole(db: Database, actor: Actor, user: string, role: AccountRole): Promise<AccountRow> {
  if (role !== 'customer' && role !== 'operator')
    throw new AppError('VALIDATION_FAILED', 'role must be "customer" or "operator".');
  return changeUser(db, actor, user, 'user.role', null, async (tx, row) => {
    if (role !== 'operator' && actor.accountId === row.id)
      throw new AppError('CONFLICT', 'Operators cannot remove their own operator role.');
    const [updated] = await tx.query<AccountRow>('UPDATE accounts SET role = $2 WHERE id = $1 RETURNING *', [
      row.id,
      role,
    ]);
    return updated!;
  });
}

export interface CreditAdjustment {
  direction: 'grant' | 'deduct';
  amount: number;
  reason: string;
}

/** Grant or deduct credits with a reason: one ledger entry and one audit entry, or nothing at all. */
export async function adjustCredits(
  db: Database,
  actor: Actor,
  user: string,
  adjustment: CreditAdjustment,
): Promise<AccountRow> {
  const { direction, amount } = adjustment;
  const reason = adjustment.reason.trim();
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new AppError('VALIDATION_FAILED', 'amount must be a positive whole number.');
  if (!reason)
    throw new AppError('VALIDATION_FAILED', 'A reason is required; it is written to the ledger and the audit log.');
  if (direction !== 'grant' && direction !== 'deduct')
    throw new AppError('VALIDATION_FAILED', 'direction must be "grant" or "deduct".');
  return changeUser(db, actor, user, `credits.${direction}`, reason, async (tx, row) => {
    if (direction === 'grant') {
      const balance = await grantCredits(tx, row.id, amount, reason);
      return { ...row, credit_balance: balance };
    }
    // Credits reserved by requests in progress (docs/quota.md) are committed to them: not deductible.
    const available = row.credit_balance - row.credits_reserved;
    if (available < amount) {
      throw new AppError(
        'CONFLICT',
        `Cannot deduct ${amount} credit${amount === 1 ? '' : 's'} from ${row.email}: ` +
          `the balance is ${row.credit_balance}${
            row.credits_reserved > 0 ? `, ${row.credits_reserved} of them reserved by requests in progress` : ''
          }, and a balance never goes below 0. Nothing was changed.`,
      );
    }
    const balance = await deductCredits(tx, row.id, amount, reason);
    if (balance === null)
      throw new AppError(
        'CONFLICT',
        `Cannot deduct ${amount} credits from ${row.email} now: requests in progress hold them. Nothing was changed.`,
      );
    return { ...row, credit_balance: balance };
  });
}

export type LimitChange = Partial<Record<keyof RateLimits, number | null>>;

/** The largest rate limit an account can be given (the columns are PostgreSQL integers). */
export const MAX_LIMIT = MAX_INTEGER;

/** Set some windows (a number) or restore their default (null); reset = all three null. */
export async function setUserLimits(
  db: Database,
  actor: Actor,
  user: string,
  limits: LimitChange,
): Promise<AccountRow> {
  const given = Object.entries(limits).filter(([, v]) => v !== undefined);
  if (given.length === 0)
    throw new AppError(
      'VALIDATION_FAILED',
      'Give at least one of perMinute, perHour, perDay (a positive whole number, or null for the default).',
    );
  for (const [name, value] of given) {
    // The limits are PostgreSQL integers: a larger one answered 500.
    if (value !== null && (!Number.isSafeInteger(value) || value! < 1 || value! > MAX_LIMIT))
      throw new AppError('VALIDATION_FAILED', `${name} must be a whole number from 1 to ${MAX_LIMIT}, or null.`);
  }
  const reset = given.length === 3 && given.every(([, v]) => v === null);
  return changeUser(db, actor, user, reset ? 'limits.reset' : 'limits.set', null, async (tx, row) => {
    const [updated] = await tx.query<AccountRow>(
      `UPDATE accounts SET
         rate_limit_per_minute = CASE WHEN $2 THEN $3::int ELSE rate_limit_per_minute END,
         rate_limit_per_hour = CASE WHEN $4 THEN $5::int ELSE rate_limit_per_hour END,
         rate_limit_per_day = CASE WHEN $6 THEN $7::int ELSE rate_limit_per_day END
       WHERE id = $1 RETURNING *`,
      [
        row.id,
        limits.perMinute !== undefined,
        limits.perMinute ?? null,
        limits.perHour !== undefined,
        limits.perHour ?? null,
        limits.perDay !== undefined,
        limits.perDay ?? null,
      ],
    );
    return updated!;
  });
}

/** The API's UserDelivery shape (contract/operator.ts). */
export type DeliveryView = UserDelivery;

/**
 * A user's webhook delivery attempts, newest first: its requests', its batch summaries' and its
 * account events' (joined to the requests, the view left the other two out).
 */
export async function listUserDeliveries(db: Queryable, accountId: string, limit: number): Promise<DeliveryView[]> {
  const rows = await db.query<DeliveryRow & { request_id: string | null }>(
    'SELECT d.* FROM webhook_deliveries d WHERE d.account_id = $1 ORDER BY d.id DESC LIMIT $2',
    [accountId, limit],
  );
  return rows.map((d) => ({ ...attemptOf(d), requestId: d.request_id }));
}
