// The record of every shorts request: what was asked, its outcome, and (for webhook requests) the
// body that is delivered. Synchronous results are returned once and kept only as a summary.
import type { Queryable } from '../../infra/db/database.ts';
import { groupRead } from '../../infra/db/group-commit.ts';
import type { ShortsSort } from '../shorts/sorting.ts';
import type { RequestSummary } from '../../contract/shorts.ts';
import type { UsageDay } from '../../contract/accounts.ts';

export type RequestStatus = 'processing' | 'completed' | 'failed';

export interface NewRequest {
  id: string;
  accountId: string;
  apiKeyId: string | null;
  channelUrl: string;
  oldestDate: number | null;
  /** The caller's `limit`, or null. */
  limit: number | null;
  /** What to do when every Data API key is spent (null: the default, stale-ok). */
  freshness?: 'stale-ok' | 'exact' | null;
  webhookUrl: string | null;
  /** Sort and duration filters; absent or null = newest first, no filter. */
  options?: RequestOptions | null;
  /** The batch this webhook request belongs to. */
  batchId?: string | null;
  /** Synchronous request: keep the whole result for GET …/items. Not stored: the kept result says it. */
  store?: boolean;
}

export interface RequestOptions {
  sort?: ShortsSort;
  minDurationSeconds?: number;
  maxDurationSeconds?: number;
  /** The most credits the caller allows this request to cost (its `maxCredits`). */
  maxCredits?: number;
  /** "growth": each short carries its growth from stored snapshots. */
  include?: Array<'growth'>;
  /** The door the call came through when it is not the REST API (absent: 'api'). */
  via?: 'mcp';
  /** A webhook request whose shorts.completed is sent thin (the request's or the account's choice); absent: full. */
  webhookPayload?: 'thin';
}

/** The door a recorded request came through. */
export const viaOf = (options: RequestOptions | null | undefined): 'api' | 'mcp' => options?.via ?? 'api';

/** The options worth recording: null when the request asked for none. */
export function recordedOptions(options: RequestOptions | null | undefined): RequestOptions | null {
  const kept = Object.entries(options ?? {}).filter(([, v]) => v !== undefined);
  return kept.length > 0 ? (Object.fromEntries(kept) as RequestOptions) : null;
}

/** The same, as a jsonb parameter. */
export function optionsParam(options: RequestOptions | null | undefined): string | null {
  const kept = recordedOptions(options);
  return kept ? JSON.stringify(kept) : null;
}

export interface RequestRow {
  id: string;
  account_id: string;
  api_key_id: string | null;
  channel_url: string;
  oldest_date: number | string | null;
  item_limit: number | null;
  freshness: 'stale-ok' | 'exact' | null;
  webhook_url: string | null;
  mode: 'sync' | 'webhook';
  status: RequestStatus;
  http_status: number | null;
  item_count: number | null;
  credits_charged: number | null;
  error_code: string | null;
  result: unknown;
  quota_units: number | null;
  created_at: Date;
  completed_at: Date | null;
  options: RequestOptions | null;
  batch_id: string | null;
}

export interface Outcome {
  status: Exclude<RequestStatus, 'processing'>;
  httpStatus: number;
  itemCount: number | null;
  creditsCharged: number | null;
  errorCode: string | null;
  result: unknown;
  quotaUnits: number | null;
}

export async function insertRequest(db: Queryable, request: NewRequest, outcome?: Outcome): Promise<void> {
  await db.query(
    `INSERT INTO shorts_requests (id, account_id, api_key_id, channel_url, oldest_date, webhook_url, mode, status,
      http_status, item_count, credits_charged, error_code, result, quota_units, item_limit, freshness, options,
      batch_id, completed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, CASE
       WHEN $8 = 'processing' THEN NULL ELSE now() END)`,
    [
      request.id,
      request.accountId,
      request.apiKeyId,
      request.channelUrl,
      request.oldestDate,
      request.webhookUrl,
      request.webhookUrl ? 'webhook' : 'sync',
      outcome?.status ?? 'processing',
      outcome?.httpStatus ?? null,
      outcome?.itemCount ?? null,
      outcome?.creditsCharged ?? null,
      outcome?.errorCode ?? null,
      outcome ? JSON.stringify(outcome.result) : null,
      outcome?.quotaUnits ?? null,
      request.limit,
      request.freshness ?? null,
      optionsParam(request.options),
      request.batchId ?? null,
    ],
  );
}

/** Settles a processing request once; returns false when it was already settled (a retried job). */
export async function settleRequest(db: Queryable, id: string, outcome: Outcome): Promise<boolean> {
  return (await settleRequests(db, [{ id, outcome }])).has(id);
}

/**
 * A settlement's outcome as written to its request: the columns of a jsonb_to_recordset row
 * (`OUTCOME_COLUMNS`), the SET list reading them from that row (`outcomeSetSql`) and the row's
 * fields (`outcomeFields`). Shared by settleRequests and the queued settlements' one statement.
 */
export const OUTCOME_COLUMNS =
  'status text, http_status int, item_count int, credits_charged int, error_code text, result jsonb, quota_units int';
export const outcomeSetSql = (row: string) =>
  `status = ${row}.status, http_status = ${row}.http_status, item_count = ${row}.item_count,
   credits_charged = ${row}.credits_charged, error_code = ${row}.error_code, result = ${row}.result,
   quota_units = ${row}.quota_units, completed_at = now()`;
export const outcomeFields = (outcome: Outcome) => ({
  status: outcome.status,
  http_status: outcome.httpStatus,
  item_count: outcome.itemCount,
  credits_charged: outcome.creditsCharged,
  error_code: outcome.errorCode,
  result: outcome.result,
  quota_units: outcome.quotaUnits,
});

/** Settles processing requests once, in one statement; returns the ids it changed (others were settled already). */
export async function settleRequests(
  db: Queryable,
  settlements: Array<{ id: string; outcome: Outcome }>,
): Promise<Set<string>> {
  if (settlements.length === 0) return new Set();
  const rows = await db.query<{ id: string }>(
    `UPDATE shorts_requests s SET ${outcomeSetSql('x')}
     FROM jsonb_to_recordset($1::jsonb) AS x(id text, ${OUTCOME_COLUMNS})
     WHERE s.id = x.id AND s.status = 'processing'
     RETURNING s.id`,
    [JSON.stringify(settlements.map(({ id, outcome }) => ({ id, ...outcomeFields(outcome) })))],
  );
  return new Set(rows.map((row) => row.id));
}

/**
 * `withResult: false` leaves the stored result out (null): a webhook result holds the whole body
 * (125 KB for 100 shorts), and reading and parsing it where it is not needed was the largest single
 * cost of the queued fetch on embedded PGlite.
 */
export async function findRequest(
  db: Queryable,
  id: string,
  { withResult = true } = {},
): Promise<RequestRow | undefined> {
  const [row] = await db.query<RequestRow>(
    withResult
      ? 'SELECT * FROM shorts_requests WHERE id = $1'
      : `SELECT ${COLUMNS_BUT_RESULT}, NULL AS result FROM shorts_requests WHERE id = $1`,
    [id],
  );
  return row;
}
const COLUMNS_BUT_RESULT =
  'id, account_id, api_key_id, channel_url, oldest_date, item_limit, freshness, webhook_url, mode, status, ' +
  'http_status, item_count, credits_charged, error_code, quota_units, created_at, completed_at, options, batch_id';

/**
 * findRequest without the result, for the fetch jobs: the jobs running at the same moment
 * read their requests in one statement (groupRead) instead of one statement each.
 */
export function createQueuedRequestReader(
  db: Queryable,
  maxGroup = 100,
): (id: string) => Promise<RequestRow | undefined> {
  return groupRead<string, RequestRow>(
    maxGroup,
    (id) => id,
    async (ids) => {
      const rows = await db.query<RequestRow>(
        `SELECT ${COLUMNS_BUT_RESULT}, NULL AS result FROM shorts_requests WHERE id = ANY($1::text[])`,
        [ids],
      );
      return new Map(rows.map((row) => [row.id, row]));
    },
  );
}

export type { RequestSummary };

export function summarise(row: RequestRow): RequestSummary {
  return {
    requestId: row.id,
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
    channelUrl: row.channel_url,
    oldestDate: row.oldest_date === null ? null : Number(row.oldest_date),
    limit: row.item_limit ?? null,
    webhookUrl: row.webhook_url,
    mode: row.mode,
    status: row.status,
    itemCount: row.item_count,
    creditsCharged: row.credits_charged,
    error: row.error_code,
    ...(row.options ? { options: row.options } : {}),
    via: viaOf(row.options),
    ...(row.batch_id ? { batchId: row.batch_id } : {}),
  };
}

export async function listRequests(db: Queryable, accountId: string, limit: number): Promise<RequestSummary[]> {
  const rows = await db.query<RequestRow>(
    'SELECT id, account_id, channel_url, oldest_date, item_limit, webhook_url, mode, status, item_count, ' +
      'credits_charged, error_code, created_at, completed_at, options, batch_id FROM shorts_requests ' +
      'WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2',
    [accountId, limit],
  );
  return rows.map(summarise);
}

export type { UsageDay };

/**
 * Per UTC day: the account's shorts requests, the shorts they returned, and the credits charged —
 * theirs and its watches' checks' (without the checks the figures disagreed with
 * the ledger and the statement).
 */
export async function usageByDay(
  db: Queryable,
  accountId: string,
  days: number,
  now = new Date(),
): Promise<UsageDay[]> {
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const rows = await db.query<{ day: string; requests: number; items: number; credits: number }>(
    `SELECT day, sum(requests)::int AS requests, sum(items)::int AS items, sum(credits)::int AS credits FROM (
       SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS requests,
              coalesce(sum(item_count), 0) AS items, coalesce(sum(credits_charged), 0) AS credits
       FROM shorts_requests WHERE account_id = $1 AND created_at >= $2 GROUP BY 1
       UNION ALL
       SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 0, 0, sum(credits_charged)
       FROM watch_checks WHERE account_id = $1 AND created_at >= $2 GROUP BY 1
     ) u GROUP BY day`,
    [accountId, since],
  );
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const row = byDay.get(date);
    return { date, requests: row?.requests ?? 0, items: row?.items ?? 0, credits: row?.credits ?? 0 };
  });
}

/** The account's shorts requests, and every credit charged: theirs and its watches' checks' (as usageByDay). */
export async function accountTotals(
  db: Queryable,
  accountId: string,
): Promise<{ totalRequests: number; totalCreditsCharged: number }> {
  const [row] = await db.query<{ total_requests: number; total_credits: number }>(
    `SELECT count(*)::int AS total_requests,
            (coalesce(sum(credits_charged), 0) +
              (SELECT coalesce(sum(credits_charged), 0) FROM watch_checks WHERE account_id = $1))::int AS total_credits
     FROM shorts_requests WHERE account_id = $1`,
    [accountId],
  );
  return { totalRequests: row?.total_requests ?? 0, totalCreditsCharged: row?.total_credits ?? 0 };
}
