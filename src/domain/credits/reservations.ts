// Credit reservations: credits set aside for a request before its upstream work starts, so the
// work can be capped at what they pay for (docs/quota.md). A reservation does not touch the balance
// or the ledger; it only lowers what other requests may spend (available = balance - reserved).
// It ends in the transaction that settles the request: the price is charged (≤ the reservation)
// and the rest released.
import type { Queryable } from '../../infra/db/database.ts';

/**
 * Adds `credits` to the request's reservation when the account's available credits cover them.
 * Returns false (nothing changed) when they do not. Expired reservations of the account (a process
 * that died mid-request) are released first when they stand in the way.
 */
export async function reserveCredits(
  db: Queryable,
  input: { accountId: string; requestId: string; credits: number; expiresAt: Date; now: Date },
): Promise<boolean> {
  if (input.credits <= 0) return true;
  const attempt = () =>
    db.query(
      `WITH acct AS (
         UPDATE accounts SET credits_reserved = credits_reserved + $3::int
         WHERE id = $1::uuid AND credit_balance - credits_reserved >= $3::int RETURNING id
       )
       INSERT INTO credit_reservations AS r (request_id, account_id, credits, expires_at)
       SELECT $2::text, $1::uuid, $3::int, $4::timestamptz FROM acct
       ON CONFLICT (request_id) DO UPDATE
         SET credits = r.credits + EXCLUDED.credits, expires_at = greatest(r.expires_at, EXCLUDED.expires_at)
       RETURNING credits`,
      [input.accountId, input.requestId, input.credits, input.expiresAt],
    );
  if ((await attempt()).length === 1) return true;
  // Not this request's own hold, even lapsed: its meter counts it as held, and released here the
  // retry would insert only the extension while the meter believed it held both.
  if ((await releaseExpiredReservations(db, input.accountId, input.now, input.requestId)) === 0) return false;
  return (await attempt()).length === 1;
}

/**
 * Releases the request's reservation (if any); returns the credits it held. One access to the
 * account row, the UPDATE's own: a statement that locked the row in one CTE and updated it in
 * another could deadlock on PostgreSQL (why: credits/ledger.ts CHARGE_GROUP_SQL).
 */
export async function releaseReservation(db: Queryable, requestId: string): Promise<number> {
  const rows = await db.query<{ credits: number }>(
    `WITH released AS (
       DELETE FROM credit_reservations WHERE request_id = $1 RETURNING account_id, credits
     )
     UPDATE accounts a SET credits_reserved = a.credits_reserved - r.credits
     FROM released r WHERE a.id = r.account_id
     RETURNING r.credits`,
    [requestId],
  );
  return rows.reduce((sum, row) => sum + Number(row.credits), 0);
}

/**
 * Releases the account's reservations that outlived their request (but `except`'s); returns how
 * many credits came back.
 */
export async function releaseExpiredReservations(
  db: Queryable,
  accountId: string,
  now: Date,
  except: string | null = null,
): Promise<number> {
  const [row] = await db.query<{ credits: number | string | null }>(
    `WITH released AS (DELETE FROM credit_reservations WHERE account_id = $1 AND expires_at < $2
      AND request_id IS DISTINCT FROM $3 RETURNING credits),
     acct AS (UPDATE accounts SET credits_reserved = credits_reserved - (SELECT sum(credits) FROM released)
       WHERE id = $1 AND EXISTS (SELECT 1 FROM released))
     SELECT sum(credits) AS credits FROM released`,
    [accountId, now, except],
  );
  return Number(row?.credits ?? 0);
}

/**
 * Releases every account's reservations that outlived their request (its process died mid-request);
 * returns how many credits came back. The worker's sweep calls it, so that nothing reading the
 * available credits — a charge for a cached answer, a paused watch's resume — sees a dead
 * request's hold for longer than one sweep after it lapsed. Before, a lapsed hold was released only
 * when it stood in the way of a new reservation, and a charge that reserves nothing was refused
 * (402) behind it indefinitely. One account at a time: each release locks its own account's row only.
 */
export async function releaseAllExpiredReservations(db: Queryable, now: Date, limit = 100): Promise<number> {
  const accounts = await db.query<{ account_id: string }>(
    'SELECT DISTINCT account_id FROM credit_reservations WHERE expires_at < $1 LIMIT $2',
    [now, limit],
  );
  let credits = 0;
  for (const { account_id } of accounts) credits += await releaseExpiredReservations(db, account_id, now);
  return credits;
}
