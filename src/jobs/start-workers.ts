// Registers the job handlers on this process's queue connection. API processes run them too unless
// RUN_WORKER=false; `npm run worker` runs a process that does nothing else.
import type { PgBoss } from 'pg-boss';
import { QUEUES } from '../infra/queue.ts';
import { processQueuedRequest, type ShortsRequestDeps } from '../domain/requests/shorts-requests.ts';
import { enqueueDelivery, runDeliveryJob, type DeliveryDeps, type DeliveryJob } from './webhook-delivery-job.ts';

export interface WorkerDeps {
  boss: PgBoss;
  shortsRequests: ShortsRequestDeps;
  delivery: DeliveryDeps;
  concurrency: number;
}

export async function startWorkers(deps: WorkerDeps): Promise<void> {
  const options = { localConcurrency: deps.concurrency, pollingIntervalSeconds: 0.5, batchSize: 1 } as const;
  await deps.boss.work<{ requestId: string }>(QUEUES.shortsFetch, options, async ([job]) => {
    if (!job) return;
    await processQueuedRequest(deps.shortsRequests, job.data.requestId, (tx) => enqueueDelivery(deps.boss, tx, { requestId: job.data.requestId, attempt: 1 }));
  });
  await deps.boss.work<DeliveryJob>(QUEUES.webhookDelivery, options, async ([job]) => {
    if (!job) return;
    await runDeliveryJob(deps.delivery, job.data);
  });
}
