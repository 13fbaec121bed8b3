// Batches: up to 50 webhook requests accepted together. Each item is an ordinary webhook
// request (own requestId, result, charge, reservation and shorts.completed/shorts.failed webhook);
// the batch adds one `batch.completed` summary webhook once every item has settled.
//
// Acceptance is all or nothing: the items are recorded, reserved and enqueued in one transaction,
// so a balance that cannot reserve every item's minimum refuses the whole batch with 402 and
// nothing is recorded, reserved or charged.
import type { Queryable, Transaction } from '../../infra/db/database.ts';
import { AppError, isAppError } from '../../errors.ts';
import { acceptWebhookRequest, checkRequest, type ShortsRequestDeps } from './shorts-requests.ts';
import type { NewRequest, RequestStatus } from './request-store.ts';
import type { BatchSummary } from '../../contract/batches.ts';

export const MAX_BATCH_ITEMS = 50;

export interface NewBatch {
  id: string;
  accountId: string;
  webhookUrl: string;
  /** Each with its own id, the batch's webhookUrl and batchId. */
  items: NewRequest[];
}

/** Checks every item, then accepts all of them in one transaction (or none: 402 for the batch). */
export async function submitBatch(
  deps: ShortsRequestDeps,
  batch: NewBatch,
  enqueue: (tx: Transaction, requestId: string) => Promise<void>,
): Promise<void> {
  if (batch.items.length < 1 || batch.items.length > MAX_BATCH_ITEMS) {
    throw new AppError('VALIDATION_FAILED', `A batch holds 1 to ${MAX_BATCH_ITEMS} items; got ${batch.items.length}.`);
  }
  batch.items.forEach((item, i) => {
    try {
      checkRequest(deps, item);
    } catch (error) {
      if (isAppError(error))
        throw new AppError(error.code, `items[${i}]: ${error.message}`, { headers: error.headers });
      throw error;
    }
  });
  await deps.db.transaction(async (tx) => {
    const [account] = await tx.query<{ credit_balance: number; credits_reserved: number }>(
      'SELECT credit_balance, credits_reserved FROM accounts WHERE id = $1 FOR UPDATE',
      [batch.accountId],
    );
    await tx.query('INSERT INTO shorts_batches (id, account_id, webhook_url, item_count) VALUES ($1, $2, $3, $4)', [
      batch.id,
      batch.accountId,
      batch.webhookUrl,
      batch.items.length,
    ]);
    for (const item of batch.items) {
      try {
        await acceptWebhookRequest(deps, tx, item, (t) => enqueue(t, item.id));
      } catch (error) {
        if (!isAppError(error) || error.code !== 'INSUFFICIENT_CREDITS') throw error;
        const each = Math.max(1, deps.pricing.minimumCredits);
        const held = account?.credits_reserved ?? 0;
        const available = Math.max(0, (account?.credit_balance ?? 0) - held);
        throw new AppError(
          'INSUFFICIENT_CREDITS',
          `A batch is accepted whole or not at all: each of its ${batch.items.length} items reserves at ` +
            `least ${each} credit${each === 1 ? '' : 's'} when accepted, ${batch.items.length * each} in ` +
            `all; ${available} available${held > 0 ? ` (${held} held by requests in progress)` : ''}. Nothing was ` +
            'accepted; send fewer items or add credits.',
        );
      }
    }
  });
}

/**
 * Runs in the transaction that settles a request (after its row is settled): when it was the last
 * unsettled item of its batch, marks the batch completed and calls `onCompleted` (which queues the
 * summary webhook) in the same transaction. The batch row is locked first, so of two items settling
 * at once the second sees the first's settlement and exactly one completes the batch.
 */
export async function settleBatchItem(
  tx: Queryable,
  batchId: string | null | undefined,
  onCompleted: (batchId: string) => Promise<void>,
): Promise<boolean> {
  if (!batchId) return false;
  const [open] = await tx.query('SELECT id FROM shorts_batches WHERE id = $1 AND completed_at IS NULL FOR UPDATE', [
    batchId,
  ]);
  if (!open) return false;
  const [pending] = await tx.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM shorts_requests WHERE batch_id = $1 AND status = 'processing'",
    [batchId],
  );
  if ((pending?.n ?? 0) > 0) return false;
  await tx.query('UPDATE shorts_batches SET completed_at = now() WHERE id = $1', [batchId]);
  await onCompleted(batchId);
  return true;
}

export interface BatchRow {
  id: string;
  account_id: string;
  webhook_url: string;
  item_count: number;
  created_at: Date;
  completed_at: Date | null;
}

export type { BatchSummary };

export async function findBatch(db: Queryable, batchId: string): Promise<BatchRow | undefined> {
  const [row] = await db.query<BatchRow>('SELECT * FROM shorts_batches WHERE id = $1', [batchId]);
  return row;
}

export async function summariseBatch(db: Queryable, batch: BatchRow): Promise<BatchSummary> {
  const rows = await db.query<{
    id: string;
    channel_url: string;
    status: RequestStatus;
    item_count: number | null;
    credits_charged: number | null;
    error_code: string | null;
  }>(
    'SELECT id, channel_url, status, item_count, credits_charged, error_code FROM shorts_requests ' +
      'WHERE batch_id = $1 ORDER BY id',
    [batch.id],
  );
  // Items are recorded in their order in the batch; ids are time-ordered but may share a millisecond.
  const items = rows.map((r) => ({
    requestId: r.id,
    channelUrl: r.channel_url,
    status: r.status,
    itemCount: r.item_count,
    creditsCharged: r.credits_charged,
    error: r.error_code,
  }));
  const count = (status: RequestStatus) => items.filter((i) => i.status === status).length;
  return {
    batchId: batch.id,
    status: batch.completed_at ? 'completed' : 'processing',
    webhookUrl: batch.webhook_url,
    createdAt: batch.created_at.toISOString(),
    completedAt: batch.completed_at?.toISOString() ?? null,
    counts: {
      total: items.length,
      processing: count('processing'),
      completed: count('completed'),
      failed: count('failed'),
    },
    creditsCharged: items.reduce((sum, i) => sum + (i.creditsCharged ?? 0), 0),
    items,
  };
}

/** The body of the batch.completed webhook: built from stored rows, so every attempt sends identical bytes. */
export async function batchWebhookPayload(db: Queryable, batch: BatchRow): Promise<string> {
  return JSON.stringify({
    type: 'batch.completed',
    timestamp: (batch.completed_at ?? batch.created_at).toISOString(),
    data: await summariseBatch(db, batch),
  });
}
