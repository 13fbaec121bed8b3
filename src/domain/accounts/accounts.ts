// Accounts (one per user): creation by the operator, lookup for login and for GET /accounts.
import { randomUUID } from 'node:crypto';
import type { Database, Queryable, Transaction } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import { assertStrongPassword, hashPassword } from './passwords.ts';
import { grantCredits } from '../credits/ledger.ts';
import { createWebhookSecret } from '../webhooks/webhook-secrets.ts';
import type { RateLimits } from '../../contract/common.ts';

export interface AccountRow {
  id: string;
  email: string;
  password_hash: string;
  role: AccountRole;
  credit_balance: number;
  credits_reserved: number;
  rate_limit_per_minute: number | null;
  rate_limit_per_hour: number | null;
  rate_limit_per_day: number | null;
  disabled_at: Date | null;
  created_at: Date;
  /** The credits.low alert (credit-alerts.ts); NULL: off. */
  low_balance_threshold: number | null;
  events_webhook_url: string | null;
  /** The default form of its shorts.completed webhooks (result-payload.ts); NULL: full. */
  webhook_payload: 'full' | 'thin' | null;
}

export type AccountRole = 'customer' | 'operator';

/** The per-minute/hour/day limits: the API's RateLimits shape (src/contract/common.ts). */
export type { RateLimits };

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface NewAccount {
  email: string;
  password: string;
  credits?: number;
  role?: AccountRole;
}

/** Checks the input and hashes the password: the slow part, done before any transaction. */
export async function prepareAccount(
  input: NewAccount,
): Promise<{ email: string; passwordHash: string; credits: number; role: AccountRole }> {
  const email = normaliseEmail(input.email);
  if (!EMAIL_PATTERN.test(email) || email.length > 254)
    throw new AppError('VALIDATION_FAILED', `"${input.email}" is not a valid email address.`);
  assertStrongPassword(input.password, email);
  const credits = input.credits ?? 0;
  if (!Number.isSafeInteger(credits) || credits < 0)
    throw new AppError('VALIDATION_FAILED', 'credits must be a non-negative integer.');
  return { email, passwordHash: await hashPassword(input.password), credits, role: input.role ?? 'customer' };
}

/** Inserts a prepared account (with its webhook secret and starting grant) inside the caller's transaction. */
export async function insertAccount(
  tx: Transaction,
  account: Awaited<ReturnType<typeof prepareAccount>>,
  grantNote = 'initial grant',
): Promise<AccountRow> {
  // ON CONFLICT: two concurrent creations of one email answer CONFLICT, not a unique violation (500).
  const [row] = await tx.query<AccountRow>(
    'INSERT INTO accounts (id, email, password_hash, role) VALUES ($1, $2, $3, $4) ON CONFLICT (email) DO NOTHING ' +
      'RETURNING *',
    [randomUUID(), account.email, account.passwordHash, account.role],
  );
  if (!row) throw new AppError('CONFLICT', `An account with email ${account.email} already exists.`);
  await createWebhookSecret(tx, row!.id, null);
  if (account.credits > 0) await grantCredits(tx, row!.id, account.credits, grantNote);
  return { ...row!, credit_balance: account.credits, credits_reserved: 0 };
}

export async function createAccount(db: Database, input: NewAccount): Promise<AccountRow> {
  const prepared = await prepareAccount(input);
  return db.transaction((tx) => insertAccount(tx, prepared));
}

export async function findAccountByEmail(db: Queryable, email: string): Promise<AccountRow | undefined> {
  const [row] = await db.query<AccountRow>('SELECT * FROM accounts WHERE email = $1', [normaliseEmail(email)]);
  return row;
}

export async function getAccount(db: Queryable, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.query<AccountRow>('SELECT * FROM accounts WHERE id = $1', [id]);
  return row;
}

export function effectiveRateLimits(
  account: Pick<AccountRow, 'rate_limit_per_minute' | 'rate_limit_per_hour' | 'rate_limit_per_day'>,
  defaults: RateLimits,
): RateLimits {
  return {
    perMinute: account.rate_limit_per_minute ?? defaults.perMinute,
    perHour: account.rate_limit_per_hour ?? defaults.perHour,
    perDay: account.rate_limit_per_day ?? defaults.perDay,
  };
}
