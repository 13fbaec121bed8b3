// Paged reading of a stored result: webhook requests keep their whole result body, and so do
// synchronous requests sent with store: true. GET /api/youtube/shorts/:requestId/items reads it
// page by page, for RESULT_RETENTION_DAYS after the request completed; then 410. Pages are read by
// key from stored_result_items (one row per short, migration 022), never by slicing the result's
// jsonb: the last page of 5,000 shorts costs what the first does.
import type { Queryable } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import type { Channel, Short } from '../../contract/shorts.ts';
import type { ItemsPage } from '../../contract/batches.ts';

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 100;
const DAY_MS = 86_400_000;

export interface PageInput {
  accountId: string;
  requestId: string;
  cursor?: string;
  pageSize: number;
  retentionDays: number;
  now: number;
}

/** The API's ItemsPage shape (contract/batches.ts). */
export type ResultPage = ItemsPage;

/**
 * Opaque to callers: base64url of the request it belongs to and the position of the last short handed out (the
 * next page is the positions after it).
 */
export function encodeCursor(requestId: string, offset: number): string {
  return Buffer.from(JSON.stringify({ r: requestId, o: offset }), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string, requestId: string): number {
  const bad = () =>
    new AppError(
      'VALIDATION_FAILED',
      'cursor is not valid for this request: pass the nextCursor of a previous page of this same request ' +
        'unchanged, or leave cursor out to start at the first page.',
    );
  let parsed: unknown;
  try {
    parsed = /^[A-Za-z0-9_-]{1,200}$/.test(cursor)
      ? JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
      : undefined;
  } catch {
    throw bad();
  }
  const { r, o } = (parsed ?? {}) as { r?: unknown; o?: unknown };
  if (r !== requestId || typeof o !== 'number' || !Number.isSafeInteger(o) || o < 1) throw bad();
  return o;
}

export function expiresAt(completedAt: Date, retentionDays: number): Date {
  return new Date(completedAt.getTime() + retentionDays * DAY_MS);
}

export async function readResultPage(db: Queryable, input: PageInput): Promise<ResultPage> {
  const { requestId, pageSize } = input;
  if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    throw new AppError(
      'VALIDATION_FAILED',
      `pageSize must be a whole number from 1 to ${MAX_PAGE_SIZE}; got ${pageSize}.`,
    );
  }
  const offset = input.cursor === undefined || input.cursor === '' ? 0 : decodeCursor(input.cursor, requestId);
  // By key: the page is the positions after the cursor's (an index range, the same cost on every page), and only
  // a request of this account is read at all, so another account's id answers as fast as an unknown one.
  const [row] = await db.query<{
    status: string;
    completed_at: Date | null;
    stored: boolean;
    total: number | null;
    channel: Channel | null;
    page: Short[] | null;
  }>(
    `SELECT r.status, r.completed_at, s.request_id IS NOT NULL AS stored, s.total, s.channel,
            CASE WHEN s.request_id IS NOT NULL THEN
              (SELECT coalesce(jsonb_agg(p.short ORDER BY p.position), '[]'::jsonb)
               FROM (SELECT short, position FROM stored_result_items
                     WHERE request_id = $1 AND position > $3 ORDER BY position LIMIT $4) p) END AS page
     FROM shorts_requests r LEFT JOIN stored_results s ON s.request_id = r.id
     WHERE r.id = $1 AND r.account_id = $2`,
    [requestId, input.accountId, offset, pageSize],
  );
  // Someone else's request is indistinguishable from one that does not exist.
  if (!row) throw new AppError('NOT_FOUND', `No request ${requestId}.`);
  if (row.status === 'processing')
    throw new AppError(
      'CONFLICT',
      `Request ${requestId} is still processing; its items can be read once it has completed (GET ` +
        `/api/youtube/shorts/${requestId} shows its status).`,
    );
  if (row.status === 'failed')
    throw new AppError(
      'CONFLICT',
      `Request ${requestId} failed; it has no items (GET /api/youtube/shorts/${requestId} shows why).`,
    );
  const until = expiresAt(row.completed_at!, input.retentionDays);
  if (until.getTime() <= input.now) {
    throw new AppError(
      'RESULT_EXPIRED',
      `The result of ${requestId} completed at ${row.completed_at!.toISOString()} and was kept ` +
        `for ${input.retentionDays} days (RESULT_RETENTION_DAYS), ` +
        `until ${until.toISOString()}; request the channel again.`,
    );
  }
  if (!row.stored || row.channel === null || row.total === null) {
    throw new AppError(
      'CONFLICT',
      `Request ${requestId} was answered synchronously without store: true, so its result was returned once and ` +
        'not kept. Send store: true (or use webhookUrl) to read results page by page.',
    );
  }
  if (offset > row.total)
    throw new AppError(
      'VALIDATION_FAILED',
      'cursor points past the end of this result: pass the nextCursor of a previous page unchanged.',
    );
  const shorts = row.page ?? [];
  const next = offset + shorts.length;
  return {
    success: true,
    requestId,
    data: { channel: row.channel, shorts },
    itemCount: shorts.length,
    totalItems: row.total,
    nextCursor: next < row.total ? encodeCursor(requestId, next) : null,
    retentionDays: input.retentionDays,
    expiresAt: until.toISOString(),
  };
}

/**
 * Drops stored results past retention, keeping the request's record and a summary (status, counts,
 * channel id); run periodically by worker processes. Returns how many were dropped.
 */
export async function purgeExpiredResults(db: Queryable, retentionDays: number, now: number): Promise<number> {
  const rows = await db.query(
    `UPDATE shorts_requests SET result = (result - 'data') ||
      jsonb_build_object('channelId', result->'data'->'channel'->>'id', 'channelTitle',
      result->'data'->'channel'->'snippet'->>'title', 'note',
      'The result was kept for ' || $2::int || ' days (RESULT_RETENTION_DAYS) and has been dropped.')
     WHERE result ? 'data' AND completed_at IS NOT NULL AND completed_at <= $1::timestamptz RETURNING id`,
    [new Date(now - retentionDays * DAY_MS), retentionDays],
  );
  return rows.length;
}
