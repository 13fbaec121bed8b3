// Onboarding without a shell. SIGNUP=invite: an operator invites an email and passes on a link
// with a one-time token (only its SHA-256 is stored; it expires); whoever opens it sets a password
// and gets the account. SIGNUP=open: anyone signs up; the configured starting credits go once per
// mailbox.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import {
  insertAccount,
  normaliseEmail,
  prepareAccount,
  type AccountRole,
  type AccountRow,
} from '../accounts/accounts.ts';
import { writeAudit, type Actor } from './audit.ts';
import { grantCredits, MAX_BALANCE } from '../credits/ledger.ts';
import { mailboxKey } from '../accounts/mailbox.ts';
import type { RateLimiter } from '../../infra/ratelimit/rate-limiter.ts';
import type { Invitation } from '../../contract/operator.ts';

export type SignupMode = 'off' | 'invite' | 'open';

const TOKEN_PREFIX = 'csinv_';
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The API's Invitation shape (contract/operator.ts). */
export type InvitationView = Invitation;

interface InvitationRow {
  id: string;
  email: string;
  credits: number;
  role: AccountRole;
  created_by: string;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
}

function view(row: InvitationRow): InvitationView {
  return {
    id: row.id,
    email: row.email,
    credits: row.credits,
    role: row.role,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    acceptedAt: row.accepted_at?.toISOString() ?? null,
  };
}

export async function createInvitation(
  db: Database,
  actor: Actor,
  input: { email: string; credits?: number; role?: AccountRole },
  settings: { mode: SignupMode; ttlHours: number; now?: Date },
): Promise<InvitationView & { token: string }> {
  if (settings.mode === 'off')
    throw new AppError(
      'FORBIDDEN',
      'Invitations are switched off (SIGNUP=off); set SIGNUP=invite or SIGNUP=open, or create the user directly.',
    );
  const email = normaliseEmail(input.email);
  if (!EMAIL_PATTERN.test(email) || email.length > 254)
    throw new AppError('VALIDATION_FAILED', `"${input.email}" is not a valid email address.`);
  const credits = input.credits ?? 0;
  if (!Number.isSafeInteger(credits) || credits < 0)
    throw new AppError('VALIDATION_FAILED', 'credits must be a non-negative whole number.');
  // The API's schema says so too; the CLI on DATA_DIR comes here directly and must meet this error, not a database one.
  if (credits > MAX_BALANCE)
    throw new AppError('VALIDATION_FAILED', `credits must be at most ${MAX_BALANCE.toLocaleString('en-US')}.`);
  const role = input.role ?? 'customer';
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const now = settings.now ?? new Date();
  const expiresAt = new Date(now.getTime() + settings.ttlHours * 3_600_000);
  return db.transaction(async (tx) => {
    const existing = await tx.query('SELECT 1 FROM accounts WHERE email = $1', [email]);
    if (existing.length > 0) throw new AppError('CONFLICT', `An account with email ${email} already exists.`);
    const [row] = await tx.query<InvitationRow>(
      'INSERT INTO invitations (id, email, token_hash, credits, role, created_by, created_at, expires_at) ' +
        'VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *',
      [randomUUID(), email, hashToken(token), credits, role, actor.label, now, expiresAt],
    );
    await writeAudit(tx, actor, {
      action: 'invitation.create',
      target: email,
      before: null,
      after: { email, credits, role, expiresAt: expiresAt.toISOString() },
    });
    return { ...view(row!), token };
  });
}

export async function listInvitations(db: Database, limit: number): Promise<InvitationView[]> {
  return (await db.query<InvitationRow>('SELECT * FROM invitations ORDER BY created_at DESC LIMIT $1', [limit])).map(
    view,
  );
}

const INVALID_INVITATION =
  'This invitation link is not valid: it was already used, has expired, or was mistyped. ' +
  'Ask an operator for a new one.';

/** Accept an invitation: the token is spent and the account created in one transaction. */
export async function acceptInvitation(
  db: Database,
  input: { token: string; password: string },
  now = new Date(),
): Promise<AccountRow> {
  if (!input.token.startsWith(TOKEN_PREFIX)) throw new AppError('NOT_FOUND', INVALID_INVITATION);
  const hash = hashToken(input.token);
  const [found] = await db.query<InvitationRow>('SELECT * FROM invitations WHERE token_hash = $1', [hash]);
  if (!found || found.accepted_at || found.expires_at <= now) throw new AppError('NOT_FOUND', INVALID_INVITATION);
  const prepared = await prepareAccount({
    email: found.email,
    password: input.password,
    credits: found.credits,
    role: found.role,
  });
  return db.transaction(async (tx) => {
    // Spend the token first: of two acceptances racing, one updates the row and the other finds none.
    const [spent] = await tx.query<InvitationRow>(
      'UPDATE invitations SET accepted_at = $2 WHERE token_hash = $1 AND accepted_at IS NULL ' +
        'AND expires_at > $2 RETURNING *',
      [hash, now],
    );
    if (!spent) throw new AppError('NOT_FOUND', INVALID_INVITATION);
    const account = await insertAccount(tx, prepared, 'invitation grant');
    await tx.query('UPDATE invitations SET account_id = $2 WHERE id = $1', [spent.id, account.id]);
    await writeAudit(
      tx,
      { label: account.email, accountId: account.id },
      {
        action: 'invitation.accept',
        targetAccountId: account.id,
        target: account.email,
        before: null,
        after: { email: account.email, credits: account.credit_balance, role: account.role },
      },
    );
    return account;
  });
}

/** Sign-ups of one mailbox in a UTC day; beyond, a sign-up makes nothing (and answers the same). */
export const SIGNUPS_PER_MAILBOX_PER_DAY = 3;

/**
 * SIGNUP=open: a new customer. The starting credits go to the first account of a mailbox (mailbox.ts), so
 * x+1@…, X@….com. and a look-alike in another script get no second grant. An email that has an account already
 * changes nothing (its owner is not touched and gets nothing) and the caller is answered the same way, so
 * sign-up does not say which emails have accounts. Resolves to the new account, or null when none was made.
 */
export async function signUp(
  deps: { db: Database; rateLimiter: RateLimiter },
  input: { email: string; password: string },
  settings: { mode: SignupMode; credits: number },
): Promise<AccountRow | null> {
  if (settings.mode !== 'open')
    throw new AppError(
      'FORBIDDEN',
      settings.mode === 'invite'
        ? 'Sign-up is by invitation only; ask an operator for an invitation.'
        : 'Sign-up is switched off; ask an operator for an account.',
    );
  // Checked and hashed whether or not the email has an account: both paths cost the hash.
  const prepared = await prepareAccount({ email: input.email, password: input.password, role: 'customer' });
  const mailbox = mailboxKey(prepared.email);
  const today = await deps.rateLimiter.consume(`signup:mailbox:${mailbox}`, [
    { name: 'day', limit: SIGNUPS_PER_MAILBOX_PER_DAY, seconds: 86_400 },
  ]);
  if (!today.allowed) return null;
  return deps.db.transaction(async (tx) => {
    let account: AccountRow;
    try {
      account = await insertAccount(tx, prepared);
    } catch (error) {
      if (error instanceof AppError && error.code === 'CONFLICT') return null;
      throw error;
    }
    const [first] = await tx.query(
      'INSERT INTO signup_grants (mailbox, account_id) VALUES ($1, $2) ON CONFLICT (mailbox) DO NOTHING RETURNING 1',
      [mailbox, account.id],
    );
    if (!first || settings.credits <= 0) return account;
    const balance = await grantCredits(tx, account.id, settings.credits, 'sign-up grant');
    return { ...account, credit_balance: balance };
  });
}
