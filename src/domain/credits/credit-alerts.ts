// The low-balance alert: an account may set a threshold; when its balance falls below
// it, one credits.low event is recorded, and no other until a grant lifts the balance back to the
// threshold or above (re-armed). Events are recorded in credit_events; their delivery goes to the
// account's events webhook URL.
//
// Exactness: the event is claimed by ONE conditional UPDATE (credits_low_sent false → true) in the
// statement that inserts it. Concurrent charges serialise on the account row, so whichever claims
// first records the event and the others find it claimed — on PGlite and PostgreSQL alike. The
// claim looks at the balance as it is, not at one charge's before/after: a charge whose claim was
// lost (e.g. a crash between a group-committed charge and its claim) is made up by the next charge.
import type { Queryable } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import { newEventId } from '../webhooks/events.ts';
import type { CreditAlerts, CreditEvent, CreditsLowPayload } from '../../contract/credits.ts';

export const CREDITS_LOW = 'credits.low';

// The shapes are the contract's (src/contract/credits.ts, accounts.ts): the event as listed, the
// event as it is delivered (the Standard Webhooks body: type, timestamp, data) and the settings.
export type { CreditsLowPayload };
export type CreditsLowEvent = CreditEvent;

/** Whether a charge that left `balance` should try to claim the alert (cheap, no query). */
export function mayBeLow(balance: number, threshold: number | null | undefined): boolean {
  return threshold !== null && threshold !== undefined && balance < threshold;
}

/**
 * Records credits.low for the account when its balance is below its threshold and the alert is
 * armed; returns the event, or null when there is nothing to record. Call it after a charge, in the
 * charge's transaction where there is one. The one place credits.low is emitted.
 */
export async function emitCreditsLow(
  tx: Queryable,
  accountId: string,
  requestId: string | null,
): Promise<CreditsLowEvent | null> {
  // One statement claims the alert, keeps the event in the account's history (credit_events) and,
  // when the account has an events URL, writes it to the webhook outbox (webhook_events, delivered
  // by the worker's sweep: webhooks/events.ts dispatchPendingEvents) with the same body.
  const [row] = await tx.query<{ id: number | string; payload: CreditsLowPayload; created_at: Date }>(
    `WITH claimed AS (
       UPDATE accounts SET credits_low_sent = true
       WHERE id = $1 AND NOT credits_low_sent AND low_balance_threshold IS NOT NULL
         AND credit_balance < low_balance_threshold
       RETURNING id, credit_balance, low_balance_threshold, events_webhook_url
     ), body AS (
       SELECT id, events_webhook_url,
         jsonb_build_object('type', $3::text, 'timestamp',
         to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'data', jsonb_build_object('accountId', id, 'balance', credit_balance, 'threshold', low_balance_threshold,
           'requestId', $2::text)) AS payload
       FROM claimed
     ), outbox AS (
       INSERT INTO webhook_events (id, account_id, type, webhook_url, payload, created_at)
       SELECT $4, id, $3, events_webhook_url, payload::text, now() FROM body WHERE events_webhook_url IS NOT NULL
     )
     INSERT INTO credit_events (account_id, type, payload)
     SELECT id, $3, payload FROM body
     RETURNING id, payload, created_at`,
    [accountId, requestId, CREDITS_LOW, newEventId()],
  );
  return row
    ? { id: Number(row.id), type: CREDITS_LOW, createdAt: row.created_at.toISOString(), payload: row.payload }
    : null;
}

export type CreditAlertSettings = CreditAlerts;

interface AlertRow {
  credit_balance: number;
  low_balance_threshold: number | null;
  events_webhook_url: string | null;
  webhook_payload: 'full' | 'thin' | null;
}

function toSettings(row: AlertRow): CreditAlertSettings {
  return {
    lowBalanceThreshold: row.low_balance_threshold,
    eventsWebhookUrl: row.events_webhook_url,
    low: mayBeLow(row.credit_balance, row.low_balance_threshold),
    webhookPayload: row.webhook_payload ?? 'full',
  };
}

const ALERT_COLUMNS = 'credit_balance, low_balance_threshold, events_webhook_url, webhook_payload';

export async function getCreditAlerts(db: Queryable, accountId: string): Promise<CreditAlertSettings> {
  const [row] = await db.query<AlertRow>(`SELECT ${ALERT_COLUMNS} FROM accounts WHERE id = $1`, [accountId]);
  if (!row) throw new AppError('NOT_FOUND', 'No such account.');
  return toSettings(row);
}

/**
 * Changes the threshold, the events URL and/or the default webhook payload form (undefined: unchanged,
 * null: cleared; the URL must be validated by the caller). A new threshold counts from the balance as it is: already below it
 * means no event until the balance has been back up (setting a threshold is not a crossing).
 */
export async function setCreditAlerts(
  db: Queryable,
  accountId: string,
  change: { lowBalanceThreshold?: number | null; eventsWebhookUrl?: string | null; webhookPayload?: 'full' | 'thin' },
): Promise<CreditAlertSettings> {
  const threshold = change.lowBalanceThreshold;
  if (threshold !== undefined && threshold !== null && (!Number.isSafeInteger(threshold) || threshold < 1)) {
    throw new AppError(
      'VALIDATION_FAILED',
      'lowBalanceThreshold must be a positive integer, or null to turn the alert off.',
    );
  }
  const [row] = await db.query<AlertRow>(
    `UPDATE accounts SET
       low_balance_threshold = CASE WHEN $2 THEN $3::int ELSE low_balance_threshold END,
       credits_low_sent = CASE WHEN $2 THEN $3::int IS NOT NULL AND credit_balance < $3::int ELSE credits_low_sent END,
       events_webhook_url = CASE WHEN $4 THEN $5::text ELSE events_webhook_url END,
       webhook_payload = coalesce($6::text, webhook_payload)
     WHERE id = $1 RETURNING ${ALERT_COLUMNS}`,
    [
      accountId,
      threshold !== undefined,
      threshold ?? null,
      change.eventsWebhookUrl !== undefined,
      change.eventsWebhookUrl ?? null,
      change.webhookPayload ?? null,
    ],
  );
  if (!row) throw new AppError('NOT_FOUND', 'No such account.');
  return toSettings(row);
}

/** The account's events (credits.low, webhook.destination.paused), newest first. */
export async function listCreditEvents(db: Queryable, accountId: string, limit: number): Promise<CreditsLowEvent[]> {
  const rows = await db.query<{
    id: number | string;
    type: CreditsLowEvent['type'];
    payload: CreditsLowEvent['payload'];
    created_at: Date;
  }>('SELECT id, type, payload, created_at FROM credit_events WHERE account_id = $1 ORDER BY id DESC LIMIT $2', [
    accountId,
    limit,
  ]);
  return rows.map((r) => ({
    id: Number(r.id),
    type: r.type,
    createdAt: r.created_at.toISOString(),
    payload: r.payload,
  }));
}
