// Stored account-level events: a row in webhook_events holds the exact body to deliver, and
// the delivery job (jobs/webhook-delivery-job.ts, kind {eventId, attempt}) sends it signed and
// retried like every other webhook. Recording the event and queuing its first attempt happen in the
// caller's transaction, so "it happened" and "it will be delivered" are one fact. Generic on
// purpose: shorts.created, watch.paused, watch.resumed, and credits.low (written by the charge
// statements into the same table as an outbox, see dispatchPendingEvents).
import { randomBytes } from 'node:crypto';
import type { Database, Queryable, Transaction } from '../../infra/db/database.ts';
import type { WatchEvent } from '../../contract/watches.ts';

export interface NewEvent {
  accountId: string;
  type: string;
  webhookUrl: string;
  data: unknown;
  /** What the event is about (e.g. a watch id), so its events can be listed; omitted for account-wide events. */
  subjectId?: string;
  /** The event's time (injected clocks); default now. */
  at?: Date;
}

export interface StoredEvent {
  id: string;
  accountId: string;
  type: string;
  webhookUrl: string;
  subjectId: string | null;
  /** The delivered body, byte for byte: every attempt sends the same. */
  payload: string;
  createdAt: Date;
}

/** Queues the first delivery attempt of an event inside the transaction that records it. */
export type EnqueueEvent = (tx: Transaction, eventId: string) => Promise<void>;

export function newEventId(now = Date.now()): string {
  return `evt_${now.toString(36)}${randomBytes(10).toString('hex')}`;
}

export async function recordEvent(tx: Transaction, input: NewEvent, enqueue: EnqueueEvent): Promise<StoredEvent> {
  const at = input.at ?? new Date();
  const id = newEventId(at.getTime());
  const payload = JSON.stringify({ type: input.type, timestamp: at.toISOString(), data: input.data });
  await tx.query(
    'INSERT INTO webhook_events (id, account_id, type, webhook_url, subject_id, payload, created_at, ' +
      'dispatched_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)',
    [id, input.accountId, input.type, input.webhookUrl, input.subjectId ?? null, payload, at],
  );
  await enqueue(tx, id);
  return {
    id,
    accountId: input.accountId,
    type: input.type,
    webhookUrl: input.webhookUrl,
    subjectId: input.subjectId ?? null,
    payload,
    createdAt: at,
  };
}

interface EventRow {
  id: string;
  account_id: string;
  type: string;
  webhook_url: string;
  subject_id: string | null;
  payload: string;
  created_at: Date;
}

function toEvent(row: EventRow): StoredEvent {
  return {
    id: row.id,
    accountId: row.account_id,
    type: row.type,
    webhookUrl: row.webhook_url,
    subjectId: row.subject_id,
    payload: row.payload,
    createdAt: row.created_at,
  };
}

/**
 * The outbox side: events recorded without their delivery queued (credits.low, written by the
 * charge statements, see credits/credit-alerts.ts) get their first attempt queued here, in the
 * transaction that marks them dispatched, so each is queued exactly once across instances. Run by
 * every worker's periodic sweep; returns how many were queued.
 */
export async function dispatchPendingEvents(db: Database, enqueue: EnqueueEvent, limit = 100): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<{ id: string }>(
      `UPDATE webhook_events SET dispatched_at = now()
       WHERE id IN (SELECT id FROM webhook_events WHERE dispatched_at IS NULL ORDER BY created_at LIMIT $1
         FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [limit],
    );
    for (const row of rows) await enqueue(tx, row.id);
    return rows.length;
  });
}

export async function findEvent(db: Queryable, id: string): Promise<StoredEvent | undefined> {
  const [row] = await db.query<EventRow>('SELECT * FROM webhook_events WHERE id = $1', [id]);
  return row ? toEvent(row) : undefined;
}

/** The newest events about one subject, with their delivery state (as a watch's events show them). */
export async function listEvents(
  db: Queryable,
  accountId: string,
  subjectId: string,
  limit: number,
): Promise<WatchEvent[]> {
  const rows = await db.query<EventRow & { attempts: number; outcome: string | null; status_code: number | null }>(
    `SELECT e.*, (SELECT count(*)::int FROM webhook_deliveries d WHERE d.event_id = e.id) AS attempts,
            l.outcome, l.status_code
       FROM webhook_events e
       LEFT JOIN LATERAL (SELECT outcome, status_code FROM webhook_deliveries d WHERE d.event_id = e.id
         ORDER BY d.id DESC LIMIT 1) l ON true
      WHERE e.account_id = $1 AND e.subject_id = $2 ORDER BY e.created_at DESC, e.id DESC LIMIT $3`,
    [accountId, subjectId, limit],
  );
  return rows.map((r) => {
    const e = toEvent(r);
    return {
      id: e.id,
      type: e.type,
      createdAt: e.createdAt.toISOString(),
      data: (JSON.parse(e.payload) as { data: unknown }).data,
      delivery: { attempts: r.attempts, outcome: r.outcome, statusCode: r.status_code },
    };
  });
}
