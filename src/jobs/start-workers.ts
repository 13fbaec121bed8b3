// Registers the job handlers on this process's queue connection. API processes run them too unless
// RUN_WORKER=false; `npm run worker` runs a process that does nothing else.
import type { PgBoss } from 'pg-boss';
import { QUEUES } from '../infra/queue.ts';
import type { ShortsRequestDeps } from '../domain/requests/shorts-requests.ts';
import { runDeliveryJob, type DeliveryDeps, type DeliveryJob } from './webhook-delivery-job.ts';
import { runShortsFetchJob } from './shorts-fetch-job.ts';
import { runWatchCheckJob } from './watch-check-job.ts';
import type { WatchCheckDeps } from '../domain/watches/watch-check.ts';
import type { WatchCheckJob } from '../domain/watches/scheduler.ts';

export interface WorkerDeps {
  boss: PgBoss;
  shortsRequests: ShortsRequestDeps;
  delivery: DeliveryDeps;
  watches: WatchCheckDeps;
  concurrency: number;
}

/** Wakes this process's workers for work it just queued (instead of waiting for their next poll). */
export interface WorkerWake {
  watchChecks(): void;
}

export async function startWorkers(deps: WorkerDeps): Promise<WorkerWake> {
  // pg-boss workers wait one polling interval after every fetch, so each of them handles at most one
  // job a second when idle-polling; while the queue's backlog exceeds the bound they fetch
  // continuously instead. Idle polls are not free (on embedded PGlite each costs the single
  // database thread milliseconds), hence 1 s rather than the 0.5 s minimum. Retries this process
  // schedules wake a worker when they fall due (below). NOTIFY-based waking was tried and dropped:
  // pg-boss wakes every worker of a queue per job, a thundering herd on PGlite.
  const options = { localConcurrency: deps.concurrency, pollingIntervalSeconds: 1, burstWhenReadyExceeds: 1, batchSize: 1 } as const;
  await deps.boss.work<{ requestId: string }>(QUEUES.shortsFetch, options, async ([job]) => {
    if (!job) return;
    await runShortsFetchJob(deps, job.data.requestId);
  });
  const delivery: DeliveryDeps = {
    ...deps.delivery,
    onRetryScheduled: (seconds) => setTimeout(() => deps.boss.notifyWorker(deliveryWorker), seconds * 1000 + 100).unref(),
  };
  // A check that recorded an event wakes the delivery worker: push notifications should not wait
  // two polling intervals (check, then delivery) on their way to the customer.
  const watchWorker = await deps.boss.work<WatchCheckJob>(QUEUES.watchCheck, options, async ([job]) => {
    if (!job) return;
    const result = await runWatchCheckJob(deps.watches, job.data);
    if (result.outcome === 'ok' ? result.newShorts > 0 : result.outcome === 'paused') deps.boss.notifyWorker(deliveryWorker);
  });
  const deliveryWorker = await deps.boss.work<DeliveryJob>(QUEUES.webhookDelivery, options, async ([job]) => {
    if (!job) return;
    await runDeliveryJob(delivery, job.data);
  });
  return { watchChecks: () => deps.boss.notifyWorker(watchWorker) };
}
