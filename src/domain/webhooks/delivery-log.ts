// The webhook_deliveries table: one row per delivery attempt of a request's webhook or of a batch's
// batch.completed summary. Written by the delivery job, read by the status routes and redelivery.
import type { Queryable } from '../../infra/db/database.ts';
import type { AttemptResult } from './deliver-once.ts';

/** What a delivery is for: a request (its result), a batch (its summary) or a stored event (#15). */
export type DeliveryTarget = { requestId: string } | { batchId: string } | { eventId: string };

export interface DeliveryAttempt {
  id: number;
  attempt: number;
  webhookId: string;
  startedAt: string;
  statusCode: number | null;
  latencyMs: number | null;
  outcome: 'delivered' | 'failed' | 'gone';
  error: string | null;
}

/** Stable across retries and redeliveries: receivers deduplicate on it (Standard Webhooks). */
export function webhookIdFor(id: string): string {
  return `msg_${id}`;
}

function where(target: DeliveryTarget): { column: 'request_id' | 'batch_id' | 'event_id'; id: string } {
  if ('eventId' in target) return { column: 'event_id', id: target.eventId };
  return 'batchId' in target ? { column: 'batch_id', id: target.batchId } : { column: 'request_id', id: target.requestId };
}

export async function recordAttempt(db: Queryable, target: DeliveryTarget, attempt: number, result: AttemptResult): Promise<void> {
  const { column, id } = where(target);
  await db.query(
    `INSERT INTO webhook_deliveries (${column}, webhook_id, attempt, status_code, latency_ms, outcome, error) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, webhookIdFor(id), attempt, result.statusCode, result.latencyMs, result.outcome, result.error],
  );
}

/** Whether this attempt was already recorded (a job retried after a crash past its commit). */
export async function attemptRecorded(db: Queryable, target: DeliveryTarget, attempt: number): Promise<boolean> {
  const { column, id } = where(target);
  return (await db.query(`SELECT 1 FROM webhook_deliveries WHERE ${column} = $1 AND attempt = $2`, [id, attempt])).length > 0;
}

export async function nextAttemptNumber(db: Queryable, target: DeliveryTarget): Promise<number> {
  const { column, id } = where(target);
  const [row] = await db.query<{ next: number }>(`SELECT coalesce(max(attempt), 0) + 1 AS next FROM webhook_deliveries WHERE ${column} = $1`, [id]);
  return Number(row?.next ?? 1);
}

export async function listAttempts(db: Queryable, target: DeliveryTarget): Promise<DeliveryAttempt[]> {
  const { column, id } = where(target);
  const rows = await db.query<{ id: number | string; attempt: number; webhook_id: string; started_at: Date; status_code: number | null; latency_ms: number | null; outcome: DeliveryAttempt['outcome']; error: string | null }>(
    `SELECT * FROM webhook_deliveries WHERE ${column} = $1 ORDER BY id`,
    [id],
  );
  return rows.map((d) => ({ id: Number(d.id), attempt: d.attempt, webhookId: d.webhook_id, startedAt: d.started_at.toISOString(), statusCode: d.status_code, latencyMs: d.latency_ms, outcome: d.outcome, error: d.error }));
}
