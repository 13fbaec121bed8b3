// Registers the job handlers on this process's queue connection. API processes run them too unless
// RUN_WORKER=false; `npm run worker` runs a process that does nothing else.
import type { Job, JobResult, PgBoss } from 'pg-boss';
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

/**
 * Jobs fetched (and completed) by one statement (#13). On embedded PGlite every statement runs on
 * the one database thread and a fetch or completion costs about as much as the job's own work, so
 * 1,000 webhook requests spent most of their time fetching and completing jobs one at a time
 * (bench/profile-hot.ts, PROFILE_SCENARIO=async). Small, so that one slow webhook receiver (its
 * batch is completed when all its jobs are) holds back few others.
 */
export const JOBS_PER_FETCH = 5;

/** At most `concurrency` jobs of a queue run at once in this process, fetched JOBS_PER_FETCH at a time. */
export function workOptions(concurrency: number) {
  // Never more than `concurrency` at once: 7 → 2 workers of 3, 10 → 2 of 5, 12 → 3 of 4.
  const workers = Math.ceil(concurrency / JOBS_PER_FETCH);
  const batchSize = Math.floor(concurrency / workers);
  // pg-boss workers wait one polling interval after every fetch, so each of them handles at most one
  // batch a second when idle-polling; while the queue's backlog exceeds the bound they fetch
  // continuously instead. Idle polls are not free (on embedded PGlite each costs the single
  // database thread milliseconds), hence 1 s rather than the 0.5 s minimum.
  return { localConcurrency: workers, batchSize, perJobResults: true, pollingIntervalSeconds: 1, burstWhenReadyExceeds: 1, burstWhenBatchFull: true } as const;
}

/** Runs a batch's jobs side by side; each one completes or fails (and is retried) on its own. */
export async function runEach<T>(jobs: Job<T>[], run: (data: T) => Promise<void>): Promise<JobResult[]> {
  const outcomes = await Promise.allSettled(jobs.map((job) => run(job.data)));
  return outcomes.map((outcome, i) => (outcome.status === 'fulfilled' ? { id: jobs[i]!.id, status: 'completed' } : { id: jobs[i]!.id, status: 'failed', output: outcome.reason }));
}

/** Wakes this process's workers when it has just queued work for them (instead of their next poll). */
export interface WorkerWakers {
  fetchesQueued(): void;
  watchChecks(): void;
  deliveriesQueued(): void;
}

export async function startWorkers(deps: WorkerDeps): Promise<WorkerWakers> {
  // Work this process queues wakes the first worker of the queue at once (pg-boss notifyWorker; a
  // busy worker skips its next poll delay instead): accepted requests, a settled request's delivery
  // and retries when they fall due. NOTIFY-based waking was tried and dropped: pg-boss wakes every
  // worker of a queue per job, a thundering herd on PGlite. Work queued by other processes is
  // found by polling.
  const options = workOptions(deps.concurrency);
  // Jobs may run before both workers are registered: until then there is no delivery worker to wake.
  let deliveryWorker: string | undefined;
  const wakeDelivery = () => {
    if (deliveryWorker) deps.boss.notifyWorker(deliveryWorker);
  };
  const delivery: DeliveryDeps = {
    ...deps.delivery,
    onRetryScheduled: (seconds) => setTimeout(wakeDelivery, seconds * 1000 + 100).unref(),
  };
  // A settled request may have queued its batch's batch.completed summary: wake the delivery worker for it.
  const fetchWorker = await deps.boss.work<{ requestId: string }>(QUEUES.shortsFetch, options, (jobs) =>
    runEach(jobs, async (data) => {
      if ((await runShortsFetchJob({ ...deps, delivery }, data.requestId)) === 'settled') wakeDelivery();
    }),
  );
  // A check that recorded an event wakes the delivery worker: push notifications should not wait
  // two polling intervals (check, then delivery) on their way to the customer.
  const watchWorker = await deps.boss.work<WatchCheckJob>(QUEUES.watchCheck, options, (jobs) =>
    runEach(jobs, async (data) => {
      const result = await runWatchCheckJob(deps.watches, data);
      if (result.outcome === 'ok' ? result.newShorts > 0 : result.outcome === 'paused') wakeDelivery();
    }),
  );
  deliveryWorker = await deps.boss.work<DeliveryJob>(QUEUES.webhookDelivery, options, (jobs) => runEach(jobs, (data) => runDeliveryJob(delivery, data)));
  return { fetchesQueued: () => deps.boss.notifyWorker(fetchWorker), watchChecks: () => deps.boss.notifyWorker(watchWorker), deliveriesQueued: wakeDelivery };
}
