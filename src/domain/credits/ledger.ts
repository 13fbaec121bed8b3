// Credits: an append-only ledger plus the balance on the account row, always changed together in
// one transaction. A charge is a single conditional UPDATE, so concurrent charges serialise on the
// row lock and can never overdraw (the CHECK constraint is the last line of defence).
import type { Queryable } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import { emitCreditsLow, mayBeLow } from './credit-alerts.ts';
import type { LedgerEntry } from '../../contract/accounts.ts';

export type { LedgerEntry };

export async function grantCredits(tx: Queryable, accountId: string, amount: number, note: string | null): Promise<number> {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new AppError('VALIDATION_FAILED', 'The amount must be a positive integer.');
  const [row] = await tx.query<{ credit_balance: number }>(
    // A grant that lifts the balance to the low-balance threshold or above re-arms the credits.low alert.
    `UPDATE accounts SET credit_balance = credit_balance + $2,
       credits_low_sent = credits_low_sent AND low_balance_threshold IS NOT NULL AND credit_balance + $2 < low_balance_threshold
     WHERE id = $1 RETURNING credit_balance`,
    [accountId, amount],
  );
  if (!row) throw new AppError('NOT_FOUND', 'No such account.');
  await tx.query(
    `INSERT INTO credit_ledger (account_id, kind, amount, balance_after, note) VALUES ($1, 'grant', $2, $3, $4)`,
    [accountId, amount, row.credit_balance, note],
  );
  return row.credit_balance;
}

/**
 * Take `amount` credits for a request. Throws INSUFFICIENT_CREDITS (nothing changed) when the balance
 * cannot cover it. Must run inside the transaction that records the request's outcome.
 */
export async function chargeCredits(tx: Queryable, accountId: string, amount: number, requestId: string): Promise<number> {
  if (amount === 0) return getBalance(tx, accountId);
  const [row] = await tx.query<{ credit_balance: number; low_balance_threshold: number | null }>(
    // Credits reserved for requests in progress are not for spending.
    'UPDATE accounts SET credit_balance = credit_balance - $2 WHERE id = $1 AND credit_balance - credits_reserved >= $2 RETURNING credit_balance, low_balance_threshold',
    [accountId, amount],
  );
  if (!row) throw await insufficientCredits(tx, accountId, amount);
  await tx.query(
    `INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id) VALUES ($1, 'charge', $2, $3, $4)`,
    [accountId, -amount, row.credit_balance, requestId],
  );
  if (mayBeLow(row.credit_balance, row.low_balance_threshold)) await emitCreditsLow(tx, accountId, requestId);
  return row.credit_balance;
}

/** The error for a charge the balance could not cover, quoting the balance as it is now. */
export async function insufficientCredits(db: Queryable, accountId: string, amount: number): Promise<AppError> {
  const [row] = await db.query<{ credit_balance: number; credits_reserved: number }>('SELECT credit_balance, credits_reserved FROM accounts WHERE id = $1', [accountId]);
  const balance = row?.credit_balance ?? 0;
  const held = row?.credits_reserved ?? 0;
  return new AppError('INSUFFICIENT_CREDITS', `This result costs ${amount} credit${amount === 1 ? '' : 's'}; the balance is ${balance}${held > 0 ? `, of which ${held} are held by requests in progress` : ''}.`);
}

export async function getBalance(db: Queryable, accountId: string): Promise<number> {
  const [row] = await db.query<{ credit_balance: number }>('SELECT credit_balance FROM accounts WHERE id = $1', [accountId]);
  return row?.credit_balance ?? 0;
}

export async function listLedger(db: Queryable, accountId: string, limit: number): Promise<LedgerEntry[]> {
  const rows = await db.query<{ id: number | string; kind: LedgerEntry['kind']; amount: number; balance_after: number; request_id: string | null; note: string | null; created_at: Date }>(
    'SELECT id, kind, amount, balance_after, request_id, note, created_at FROM credit_ledger WHERE account_id = $1 ORDER BY id DESC LIMIT $2',
    [accountId, limit],
  );
  return rows.map((r) => ({ id: Number(r.id), kind: r.kind, amount: r.amount, balanceAfter: r.balance_after, requestId: r.request_id, note: r.note, createdAt: r.created_at.toISOString() }));
}
