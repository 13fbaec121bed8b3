// The requests log: an account's requests, filtered and read in keyset pages, each with the
// key that made it and, for webhook requests, the state of its delivery. A page is one index range
// scan on (account_id, created_at DESC, id DESC) plus, per row, the request's latest attempt.
import { decodeKeysetCursor, encodeKeysetCursor } from './keyset-cursor.ts';
import type { Queryable } from '../../infra/db/database.ts';
import type { DeliveryState, DeliveryStatus, RequestLogEntry } from '../../contract/requests-log.ts';
import { summarise, type RequestRow, type RequestStatus } from './request-store.ts';

// The shapes are the contract's (src/contract/requests-log.ts).
export type { DeliveryState, DeliveryStatus, RequestLogEntry };

export interface RequestLogFilter {
  status?: RequestStatus;
  mode?: 'sync' | 'webhook';
  /** An API key id, or 'session' for requests made with a dashboard session. */
  key?: string;
  /** Text anywhere in the channel address (case-insensitive). */
  channel?: string;
  /** created_at ≥ from, < to. */
  from?: Date;
  to?: Date;
  delivery?: DeliveryState;
}

type LogRow = RequestRow & {
  created_micros: string | number;
  key_name: string | null;
  key_prefix: string | null;
  d_outcome: 'delivered' | 'failed' | 'gone' | null;
  d_next: Date | null;
  d_at: Date | null;
  d_status: number | null;
  d_attempt: number | null;
};

const DELIVERY_CONDITION: Record<DeliveryState, string> = {
  pending: 'd.outcome IS NULL',
  delivered: `d.outcome = 'delivered'`,
  gone: `d.outcome = 'gone'`,
  retrying: `d.outcome = 'failed' AND d.next_attempt_at IS NOT NULL`,
  failed: `d.outcome = 'failed' AND d.next_attempt_at IS NULL`,
};

/** LIKE pattern for "contains": the caller's %, _ and \ match themselves. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listRequestLog(
  db: Queryable,
  accountId: string,
  options: { limit: number; cursor?: string; filter?: RequestLogFilter; retrySchedule?: number[] },
): Promise<{ requests: RequestLogEntry[]; nextCursor: string | null }> {
  const filter = options.filter ?? {};
  const params: unknown[] = [accountId];
  const where = ['r.account_id = $1'];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (filter.status) add((p) => `r.status = ${p}`, filter.status);
  if (filter.mode) add((p) => `r.mode = ${p}`, filter.mode);
  if (filter.key === 'session') where.push('r.api_key_id IS NULL');
  else if (filter.key) add((p) => `r.api_key_id = ${p}::uuid`, filter.key);
  if (filter.channel) add((p) => `r.channel_url ILIKE ${p}`, containsPattern(filter.channel));
  if (filter.from) add((p) => `r.created_at >= ${p}`, filter.from);
  if (filter.to) add((p) => `r.created_at < ${p}`, filter.to);
  if (filter.delivery) where.push(`r.mode = 'webhook' AND ${DELIVERY_CONDITION[filter.delivery]}`);
  if (options.cursor) {
    const position = decodeKeysetCursor(options.cursor, 'req');
    params.push(position.createdMicros.toString(), position.id);
    where.push(
      `(r.created_at, r.id) < (timestamptz 'epoch' + $${params.length - 1}::bigint * interval '1 ` +
        `microsecond', $${params.length})`,
    );
  }
  params.push(options.limit + 1);
  const rows = await db.query<LogRow>(
    `SELECT r.id, r.account_id, r.api_key_id, r.channel_url, r.oldest_date, r.item_limit, r.webhook_url, r.mode,
      r.status, r.item_count, r.credits_charged,
            r.error_code, r.created_at, r.completed_at, r.options, r.batch_id,
            (extract(epoch FROM r.created_at) * 1000000)::bigint AS created_micros,
            k.name AS key_name, k.prefix AS key_prefix,
            d.outcome AS d_outcome, d.next_attempt_at AS d_next, d.started_at AS d_at, d.status_code AS d_status,
              d.attempt AS d_attempt
     FROM shorts_requests r
     LEFT JOIN api_keys k ON k.id = r.api_key_id
     LEFT JOIN LATERAL (
       SELECT outcome, next_attempt_at, started_at, status_code, attempt FROM webhook_deliveries w
         WHERE w.request_id = r.id ORDER BY w.id DESC LIMIT 1
     ) d ON r.mode = 'webhook'
     WHERE ${where.join(' AND ')}
     ORDER BY r.created_at DESC, r.id DESC
     LIMIT $${params.length}`,
    params,
  );
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    requests: page.map((row) => entryOf(row, options.retrySchedule ?? [])),
    nextCursor:
      rows.length > options.limit && last
        ? encodeKeysetCursor({ createdMicros: BigInt(last.created_micros), id: last.id })
        : null,
  };
}

function entryOf(row: LogRow, schedule: number[]): RequestLogEntry {
  return {
    ...summarise(row),
    apiKey: row.api_key_id
      ? { id: row.api_key_id, name: row.key_name ?? '(deleted key)', prefix: row.key_prefix ?? '' }
      : null,
    delivery: row.mode === 'webhook' ? deliveryStatusOf(row, schedule) : null,
  };
}

/** Latest end of the retry schedule after attempt `attempt` failed and the next is due at `next`. */
export function retriesEndBy(schedule: number[], attempt: number, next: Date): Date {
  // Attempt n + 1 is due at `next`; the delays before attempts n + 2 … are schedule[n …].
  const remainingSeconds = schedule.slice(attempt).reduce((sum, s) => sum + s * 1.2, 0);
  return new Date(next.getTime() + Math.ceil(remainingSeconds) * 1000);
}

function deliveryStatusOf(row: LogRow, schedule: number[]): DeliveryStatus {
  const state: DeliveryState =
    row.d_outcome === null
      ? 'pending'
      : row.d_outcome === 'failed'
        ? row.d_next
          ? 'retrying'
          : 'failed'
        : row.d_outcome;
  return {
    state,
    // Attempt numbers are consecutive per request (redeliveries continue the count).
    attempts: row.d_attempt ?? 0,
    lastAttemptAt: row.d_at?.toISOString() ?? null,
    lastStatusCode: row.d_status ?? null,
    nextAttemptAt: row.d_next?.toISOString() ?? null,
    retryingUntil:
      state === 'retrying' && row.d_next ? retriesEndBy(schedule, row.d_attempt ?? 1, row.d_next).toISOString() : null,
  };
}
