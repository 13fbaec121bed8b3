// Delivers a settled request's webhook. One job = one attempt; a failed attempt records itself and
// queues the next attempt (with the schedule's delay) in the same transaction, so a crash can
// neither lose the retry nor record an attempt twice. The singleton queue policy keyed by request
// keeps two attempts for the same webhook from running at the same time.
import type { PgBoss } from 'pg-boss';
import type { Dispatcher } from 'undici';
import type { Database, Queryable, Transaction } from '../infra/db/database.ts';
import { QUEUES } from '../infra/queue.ts';
import { AppError } from '../errors.ts';
import { findRequest, type RequestRow } from '../domain/requests/request-store.ts';
import { activeWebhookSecrets } from '../domain/webhooks/webhook-secrets.ts';
import { deliverOnce, type AttemptResult } from '../domain/webhooks/deliver-once.ts';
import { retryDelaySeconds } from '../domain/webhooks/retry-schedule.ts';

export interface DeliveryJob {
  requestId: string;
  attempt: number;
}

export interface DeliveryDeps {
  db: Database;
  boss: PgBoss;
  agent: Dispatcher;
  schedule: number[];
  allowPrivate: boolean;
  timeoutMs: number;
  onAttempt?: (result: AttemptResult, job: DeliveryJob) => void;
  /** A retry was queued to start in `delaySeconds` (committed). */
  onRetryScheduled?: (delaySeconds: number) => void;
}

export function webhookIdFor(requestId: string): string {
  return `msg_${requestId}`;
}

/** The delivered body: built from the stored row, so every attempt sends identical bytes. */
export function webhookPayload(row: RequestRow): string {
  return JSON.stringify({
    type: row.status === 'completed' ? 'shorts.completed' : 'shorts.failed',
    timestamp: (row.completed_at ?? row.created_at).toISOString(),
    data: row.result,
  });
}

export async function enqueueDelivery(boss: PgBoss, tx: Transaction | null, job: DeliveryJob, delaySeconds = 0): Promise<void> {
  await boss.send(QUEUES.webhookDelivery, { ...job }, {
    singletonKey: job.requestId,
    ...(delaySeconds > 0 ? { startAfter: Math.ceil(delaySeconds) } : {}),
    ...(tx ? { db: tx.jobDb } : {}),
  });
}

async function recordAttempt(db: Queryable, row: RequestRow, job: DeliveryJob, result: AttemptResult): Promise<void> {
  await db.query(
    'INSERT INTO webhook_deliveries (request_id, webhook_id, attempt, status_code, latency_ms, outcome, error) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [row.id, webhookIdFor(row.id), job.attempt, result.statusCode, result.latencyMs, result.outcome, result.error],
  );
}

export async function runDeliveryJob(deps: DeliveryDeps, job: DeliveryJob): Promise<void> {
  const row = await findRequest(deps.db, job.requestId);
  if (!row || !row.webhook_url || row.status === 'processing') return;
  // A retried job whose attempt was already recorded (crash after commit) must not send again.
  const done = await deps.db.query('SELECT 1 FROM webhook_deliveries WHERE request_id = $1 AND attempt = $2', [row.id, job.attempt]);
  if (done.length > 0) return;
  const secrets = (await activeWebhookSecrets(deps.db, row.account_id)).map((s) => s.secret);
  const result = await deliverOnce({
    url: row.webhook_url,
    webhookId: webhookIdFor(row.id),
    body: webhookPayload(row),
    secrets,
    agent: deps.agent,
    allowPrivate: deps.allowPrivate,
    timeoutMs: deps.timeoutMs,
  });
  deps.onAttempt?.(result, job);
  const retryIn = await deps.db.transaction(async (tx) => {
    await recordAttempt(tx, row, job, result);
    if (result.outcome !== 'failed') return null;
    const delay = retryDelaySeconds(deps.schedule, job.attempt + 1, result.retryAfterSeconds);
    if (delay !== null) await enqueueDelivery(deps.boss, tx, { requestId: row.id, attempt: job.attempt + 1 }, delay);
    return delay === null ? null : Math.ceil(delay);
  });
  if (retryIn !== null) deps.onRetryScheduled?.(retryIn);
}

/**
 * Manual redelivery: the next attempt number, right away, same webhook-id. Refused with 409
 * DELIVERY_IN_PROGRESS while an attempt is running or due (it would only be dropped as a duplicate);
 * a retry scheduled for later is replaced by this immediate attempt.
 */
export async function redeliver(db: Database, boss: PgBoss, requestId: string): Promise<number> {
  return db.transaction(async (tx) => {
    // Concurrent redeliveries of one request take turns, so only one of them can enqueue.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`redeliver:${requestId}`]);
    const jobs = await boss.findJobs(QUEUES.webhookDelivery, { key: requestId, db: tx.jobDb });
    const pending = jobs.filter((j) => j.state === 'created' || j.state === 'retry' || j.state === 'active');
    // Read the clock after the lock: a job queued by the redelivery we waited for is due now.
    const dueBy = Date.now() + 5_000;
    if (pending.some((j) => j.state === 'active' || j.state === 'retry' || j.startAfter.getTime() <= dueBy)) {
      throw new AppError('DELIVERY_IN_PROGRESS');
    }
    if (pending.length > 0) await boss.cancel(QUEUES.webhookDelivery, pending.map((j) => j.id), { db: tx.jobDb });
    const [row] = await tx.query<{ next: number }>('SELECT coalesce(max(attempt), 0) + 1 AS next FROM webhook_deliveries WHERE request_id = $1', [requestId]);
    const attempt = Number(row?.next ?? 1);
    await enqueueDelivery(boss, tx, { requestId, attempt: attempt });
    return attempt;
  });
}
