// The worker side of a webhook request: fetch, charge and record it (processQueuedRequest), and in
// the same transaction queue its webhook — and, for the last item of a batch to settle, the
// batch.completed summary — so "settled" and "delivery queued" are one fact.
import type { PgBoss } from 'pg-boss';
import { processQueuedRequest, type ShortsRequestDeps } from '../domain/requests/shorts-requests.ts';
import { settleBatchItem } from '../domain/requests/batches.ts';
import { enqueueDelivery } from './webhook-delivery-job.ts';

/** 'settled': this run settled the request and queued its delivery. */
export async function runShortsFetchJob(deps: { boss: PgBoss; shortsRequests: ShortsRequestDeps }, requestId: string): Promise<'settled' | 'already-settled' | 'missing'> {
  return processQueuedRequest(deps.shortsRequests, requestId, async (tx, request) => {
    await enqueueDelivery(deps.boss, tx, { requestId, attempt: 1 });
    await settleBatchItem(tx, request.batchId, (batchId) => enqueueDelivery(deps.boss, tx, { batchId, attempt: 1 }));
  });
}
