// The account's batches, newest first, in keyset pages: each with its progress counts and charge,
// read in one query (the items' statuses are grouped per batch), for the dashboard's Batches page.
import { decodeKeysetCursor, encodeKeysetCursor } from './keyset-cursor.ts';
import type { Queryable } from '../../infra/db/database.ts';
import type { BatchListEntry } from '../../contract/batches.ts';

interface BatchListRow {
  id: string;
  webhook_url: string;
  created_at: Date;
  completed_at: Date | null;
  created_micros: string | number;
  total: number;
  processing: number;
  completed: number;
  failed: number;
  credits: number;
}

export async function listBatches(
  db: Queryable,
  accountId: string,
  options: { limit: number; cursor?: string },
): Promise<{ batches: BatchListEntry[]; nextCursor: string | null }> {
  const params: unknown[] = [accountId];
  let after = '';
  if (options.cursor) {
    const position = decodeKeysetCursor(options.cursor, 'bat');
    params.push(position.createdMicros.toString(), position.id);
    after = `AND (b.created_at, b.id) < (timestamptz 'epoch' + $2::bigint * interval '1 microsecond', $3)`;
  }
  params.push(options.limit + 1);
  const rows = await db.query<BatchListRow>(
    `SELECT b.id, b.webhook_url, b.created_at, b.completed_at,
            (extract(epoch FROM b.created_at) * 1000000)::bigint AS created_micros,
            count(r.id)::int AS total,
            count(r.id) FILTER (WHERE r.status = 'processing')::int AS processing,
            count(r.id) FILTER (WHERE r.status = 'completed')::int AS completed,
            count(r.id) FILTER (WHERE r.status = 'failed')::int AS failed,
            coalesce(sum(r.credits_charged), 0)::int AS credits
     FROM shorts_batches b LEFT JOIN shorts_requests r ON r.batch_id = b.id
     WHERE b.account_id = $1 ${after}
     GROUP BY b.id, b.webhook_url, b.created_at, b.completed_at
     ORDER BY b.created_at DESC, b.id DESC
     LIMIT $${params.length}`,
    params,
  );
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    batches: page.map(entryOf),
    nextCursor:
      rows.length > options.limit && last
        ? encodeKeysetCursor({ createdMicros: BigInt(last.created_micros), id: last.id })
        : null,
  };
}

function entryOf(row: BatchListRow): BatchListEntry {
  return {
    batchId: row.id,
    status: row.completed_at ? 'completed' : 'processing',
    webhookUrl: row.webhook_url,
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
    counts: { total: row.total, processing: row.processing, completed: row.completed, failed: row.failed },
    creditsCharged: row.credits,
  };
}
