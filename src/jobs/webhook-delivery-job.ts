// Delivers a settled request's webhook. One job = one attempt; a failed attempt records itself and
// queues the next attempt (with the schedule's delay) in the same transaction, so a crash can
// neither lose the retry nor record an attempt twice. A request's first attempt is made by its
// fetch job, right after settling (shorts-fetch-job.ts); the retries and redeliveries are jobs
// here. The singleton queue policy keyed by request keeps two attempts for the same webhook from
// running at the same time. A batch's batch.completed summary is delivered by the same job,
// keyed by its batchId instead of a requestId, and so is a stored event (shorts.created,
// watch.paused…), keyed by its eventId.
import type { PgBoss } from 'pg-boss';
import type { Dispatcher } from 'undici';
import type { Database, Queryable, Transaction } from '../infra/db/database.ts';
import { QUEUES } from '../infra/queue.ts';
import { groupRead } from '../infra/db/group-commit.ts';
import { AppError } from '../errors.ts';
import type { RequestRow } from '../domain/requests/request-store.ts';
import type { SettledRow } from '../domain/requests/queued-settlements.ts';
import { batchWebhookPayload, findBatch } from '../domain/requests/batches.ts';
import { activeWebhookSecrets, signingSecretsSql } from '../domain/webhooks/webhook-secrets.ts';
import { deliverOnce, type AttemptResult } from '../domain/webhooks/deliver-once.ts';
import { retryDelaySeconds } from '../domain/webhooks/retry-schedule.ts';
import { findEvent } from '../domain/webhooks/events.ts';
import { destinationPausedSql, isDestinationPaused } from '../domain/webhooks/destinations.ts';
import {
  attemptRecorded,
  nextAttemptNumber,
  recordAttempt,
  webhookIdFor,
  type AttemptContext,
  type AttemptRecord,
} from '../domain/webhooks/delivery-log.ts';
import { resultWebhookBody, type ResultPayloadSettings } from '../domain/webhooks/result-payload.ts';

export type DeliveryJob =
  | { requestId: string; attempt: number }
  | { batchId: string; attempt: number }
  | { eventId: string; attempt: number };

/** The key that keeps two attempts of one webhook from running at once (singleton queue policy). */
function deliveryKey(job: DeliveryJob): string {
  return 'eventId' in job ? job.eventId : 'batchId' in job ? job.batchId : job.requestId;
}

export interface DeliveryDeps {
  db: Database;
  boss: PgBoss;
  agent: Dispatcher;
  schedule: number[];
  allowPrivate: boolean;
  timeoutMs: number;
  onAttempt?: (result: AttemptResult, job: DeliveryJob) => void;
  /** Reads what a request's delivery needs, grouped with concurrent deliveries (createRequestAttemptReader). */
  readRequestAttempt?: (attempt: RequestAttempt) => Promise<RequestToDeliver | undefined>;
  /** Records an attempt that queues no retry, grouped with others finishing together (delivery-log.ts). */
  recordAttempt?: (record: AttemptRecord) => Promise<void>;
  /** A retry was queued to start in `delaySeconds` (committed). */
  onRetryScheduled?: (delaySeconds: number) => void;
  /** The thin form's resultUrl base and the full form's maximum size (result-payload.ts); default: full, no maximum. */
  resultPayload?: ResultPayloadSettings;
  /** WEBHOOK_DISABLE_AFTER_DAYS: a destination failing this long is paused; 0 or absent: never. */
  disableAfterDays?: number;
  /** The service's clock (ms): when attempts were made, for the destinations' health. */
  now?: () => number;
}

const UNLIMITED: ResultPayloadSettings = { maxBodyBytes: Number.POSITIVE_INFINITY, publicBaseUrl: '' };

export async function enqueueDelivery(
  boss: PgBoss,
  tx: Transaction | null,
  job: DeliveryJob,
  delaySeconds = 0,
): Promise<void> {
  // In a grouped transaction, the first attempt is inserted with the group's other jobs.
  if (tx?.deferJob && delaySeconds <= 0)
    return tx.deferJob({ queue: QUEUES.webhookDelivery, data: { ...job }, singletonKey: deliveryKey(job) });
  await boss.send(
    QUEUES.webhookDelivery,
    { ...job },
    {
      singletonKey: deliveryKey(job),
      ...(delaySeconds > 0 ? { startAfter: Math.ceil(delaySeconds) } : {}),
      ...(tx ? { db: tx.jobDb } : {}),
    },
  );
}

type Target = { id: string; url: string; accountId: string; body: string };
/** What an attempt sends, signed with `secrets`; not sent when the result was dropped or the destination is paused. */
type Ready = { target: Target; secrets: string[]; paused: boolean; expired?: boolean };

type RequestAttempt = { requestId: string; attempt: number };
type RequestToDeliver = RequestRow & { attempt_recorded: boolean; secrets: string[]; destination_paused: boolean };
const attemptKey = ({ requestId, attempt }: RequestAttempt) => `${requestId}#${attempt}`;

/**
 * The common case in one statement: each request, whether this attempt of it was recorded
 * (attemptRecorded), its account's signing secrets (activeWebhookSecrets) and whether its destination
 * is paused, for several deliveries at once.
 */
async function readRequestAttempts(db: Queryable, attempts: RequestAttempt[]): Promise<Map<string, RequestToDeliver>> {
  const rows = await db.query<RequestToDeliver & { job_attempt: number }>(
    `SELECT r.*, x.attempt AS job_attempt,
            EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.request_id = r.id AND d.attempt = x.attempt) AS
              attempt_recorded,
            ${signingSecretsSql('r.account_id', '$3')} AS secrets,
            r.webhook_url IS NOT NULL AND ${destinationPausedSql('r.account_id', 'r.webhook_url')} AS destination_paused
     FROM unnest($1::text[], $2::int[]) AS x(id, attempt) JOIN shorts_requests r ON r.id = x.id`,
    [attempts.map((a) => a.requestId), attempts.map((a) => a.attempt), new Date()],
  );
  return new Map(rows.map((row) => [attemptKey({ requestId: row.id, attempt: Number(row.job_attempt) }), row]));
}

/** readRequestAttempts for deliveries running at the same moment, in one statement (groupRead). */
export function createRequestAttemptReader(
  db: Queryable,
  maxGroup = 100,
): (attempt: RequestAttempt) => Promise<RequestToDeliver | undefined> {
  return groupRead<RequestAttempt, RequestToDeliver>(maxGroup, attemptKey, (attempts) =>
    readRequestAttempts(db, attempts),
  );
}

/** Where and what to deliver for a batch or an event, once it is ready (a completed batch). */
async function deliveryOf(
  db: Queryable,
  job: Exclude<DeliveryJob, { requestId: string }>,
): Promise<Target | undefined> {
  if ('eventId' in job) {
    // A stored event: its body was fixed when it was recorded.
    const event = await findEvent(db, job.eventId);
    return event && { id: event.id, url: event.webhookUrl, accountId: event.accountId, body: event.payload };
  }
  const batch = await findBatch(db, job.batchId);
  if (!batch?.completed_at) return undefined;
  return {
    id: batch.id,
    url: batch.webhook_url,
    accountId: batch.account_id,
    body: await batchWebhookPayload(db, batch),
  };
}

/**
 * What to send and the secrets to sign it with; undefined when there is nothing to send: not ready,
 * gone, or this attempt already recorded (a job retried after a crash past its commit must not send again).
 */
async function readyToSend(
  db: Queryable,
  job: DeliveryJob,
  readRequest: DeliveryDeps['readRequestAttempt'],
  payload: ResultPayloadSettings,
): Promise<Ready | undefined> {
  if ('requestId' in job) {
    const row = await (
      readRequest ??
      ((attempt: RequestAttempt) => readRequestAttempts(db, [attempt]).then((rows) => rows.get(attemptKey(attempt))))
    )(job);
    return row && !row.attempt_recorded ? requestToSend(row, payload) : undefined;
  }
  const target = await deliveryOf(db, job);
  if (!target) return undefined;
  // Both reads at once: with PostgreSQL they take two pool connections instead of two round trips.
  const [recorded, active, paused] = await Promise.all([
    attemptRecorded(db, job, job.attempt),
    activeWebhookSecrets(db, target.accountId),
    isDestinationPaused(db, target.accountId, target.url),
  ]);
  return recorded ? undefined : { target, secrets: active.map((s) => s.secret), paused };
}

/** A request's webhook and its secrets, from its stored row; undefined while it is in progress or has no webhook. */
function requestToSend(row: SettledRow, payload: ResultPayloadSettings): Ready | undefined {
  if (!row.webhook_url || row.status === 'processing') return undefined;
  // A completed result past RESULT_RETENTION_DAYS was dropped (stored-results.ts keeps a summary
  // without `data`): a retry due after that must not send the summary as the result.
  const expired = row.status === 'completed' && !(row.result && typeof row.result === 'object' && 'data' in row.result);
  return {
    target: { id: row.id, url: row.webhook_url, accountId: row.account_id, body: resultWebhookBody(row, payload) },
    secrets: row.secrets,
    paused: row.destination_paused,
    ...(expired ? { expired } : {}),
  };
}

/** The attempt recorded, unsent, for a result dropped before its retry was due: the last one. */
const EXPIRED_ATTEMPT: AttemptResult = {
  outcome: 'failed',
  statusCode: null,
  latencyMs: 0,
  error: 'Not sent: the result was kept for RESULT_RETENTION_DAYS and has been dropped; request the channel again.',
  retryAfterSeconds: null,
  requestHeaders: null,
  responseExcerpt: null,
};

/** The attempt recorded, unsent, while its destination is paused: the last one (redeliver once resumed). */
const PAUSED_ATTEMPT: AttemptResult = {
  ...EXPIRED_ATTEMPT,
  error:
    'Not sent: this destination is paused (every attempt to it failed for WEBHOOK_DISABLE_AFTER_DAYS). Resume it ' +
    '(POST /accounts/webhook-destinations/{destinationId}/resume, or a successful test event), then redeliver.',
};

/** What this attempt is: sent to the receiver, or recorded unsent (a dropped result, a paused destination). */
async function attemptOf(deps: DeliveryDeps, ready: Ready): Promise<AttemptResult> {
  const { target, secrets } = ready;
  if (ready.expired) return EXPIRED_ATTEMPT;
  if (ready.paused) return PAUSED_ATTEMPT;
  return deliverOnce({
    url: target.url,
    webhookId: webhookIdFor(target.id),
    body: target.body,
    secrets,
    agent: deps.agent,
    allowPrivate: deps.allowPrivate,
    timeoutMs: deps.timeoutMs,
  });
}

/** For a sent attempt: where and when, and from what time on a failing destination is paused by it. */
function sentAt(deps: DeliveryDeps, url: string): NonNullable<AttemptContext['sent']> {
  const at = new Date(deps.now?.() ?? Date.now());
  const days = deps.disableAfterDays ?? 0;
  return { url, at, pauseIfFailingSince: days > 0 ? new Date(at.getTime() - days * 86_400_000) : null };
}

/**
 * One attempt. `settled`: the request's row as the statement that settled it just returned (the
 * fetch job's first attempt): no attempt of it can have been made before its settlement, so
 * it is sent without reading anything.
 */
export async function runDeliveryJob(deps: DeliveryDeps, job: DeliveryJob, settled?: SettledRow): Promise<void> {
  const payload = deps.resultPayload ?? UNLIMITED;
  const ready =
    settled && 'requestId' in job && job.attempt === 1
      ? requestToSend(settled, payload)
      : await readyToSend(deps.db, job, deps.readRequestAttempt, payload);
  if (!ready) return;
  const { target } = ready;
  const result = await attemptOf(deps, ready);
  const unsent = result === EXPIRED_ATTEMPT || result === PAUSED_ATTEMPT;
  deps.onAttempt?.(result, job);
  const delay =
    result.outcome === 'failed' && !unsent
      ? retryDelaySeconds(deps.schedule, job.attempt + 1, result.retryAfterSeconds)
      : null;
  const retryIn = delay === null ? null : Math.ceil(delay);
  // The attempt says when the next one is due ("retrying, next at …" versus "gave up").
  const nextAttemptAt = retryIn === null ? null : new Date(Date.now() + retryIn * 1000);
  if (retryIn === null) {
    // Nothing to queue: the attempt's INSERT is atomic by itself (no BEGIN/COMMIT), and attempts
    // finishing together share one (createAttemptRecorder).
    const record = {
      target: job,
      attempt: job.attempt,
      result,
      context: { accountId: target.accountId, nextAttemptAt, ...(unsent ? {} : { sent: sentAt(deps, target.url) }) },
    };
    await (deps.recordAttempt
      ? deps.recordAttempt(record)
      : recordAttempt(deps.db, job, job.attempt, result, record.context));
  } else {
    // The attempt and the next one are one fact: a crash can neither lose the retry nor record the attempt twice.
    await deps.db.transaction(async (tx) => {
      await recordAttempt(tx, job, job.attempt, result, {
        accountId: target.accountId,
        nextAttemptAt,
        sent: sentAt(deps, target.url),
      });
      await enqueueDelivery(deps.boss, tx, { ...job, attempt: job.attempt + 1 }, retryIn);
    });
  }
  if (retryIn !== null) deps.onRetryScheduled?.(retryIn);
}

/** What can be redelivered by hand: a request's webhook, or a batch's summary (a summary could not be). */
export type RedeliveryTarget = { requestId: string } | { batchId: string };

/**
 * Manual redelivery: the next attempt number, right away, same webhook-id. Refused with 409
 * DELIVERY_IN_PROGRESS while an attempt is running or due (it would only be dropped as a duplicate);
 * a retry scheduled for later is replaced by this immediate attempt.
 */
export async function redeliver(db: Database, boss: PgBoss, target: RedeliveryTarget): Promise<number> {
  const key = 'requestId' in target ? target.requestId : target.batchId;
  return db.transaction(async (tx) => {
    // Concurrent redeliveries of one webhook take turns, so only one of them can enqueue.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`redeliver:${key}`]);
    const live = (j: { state: string }) => j.state === 'created' || j.state === 'retry' || j.state === 'active';
    const attempt = await nextAttemptNumber(tx, target);
    if ('requestId' in target) {
      // The fetch job (or, once it used up its retries, its gave-up job) makes a request's first attempt:
      // until it is recorded, it is running or due (once recorded, a retried job does not send it again).
      const fetching = async (queue: string) =>
        (await boss.findJobs(queue, { data: { requestId: target.requestId }, db: tx.jobDb })).some(live);
      if (attempt === 1 && ((await fetching(QUEUES.shortsFetch)) || (await fetching(QUEUES.shortsFetchGaveUp))))
        throw new AppError('DELIVERY_IN_PROGRESS');
    }
    const jobs = await boss.findJobs(QUEUES.webhookDelivery, { key, db: tx.jobDb });
    const pending = jobs.filter(live);
    // Read the clock after the lock: a job queued by the redelivery we waited for is due now.
    const dueBy = Date.now() + 5_000;
    if (pending.some((j) => j.state === 'active' || j.state === 'retry' || j.startAfter.getTime() <= dueBy)) {
      throw new AppError('DELIVERY_IN_PROGRESS');
    }
    if (pending.length > 0)
      await boss.cancel(
        QUEUES.webhookDelivery,
        pending.map((j) => j.id),
        { db: tx.jobDb },
      );
    await enqueueDelivery(boss, tx, { ...target, attempt });
    return attempt;
  });
}
