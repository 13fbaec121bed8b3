// The webhook_deliveries table: one row per delivery attempt of a request's webhook or of a batch's
// batch.completed summary. Written by the delivery job, read by the status routes and redelivery.
import { AppError } from '../../errors.ts';
import type { Queryable } from '../../infra/db/database.ts';
import { groupCommit } from '../../infra/db/group-commit.ts';
import type { AttemptResult } from './deliver-once.ts';
import { destinationChanges, destinationsSql, pauseDestination } from './destinations.ts';
import type { DeliveryAttempt } from '../../contract/shorts.ts';
import type { DeliveryLogEntry } from '../../contract/requests-log.ts';

/** What a delivery is for: a request (its result), a batch (its summary) or a stored event. */
export type DeliveryTarget = { requestId: string } | { batchId: string } | { eventId: string };

export type { DeliveryAttempt };

/** What the job knows besides the attempt's result: whose it is, and the retry it just scheduled. */
export interface AttemptContext {
  accountId: string;
  nextAttemptAt: Date | null;
  /**
   * The attempt was sent to `url` at `at`: it counts for that destination's health (destinations.ts). Absent
   * for an attempt recorded unsent (a dropped result, a paused destination).
   */
  sent?: { url: string; at: Date; pauseIfFailingSince: Date | null };
}

/** Stable across retries and redeliveries: receivers deduplicate on it (Standard Webhooks). */
export function webhookIdFor(id: string): string {
  return `msg_${id}`;
}

function where(target: DeliveryTarget): { column: 'request_id' | 'batch_id' | 'event_id'; id: string } {
  if ('eventId' in target) return { column: 'event_id', id: target.eventId };
  return 'batchId' in target
    ? { column: 'batch_id', id: target.batchId }
    : { column: 'request_id', id: target.requestId };
}

export async function recordAttempt(
  db: Queryable,
  target: DeliveryTarget,
  attempt: number,
  result: AttemptResult,
  context?: AttemptContext,
): Promise<void> {
  await insertAttempts(db, [{ target, attempt, result, context }]);
}

/** An attempt to record: what it was for, its number, its result and whose it is. */
export interface AttemptRecord {
  target: DeliveryTarget;
  attempt: number;
  result: AttemptResult;
  context?: AttemptContext;
}

/**
 * One statement for any number of attempts (json, not jsonb: the headers keep the order they were sent
 * in): their rows, and what the sent ones change in their destinations' health. A destination whose
 * failures have now lasted long enough is then paused, with its account event.
 */
async function insertAttempts(db: Queryable, records: AttemptRecord[]): Promise<void> {
  const sent = records.flatMap(({ result, context }) =>
    context?.sent
      ? [
          {
            accountId: context.accountId,
            url: context.sent.url,
            outcome: result.outcome,
            statusCode: result.statusCode,
            error: result.error,
            at: context.sent.at,
            pauseIfFailingSince: context.sent.pauseIfFailingSince,
          },
        ]
      : [],
  );
  const destinations = destinationsSql('$2');
  const toPause = await db.query<{ id: number | string }>(
    `WITH attempts AS (${INSERT_ATTEMPTS_SQL}), ${destinations.ctes} ${destinations.select}`,
    [JSON.stringify(attemptRows(records)), JSON.stringify(destinationChanges(sent))],
  );
  for (const { id } of toPause) await pauseDestination(db, Number(id), sent.at(-1)!.at);
}

const INSERT_ATTEMPTS_SQL = `INSERT INTO webhook_deliveries (request_id, batch_id, event_id, webhook_id, attempt,
       status_code, latency_ms, outcome, error, request_headers, response_excerpt, next_attempt_at, account_id, started_at)
     SELECT request_id, batch_id, event_id, webhook_id, attempt, status_code, latency_ms, outcome, error,
       request_headers, response_excerpt, next_attempt_at, account_id, coalesce(started_at, now())
     FROM json_to_recordset($1::json) AS x(request_id text, batch_id text, event_id text, webhook_id text,
       attempt int, status_code int, latency_ms int, outcome text,
       error text, request_headers json, response_excerpt text, next_attempt_at timestamptz, account_id uuid,
       started_at timestamptz)`;

function attemptRows(records: AttemptRecord[]) {
  return records.map(({ target, attempt, result, context }) => {
    const { column, id } = where(target);
    return {
      request_id: column === 'request_id' ? id : null,
      batch_id: column === 'batch_id' ? id : null,
      event_id: column === 'event_id' ? id : null,
      webhook_id: webhookIdFor(id),
      attempt,
      status_code: result.statusCode,
      latency_ms: result.latencyMs,
      outcome: result.outcome,
      error: result.error,
      request_headers: result.requestHeaders ?? null,
      response_excerpt: result.responseExcerpt ?? null,
      next_attempt_at: context?.nextAttemptAt ?? null,
      account_id: context?.accountId ?? null,
      started_at: result.startedAt?.toISOString() ?? null,
    };
  });
}

/**
 * Records attempts that queue no retry: those finishing while a group is written go in one
 * INSERT (one commit) instead of one each. If that statement fails (one attempt cannot be written),
 * each is recorded alone, so only its own job fails and is retried.
 */
export function createAttemptRecorder(db: Queryable, maxGroup = 100): (record: AttemptRecord) => Promise<void> {
  return groupCommit<AttemptRecord, void>(maxGroup, async (members) => {
    if (
      members.length > 1 &&
      (await insertAttempts(
        db,
        members.map((member) => member.item),
      ).then(
        () => true,
        () => false,
      ))
    ) {
      for (const member of members) member.resolve();
      return;
    }
    for (const member of members) await insertAttempts(db, [member.item]).then(member.resolve, member.reject);
  });
}

/** Whether this attempt was already recorded (a job retried after a crash past its commit). */
export async function attemptRecorded(db: Queryable, target: DeliveryTarget, attempt: number): Promise<boolean> {
  const { column, id } = where(target);
  return (
    (await db.query(`SELECT 1 FROM webhook_deliveries WHERE ${column} = $1 AND attempt = $2`, [id, attempt])).length > 0
  );
}

export async function nextAttemptNumber(db: Queryable, target: DeliveryTarget): Promise<number> {
  const { column, id } = where(target);
  const [row] = await db.query<{ next: number }>(
    `SELECT coalesce(max(attempt), 0) + 1 AS next FROM webhook_deliveries WHERE ${column} = $1`,
    [id],
  );
  return Number(row?.next ?? 1);
}

export async function listAttempts(db: Queryable, target: DeliveryTarget): Promise<DeliveryAttempt[]> {
  const { column, id } = where(target);
  const rows = await db.query<DeliveryRow>(`SELECT * FROM webhook_deliveries WHERE ${column} = $1 ORDER BY id`, [id]);
  return rows.map(attemptOf);
}

export interface DeliveryRow {
  id: number | string;
  attempt: number;
  webhook_id: string;
  started_at: Date;
  status_code: number | null;
  latency_ms: number | null;
  outcome: DeliveryAttempt['outcome'];
  error: string | null;
  request_headers: Record<string, string> | null;
  response_excerpt: string | null;
  next_attempt_at: Date | null;
}

export function attemptOf(d: DeliveryRow): DeliveryAttempt {
  return {
    id: Number(d.id),
    attempt: d.attempt,
    webhookId: d.webhook_id,
    startedAt: d.started_at.toISOString(),
    statusCode: d.status_code,
    latencyMs: d.latency_ms,
    outcome: d.outcome,
    error: d.error,
    requestHeaders: d.request_headers ?? null,
    responseExcerpt: d.response_excerpt ?? null,
    nextAttemptAt: d.next_attempt_at?.toISOString() ?? null,
  };
}

/** One attempt in the account-wide delivery log: the contract's DeliveryLogEntry. */
export type AccountDelivery = DeliveryLogEntry;

// Opaque cursor of the account-wide delivery log: base64url of "d.<attempt row id>".
function encodeDeliveryCursor(id: number): string {
  return Buffer.from(`d.${id}`).toString('base64url');
}

function decodeDeliveryCursor(cursor: string): number {
  const match = /^d\.(\d{1,18})$/.exec(
    /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '',
  );
  if (!match)
    throw new AppError(
      'VALIDATION_FAILED',
      'cursor is not one this endpoint returned: pass the nextCursor of the previous page unchanged, ' +
        'or omit it for the first page.',
    );
  return Number(match[1]);
}

/** Every delivery attempt of an account (requests, batch summaries, account events), newest first, in keyset pages. */
export async function listAccountDeliveries(
  db: Queryable,
  accountId: string,
  options: { limit: number; cursor?: string; outcome?: DeliveryAttempt['outcome'] },
): Promise<{ deliveries: AccountDelivery[]; nextCursor: string | null }> {
  const params: unknown[] = [accountId];
  const where = ['d.account_id = $1'];
  if (options.cursor) {
    params.push(decodeDeliveryCursor(options.cursor));
    where.push(`d.id < $${params.length}`);
  }
  if (options.outcome) {
    params.push(options.outcome);
    where.push(`d.outcome = $${params.length}`);
  }
  params.push(options.limit + 1);
  const rows = await db.query<DeliveryRow & { request_id: string | null; batch_id: string | null; url: string | null }>(
    `SELECT d.*, coalesce(r.webhook_url, b.webhook_url, e.webhook_url) AS url
     FROM webhook_deliveries d
     LEFT JOIN shorts_requests r ON r.id = d.request_id
     LEFT JOIN shorts_batches b ON b.id = d.batch_id
     -- An account event's delivery (credits.low, a watch's events) went to the event's URL; it has no request or
     -- batch to take one from.
     LEFT JOIN webhook_events e ON e.id = d.event_id
     WHERE ${where.join(' AND ')}
     ORDER BY d.id DESC LIMIT $${params.length}`,
    params,
  );
  const page = rows.slice(0, options.limit);
  return {
    deliveries: page.map((d) => ({
      ...attemptOf(d),
      requestId: d.request_id,
      batchId: d.batch_id,
      url: d.url ?? '',
      gaveUp: d.outcome === 'failed' && d.next_attempt_at === null,
    })),
    nextCursor: rows.length > options.limit ? encodeDeliveryCursor(Number(page.at(-1)!.id)) : null,
  };
}
