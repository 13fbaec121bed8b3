// The worker side of a webhook request: fetch, charge and record it (processQueuedRequest), then make
// the webhook's first attempt in the same job.
//
// The first attempt used to be a job of its own, queued in the settling transaction. On embedded
// PGlite every job costs an insert, a fetch and a completion on the one database thread: a second
// job per webhook was a fifth of the statements of 1,000 webhook requests. Now the fetch job stays
// active until its first attempt is recorded, so "settled" and "will be delivered" are still one
// fact: a process that dies in between leaves the fetch job active, pg-boss retries it once its
// heartbeat lapses, and the retry finds the request settled and makes the attempt that was not
// recorded (readyToSend skips one that was, so nothing is sent twice after a recorded attempt).
// Later attempts (retries) and redeliveries are delivery jobs, as are batch.completed summaries.
import type { PgBoss } from 'pg-boss';
import { AppError } from '../errors.ts';
import { processQueuedRequest, type ShortsRequestDeps } from '../domain/requests/shorts-requests.ts';
import { settleBatchItem } from '../domain/requests/batches.ts';
import { enqueueDelivery, runDeliveryJob, type DeliveryDeps } from './webhook-delivery-job.ts';

export interface FetchJobDeps {
  boss: PgBoss;
  shortsRequests: ShortsRequestDeps;
  delivery: DeliveryDeps;
}

/**
 * `settled`: what this run found and did (processQueuedRequest); `summaryQueued`: settling the last
 * item of a batch queued its batch.completed summary, a delivery job (the caller wakes that worker).
 * `giveUp`: the job used up its retries; the request is settled as failed with that error.
 */
export async function runShortsFetchJob(
  deps: FetchJobDeps,
  requestId: string,
  giveUp?: AppError,
): Promise<{ settled: 'settled' | 'already-settled' | 'missing'; summaryQueued: boolean }> {
  let summaryQueued = false;
  const { state, settledRow } = await processQueuedRequest(
    deps.shortsRequests,
    requestId,
    async (tx, request) => {
      summaryQueued = await settleBatchItem(tx, request.batchId, (batchId) =>
        enqueueDelivery(deps.boss, tx, { batchId, attempt: 1 }),
      );
    },
    giveUp,
  );
  // A request this run settled is delivered from what its settling statement returned; one settled
  // before (a retried job) reads what to send, and whether this attempt was made already.
  if (state !== 'missing') await runDeliveryJob(deps.delivery, { requestId, attempt: 1 }, settledRow);
  return { settled: state, summaryQueued };
}

/** What a webhook request whose fetch job used up its retries fails with (QUEUES.shortsFetchGaveUp). */
export const GAVE_UP = new AppError(
  'INTERNAL_ERROR',
  'The request failed on our side each time it was tried (for about an hour); nothing was charged. Send it again.',
);
