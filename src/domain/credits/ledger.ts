// Credits: an append-only ledger plus the balance on the account row, always changed together in
// one transaction. A charge is a single conditional UPDATE, so concurrent charges serialise on the
// row lock and can never overdraw (the CHECK constraint is the last line of defence).
import { MAX_INTEGER, type Database, type Queryable } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import { emitCreditsLow, mayBeLow } from './credit-alerts.ts';
import type { LedgerEntry } from '../../contract/accounts.ts';

export type { LedgerEntry };

/** The most credits an account holds (the balance is a PostgreSQL integer). */
export const MAX_BALANCE = MAX_INTEGER;

export async function grantCredits(
  tx: Queryable,
  accountId: string,
  amount: number,
  note: string | null,
): Promise<number> {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new AppError('VALIDATION_FAILED', 'The amount must be a positive integer.');
  if (amount > MAX_BALANCE)
    throw new AppError('VALIDATION_FAILED', `An account holds at most ${MAX_BALANCE.toLocaleString('en-US')} credits.`);
  const [row] = await tx.query<{ credit_balance: number }>(
    // A grant that lifts the balance to the low-balance threshold or above re-arms the credits.low alert.
    // One that would take it past MAX_BALANCE changes nothing (the sum in bigint: in integer it would fail the
    // statement).
    `UPDATE accounts SET credit_balance = credit_balance + $2,
       credits_low_sent = credits_low_sent AND low_balance_threshold IS NOT NULL
         AND credit_balance + $2 < low_balance_threshold
     WHERE id = $1 AND credit_balance::bigint + $2::bigint <= $3 RETURNING credit_balance`,
    [accountId, amount, MAX_BALANCE],
  );
  if (!row) {
    const [account] = await tx.query<{ credit_balance: number }>('SELECT credit_balance FROM accounts WHERE id = $1', [
      accountId,
    ]);
    if (!account) throw new AppError('NOT_FOUND', 'No such account.');
    // A balance past the column's range is the caller's input error, not a 500.
    throw new AppError(
      'VALIDATION_FAILED',
      `This grant would take the balance (${account.credit_balance}) past ${MAX_BALANCE.toLocaleString('en-US')} ` +
        'credits, the most an account holds.',
    );
  }
  await tx.query(
    `INSERT INTO credit_ledger (account_id, kind, amount, balance_after, note) VALUES ($1, 'grant', $2, $3, $4)`,
    [accountId, amount, row.credit_balance, note],
  );
  return row.credit_balance;
}

// Every statement that takes credits from a balance is written here, once per form: one request
// (`chargeCredits`, and `chargeOneSql` for a statement that also records the request), a group of
// requests settled together (`CHARGE_GROUP_SQL`, group commit in requests/charge-and-record.ts, and
// `chargeAccountGroupSql` when the group is one account's; with their reservations ended,
// `CHARGE_GROUP_RELEASING_SQL`, requests/queued-settlements.ts), and
// an operator's deduction (`deductCredits`). All of them lower the balance with one conditional
// UPDATE under the row lock, never below what reservations hold, and write the ledger entry in the
// same statement.

/**
 * The charge of one request as two CTEs, for a statement that does more in the same breath:
 * `charged` holds the balance after the charge and is empty when the available credits cannot
 * cover it (then nothing is written); `ledger` writes the entry (none for a free request). The
 * arguments name the statement's parameters holding the account, the amount and the request id.
 */
export function chargeOneSql(param: { account: string; amount: string; requestId: string }): string {
  return debitSql(param.account, param.amount, { kind: 'charge', requestId: `${param.requestId}::text`, note: 'NULL' });
}

/**
 * chargeOneSql for a request that holds a reservation (it read upstream): the same UPDATE also ends
 * the reservation, so releasing and charging are one statement instead of a transaction of two
 * (on embedded PGlite each statement is a round trip to the database thread on the critical
 * path of a cold request). The reservation's row is locked first, so a concurrent release of it
 * (an expired reservation swept) is seen; when the credits cannot cover the amount nothing is
 * written and the reservation stays, as with chargeOneSql.
 */
export function chargeReleasingSql(param: { account: string; amount: string; requestId: string }): string {
  const { account, amount, requestId } = param;
  const held = '(SELECT coalesce(sum(credits), 0) FROM held)::integer';
  return `held AS (
    SELECT credits FROM credit_reservations WHERE request_id = ${requestId}::text FOR UPDATE
  ), charged AS (
    UPDATE accounts SET credit_balance = credit_balance - ${amount}::integer,
      credits_reserved = credits_reserved - ${held}
    WHERE id = ${account}::uuid AND credit_balance - credits_reserved + ${held} >= ${amount}::integer
      RETURNING credit_balance, low_balance_threshold
  ), released AS (
    DELETE FROM credit_reservations WHERE request_id = ${requestId}::text AND EXISTS (SELECT 1 FROM charged)
  ), ledger AS (
    INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id, note)
    SELECT ${account}::uuid, 'charge', -${amount}::integer, credit_balance, ${requestId}::text, NULL FROM charged
      WHERE ${amount}::integer > 0
  )`;
}

/** The conditional UPDATE and its ledger entry (the expressions for the entry's request id and note). */
function debitSql(
  account: string,
  amount: string,
  entry: { kind: 'charge' | 'deduct'; requestId: string; note: string },
): string {
  return `charged AS (
    -- Credits reserved for requests in progress are not for spending.
    UPDATE accounts SET credit_balance = credit_balance - ${amount}::integer
    WHERE id = ${account}::uuid AND credit_balance - credits_reserved >= ${amount}::integer
      RETURNING credit_balance, low_balance_threshold
  ), ledger AS (
    INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id, note)
    SELECT ${account}::uuid, '${entry.kind}', -${amount}::integer, credit_balance, ${entry.requestId}, ${entry.note}
      FROM charged WHERE ${amount}::integer > 0
  )`;
}

/**
 * The running total of each account's members in a group, as CTE `running`: `input`'s rows with
 * `run` (the account's charges up to and including this one, in `i` order), against the account
 * as the statement's snapshot shows it (`snap`: read without a lock, see CHARGE_GROUP_SQL).
 * `freed` is an expression over `input` and `snap` for credits that count as available besides
 * the account's own (the group's released reservations, or 0).
 */
export const runningSql = (freed: string) => `snap AS (
    SELECT id, credit_balance, credits_reserved FROM accounts WHERE id = ANY(ARRAY(SELECT account_id FROM input))
  ), running AS (
    SELECT input.*, sum(input.amount) OVER w AS run, snap.credit_balance - snap.credits_reserved + ${freed} AS available
    FROM input JOIN snap ON snap.id = input.account_id
    WINDOW w AS (PARTITION BY input.account_id ORDER BY input.i)
  )`;

/** Per account: what the group charges it (`total`: the longest run its available credits cover, in order). */
export const PREFIX_SQL = `SELECT account_id, coalesce(max(run) FILTER (WHERE run <= available), 0)::integer AS total
  FROM running GROUP BY account_id`;

/**
 * The accepted members as CTE `accepted`: those of the accounts `charged` returned whose running
 * total the account's charge covers, each with the account's balance after its own charge (the
 * UPDATE's balance is the one after the last; `total` above it, the one before the first) and
 * the account's low-balance threshold. Then their ledger entries, in group order.
 */
const ACCEPTED_AND_LEDGER = `accepted AS (
    SELECT running.*, charged.low_balance_threshold,
      charged.credit_balance + charged.total - running.run AS balance_after
    FROM running JOIN charged ON charged.id = running.account_id
    WHERE running.run <= charged.total
  ), ledger AS (
    INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id)
    SELECT account_id, 'charge', -amount, balance_after, request_id FROM accepted WHERE amount > 0 ORDER BY i
  )`;

/**
 * The charge of a group of requests as CTEs over a CTE named `input` (columns `i` = the request's
 * place in the group, `account_id`, `amount`, `request_id`). Per account, the members are charged
 * in order as long as its available credits cover the running total; `accepted` holds them, with
 * `balance_after` (ACCEPTED_AND_LEDGER). The others are not charged: the caller settles them one by
 * one, in order, which answers each exactly (a cheap request behind an unaffordable one included).
 *
 * Each account row is touched once, by one conditional UPDATE with the account's total. An
 * earlier form locked the accounts in one CTE (FOR NO KEY UPDATE) and updated them in another; that
 * UPDATE starts from the statement's snapshot, and when another transaction had changed the account
 * in between it followed the row's update chain while holding the row lock, which deadlocked with
 * the next waiter whenever a third transaction held a KEY SHARE lock on the row (any insert whose
 * foreign key names the account): test/group-deadlock.test.ts. Now the total is worked out from the
 * snapshot's balance, read without a lock (`snap`), and the UPDATE re-checks on the row's newest
 * version that the available credits still cover it. When they do not (another transaction spent
 * some meanwhile), the account is left untouched and none of its members is accepted: the caller
 * settles them one by one. An UPDATE alone holds no lock on the row before it and cannot deadlock on one
 * row; a group of several accounts locks them in id order first (withAccountsLocked below).
 */
export const CHARGE_GROUP_SQL = `${runningSql('0')}, totals AS (${PREFIX_SQL}
  ), charged AS (
    -- Credits reserved for requests in progress are not for spending.
    UPDATE accounts SET credit_balance = accounts.credit_balance - t.total
    FROM totals t
    WHERE accounts.id = t.account_id AND accounts.credit_balance - accounts.credits_reserved >= t.total
    RETURNING accounts.id, accounts.credit_balance, accounts.low_balance_threshold, t.total
  ), ${ACCEPTED_AND_LEDGER}`;

/**
 * CHARGE_GROUP_SQL for a group whose members are all of one account (the usual group: one
 * customer's concurrent calls), all or none: one conditional UPDATE takes the group's total
 * (`total`, the parameter's name) from the account named by `account`, and `accepted` holds every
 * member of `input` with its balance after its own charge, or none when the available credits do
 * not cover the whole total (the caller then settles the group with CHARGE_GROUP_SQL, which takes
 * the longest run they cover). `input` must carry `run`, the member's running total in group order
 * (the caller adds it up), where CHARGE_GROUP_SQL works it out with a window over a snapshot of
 * the account: this form needs neither, and on embedded PGlite the statement cost 15-20 % less for
 * the same group (bench/reading.md).
 */
export function chargeAccountGroupSql(param: { account: string; total: string }): string {
  const { account, total } = param;
  return `charged AS (
    -- Credits reserved for requests in progress are not for spending.
    UPDATE accounts SET credit_balance = credit_balance - ${total}::integer
    WHERE id = ${account}::uuid AND credit_balance - credits_reserved >= ${total}::integer
      RETURNING credit_balance, low_balance_threshold
  ), accepted AS (
    SELECT input.*, charged.low_balance_threshold,
      charged.credit_balance + ${total}::integer - input.run AS balance_after FROM input, charged
  ), ledger AS (
    INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id)
    SELECT account_id, 'charge', -amount, balance_after, request_id FROM accepted WHERE amount > 0 ORDER BY i
  )`;
}

/**
 * CHARGE_GROUP_SQL for requests that end reservations in the same statement (queued webhook
 * requests settled together; before, a transaction of a release, a charge and the record, which on
 * PostgreSQL held the account's row lock across four round trips and on embedded PGlite cost five
 * statements). Besides `input` (the members to charge) it reads a CTE named `held` (`request_id`,
 * `account_id`, `credits`): the reservations of every member of the group, locked by the caller
 * (FOR UPDATE, so a concurrent release of one — an expired reservation swept — is seen).
 *
 * The group decides what settling its members one by one would, in this order: first those it does
 * not charge (failed, free, or settled already: their reservations end whatever the credits), then
 * those to charge, in the group's order. A reservation is its request's own: no member may spend one
 * of a member to charge after it (an earlier form pooled the group's reservations,
 * so a member could spend a later one's, and that one — its price covered by its own reservation —
 * was then refused). So, per account, a member to charge may spend the credits available before
 * the group, the reservations of the members not charged (`uncharged`) and those of the members to
 * charge up to and including itself (`freed`). The members before the first one that cannot be
 * covered are charged (their reservations end with the charge); from that one on, none is: they
 * keep their reservations and the caller settles them one by one, in order, as the one-by-one path
 * would. Each account is updated once; its UPDATE re-checks on the row's newest version that the
 * available credits still cover every charged member (`need`); when they do not (another
 * transaction spent some meanwhile), the account is left untouched (`blocked`), reservations
 * included, and all its members are settled one by one.
 */
export const CHARGE_GROUP_RELEASING_SQL = `uncharged AS (
    SELECT account_id, sum(credits)::integer AS total FROM held
      WHERE request_id <> ALL(ARRAY(SELECT request_id FROM input)) GROUP BY account_id
  ), snap AS (
    SELECT id, credit_balance, credits_reserved FROM accounts WHERE id = ANY(ARRAY(SELECT account_id FROM input))
  ), running AS (
    SELECT input.*, coalesce(h.credits, 0) AS own, sum(input.amount) OVER w AS run,
           coalesce(u.total, 0) + sum(coalesce(h.credits, 0)) OVER w AS freed,
             snap.credit_balance - snap.credits_reserved AS free
    FROM input JOIN snap ON snap.id = input.account_id
      LEFT JOIN held h ON h.request_id = input.request_id LEFT JOIN uncharged u ON u.account_id = input.account_id
    WINDOW w AS (PARTITION BY input.account_id ORDER BY input.i)
  ), prefix AS (
    -- Covered: this member and every one before it to charge (in order) fit.
    SELECT running.*, bool_and(run <= free + freed) OVER w AS covered
    FROM running WINDOW w AS (PARTITION BY account_id ORDER BY i)
  ), totals AS (
    SELECT coalesce(c.account_id, u.account_id) AS account_id, coalesce(c.total, 0) AS total,
      coalesce(c.need, 0) AS need, coalesce(u.total, 0) + coalesce(c.own, 0) AS released
    FROM (
      SELECT account_id, coalesce(max(run) FILTER (WHERE covered), 0)::integer AS total,
        greatest(coalesce(max(run - freed) FILTER (WHERE covered), 0), 0)::integer AS need,
             coalesce(sum(own) FILTER (WHERE covered), 0)::integer AS own
      FROM prefix GROUP BY account_id
    ) c FULL JOIN uncharged u ON u.account_id = c.account_id
  ), charged AS (
    -- Credits reserved for requests in progress are not for spending: only the members' own, in order (above).
    UPDATE accounts SET credit_balance = accounts.credit_balance - t.total,
      credits_reserved = accounts.credits_reserved - t.released
    FROM totals t
    WHERE accounts.id = t.account_id AND accounts.credit_balance - accounts.credits_reserved >= t.need
    RETURNING accounts.id, accounts.credit_balance, accounts.low_balance_threshold, t.total
  ), blocked AS (
    SELECT account_id FROM totals WHERE account_id NOT IN (SELECT id FROM charged)
  ), ${ACCEPTED_AND_LEDGER}, ended AS (
    DELETE FROM credit_reservations WHERE request_id = ANY(ARRAY(
      SELECT request_id FROM held WHERE account_id IN (SELECT id FROM charged)
        AND (request_id <> ALL(ARRAY(SELECT request_id FROM input))
          OR request_id IN (SELECT request_id FROM accepted))))
  )`;

/**
 * Runs a group statement (the two forms above, or a transaction around one) so that two instances'
 * groups cannot deadlock on PostgreSQL: a group of several accounts has them locked in id order
 * first, by a statement of its own in the same transaction (FOR NO KEY UPDATE, the UPDATE's own
 * lock: FOR UPDATE would also block inserts whose foreign key names the account), so two groups
 * sharing accounts take them in the same order; the group statement's snapshot is then taken with
 * the rows already held, and its UPDATE finds their newest versions. One account, or PGlite (one
 * connection, statements one at a time): the statement alone.
 */
export async function withAccountsLocked<T>(
  db: Database,
  accountIds: Iterable<string>,
  statement: (q: Queryable) => Promise<T>,
): Promise<T> {
  const ids = new Set(accountIds);
  if (db.kind !== 'postgres' || ids.size < 2) return statement(db);
  return db.transaction(async (tx) => {
    await lockAccounts(db, tx, ids);
    return statement(tx);
  });
}

/** withAccountsLocked's first statement, for a caller already in a transaction (`db` tells the store). */
export async function lockAccounts(
  db: Pick<Database, 'kind'>,
  tx: Queryable,
  accountIds: Iterable<string>,
): Promise<void> {
  const ids = [...new Set(accountIds)];
  if (db.kind !== 'postgres' || ids.length < 2) return;
  await tx.query('SELECT id FROM accounts WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE', [ids]);
}

/**
 * Take `amount` credits for a request. Throws INSUFFICIENT_CREDITS (nothing changed) when the balance
 * cannot cover it. Must run inside the transaction that records the request's outcome.
 */
export async function chargeCredits(
  tx: Queryable,
  accountId: string,
  amount: number,
  requestId: string,
): Promise<number> {
  if (amount === 0) return getBalance(tx, accountId);
  const [row] = await tx.query<{ credit_balance: number; low_balance_threshold: number | null }>(
    `WITH ${chargeOneSql({ account: '$1', amount: '$2', requestId: '$3' })} SELECT credit_balance, low_balance_threshold
      FROM charged`,
    [accountId, amount, requestId],
  );
  if (!row) throw await insufficientCredits(tx, accountId, amount);
  if (mayBeLow(row.credit_balance, row.low_balance_threshold)) await emitCreditsLow(tx, accountId, requestId);
  return row.credit_balance;
}

/**
 * An operator's deduction (kind 'deduct', with the reason as its note): the same conditional UPDATE
 * as a charge. Returns the balance after it, or null (nothing changed) when the available credits
 * cannot cover it.
 */
export async function deductCredits(
  tx: Queryable,
  accountId: string,
  amount: number,
  note: string,
): Promise<number | null> {
  const [row] = await tx.query<{ credit_balance: number; low_balance_threshold: number | null }>(
    `WITH ${debitSql('$1', '$2', { kind: 'deduct', requestId: 'NULL', note: '$3::text' })}
      SELECT credit_balance, low_balance_threshold FROM charged`,
    [accountId, amount, note],
  );
  if (!row) return null;
  if (mayBeLow(row.credit_balance, row.low_balance_threshold)) await emitCreditsLow(tx, accountId, null);
  return row.credit_balance;
}

/** The error for a charge the balance could not cover, quoting the balance as it is now. */
export async function insufficientCredits(db: Queryable, accountId: string, amount: number): Promise<AppError> {
  const [row] = await db.query<{ credit_balance: number; credits_reserved: number }>(
    'SELECT credit_balance, credits_reserved FROM accounts WHERE id = $1',
    [accountId],
  );
  const balance = row?.credit_balance ?? 0;
  const held = row?.credits_reserved ?? 0;
  return new AppError(
    'INSUFFICIENT_CREDITS',
    `This result costs ${amount} credit${amount === 1 ? '' : 's'}; the balance ` +
      `is ${balance}${held > 0 ? `, of which ${held} are held by requests in progress` : ''}.`,
  );
}

export async function getBalance(db: Queryable, accountId: string): Promise<number> {
  const [row] = await db.query<{ credit_balance: number }>('SELECT credit_balance FROM accounts WHERE id = $1', [
    accountId,
  ]);
  return row?.credit_balance ?? 0;
}

export async function listLedger(db: Queryable, accountId: string, limit: number): Promise<LedgerEntry[]> {
  const rows = await db.query<{
    id: number | string;
    kind: LedgerEntry['kind'];
    amount: number;
    balance_after: number;
    request_id: string | null;
    note: string | null;
    created_at: Date;
  }>(
    'SELECT id, kind, amount, balance_after, request_id, note, created_at FROM credit_ledger ' +
      'WHERE account_id = $1 ORDER BY id DESC LIMIT $2',
    [accountId, limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    amount: r.amount,
    balanceAfter: r.balance_after,
    requestId: r.request_id,
    note: r.note,
    createdAt: r.created_at.toISOString(),
  }));
}
