// Registers the job handlers on this process's queue connection. API processes run them too unless
// RUN_WORKER=false; `npm run worker` runs a process that does nothing else.
import type { Job, JobResult, PgBoss } from 'pg-boss';
import { JOBS_QUEUED_CHANNEL, QUEUES } from '../infra/queue.ts';
import type { Database } from '../infra/db/database.ts';
import type { ShortsRequestDeps } from '../domain/requests/shorts-requests.ts';
import { runDeliveryJob, type DeliveryDeps, type DeliveryJob } from './webhook-delivery-job.ts';
import { GAVE_UP, runShortsFetchJob } from './shorts-fetch-job.ts';
import { runWatchCheckJob } from './watch-check-job.ts';
import { findStrandedRequests } from '../domain/operators/doctor.ts';
import type { WatchCheckDeps } from '../domain/watches/watch-check.ts';
import type { WatchCheckJob } from '../domain/watches/scheduler.ts';

export interface WorkerDeps {
  boss: PgBoss;
  shortsRequests: ShortsRequestDeps;
  delivery: DeliveryDeps;
  watches: WatchCheckDeps;
  concurrency: number;
  /** Jobs per fetch statement (JOBS_PER_FETCH of this process's store). */
  jobsPerFetch: number;
  /** The store's Database.listen (PostgreSQL): jobs other processes queue wake this one's workers. */
  listen?: Database['listen'];
  /** An idle worker was woken by jobs another process queued (a metric). */
  onWoken?: (queue: string) => void;
  /** A batch of jobs is about to run (the worker process's activity, for its idle memory release). */
  onJobs?: () => void;
}

/**
 * At most this many jobs fetched (and completed) by one statement, per store.
 * - Embedded PGlite: every statement runs on the one database thread, and the group statements of
 *   a batch (settle, record the first attempts, complete) cost little more for 20 jobs than for 5.
 *   1,000 webhook requests at WORKER_CONCURRENCY=20: 4 workers of 5, 9.2 s (21 s of statement time
 *   on the database thread); 2 of 10, 5.9-6.9 s (9-10 s); 1 of 20, 5.5-6.6 s (6 s). Two of 10 were
 *   kept (MIN_WORKERS below).
 * - PostgreSQL: statements run side by side on the server, and a settling group holds its accounts'
 *   row locks, which the API's acceptances wait for. While a group settled in a transaction of
 *   three statements, 1 API + 2 worker processes took 3.2 s with batches of 5 and 3.8-4.2 s with
 *   batches of 10 (acceptance 1.4 s against 2.7-2.9 s). Since a group is one statement (its locks
 *   held for that statement only), 10 is the faster: 2.96-3.40 s against 3.22-4.69 (three
 *   interleaved pairs of warm rounds; acceptance alike), PostgreSQL's CPU 1.66-2.05 s against 1.78-2.62.
 */
export const JOBS_PER_FETCH = { pglite: 20, postgres: 10 } as const;
/**
 * A batch completes when its slowest job does, and a fetch job waits for its webhook's first
 * attempt (a receiver may take WEBHOOK_TIMEOUT_MS): two workers at least, so one slow receiver
 * holds back at most half of a queue's jobs, never all of them.
 */
const MIN_WORKERS = 2;

/** At most `concurrency` jobs of a queue run at once in this process, in batches of at most `perFetch`. */
export function workOptions(concurrency: number, perFetch: number) {
  // Never more than `concurrency` at once. Batches of 20: 10 → 2 workers of 5, 20 → 2 of 10, 45 → 3 of 15;
  // of 10: 10 → 2 of 5, 20 → 2 of 10, 45 → 5 of 9.
  const workers = Math.min(concurrency, Math.max(MIN_WORKERS, Math.ceil(concurrency / perFetch)));
  const batchSize = Math.floor(concurrency / workers);
  // pg-boss workers wait one polling interval after every fetch, so each of them handles at most one
  // batch a second when idle-polling; while the queue's backlog exceeds the bound they fetch
  // continuously instead. Idle polls are not free (on embedded PGlite each costs the single
  // database thread milliseconds), hence 1 s rather than the 0.5 s minimum.
  return {
    localConcurrency: workers,
    batchSize,
    perJobResults: true,
    pollingIntervalSeconds: 1,
    burstWhenReadyExceeds: 1,
    burstWhenBatchFull: true,
  } as const;
}

/** Runs a batch's jobs side by side; each one completes or fails (and is retried) on its own. */
export async function runEach<T>(jobs: Job<T>[], run: (data: T) => Promise<void>): Promise<JobResult[]> {
  const outcomes = await Promise.allSettled(jobs.map((job) => run(job.data)));
  return outcomes.map((outcome, i) =>
    outcome.status === 'fulfilled'
      ? { id: jobs[i]!.id, status: 'completed' }
      : { id: jobs[i]!.id, status: 'failed', output: outcome.reason },
  );
}

/** Wakes this process's workers when it has just queued work for them (instead of their next poll). */
export interface WorkerWakers {
  fetchesQueued(): void;
  watchChecks(): void;
  deliveriesQueued(): void;
  /** Stops listening for other processes' jobs (before the queue stops). */
  stop(): Promise<void>;
}

/** Queues a dead-letter job for each request no fetch job will settle (findStrandedRequests); returns how many. */
export async function handOverStrandedRequests(boss: PgBoss, db: Database): Promise<number> {
  const stranded = await findStrandedRequests(db);
  if (stranded.length > 0)
    await boss.insert(
      QUEUES.shortsFetchGaveUp,
      stranded.map(({ id }) => ({ data: { requestId: id } })),
    );
  return stranded.length;
}

export async function startWorkers(deps: WorkerDeps): Promise<WorkerWakers> {
  // Work this process queues wakes the first worker of the queue at once (pg-boss notifyWorker; a
  // busy worker skips its next poll delay instead): accepted requests, a settled request's delivery
  // and retries when they fall due. pg-boss's own NOTIFY-based waking was tried and dropped: it woke
  // every worker of a queue per job, a thundering herd on PGlite. Fetches other processes queue
  // wake the first fetch worker when announced, on PostgreSQL only (below).
  const options = workOptions(deps.concurrency, deps.jobsPerFetch);
  const run = <T>(jobs: Job<T>[], each: (data: T) => Promise<void>) => {
    deps.onJobs?.();
    return runEach(jobs, each);
  };
  // Jobs may run before both workers are registered: until then there is no delivery worker to wake.
  let deliveryWorker: string | undefined;
  const wakeDelivery = () => {
    if (deliveryWorker) deps.boss.notifyWorker(deliveryWorker);
  };
  const delivery: DeliveryDeps = {
    ...deps.delivery,
    onRetryScheduled: (seconds) => setTimeout(wakeDelivery, seconds * 1000 + 100).unref(),
  };
  // Fetch jobs that used up their retries (pg-boss moves them to QUEUES.shortsFetchGaveUp): each
  // request is settled as failed — nothing charged, its hold released — and its webhook's first
  // attempt made, as a fetch job's would be. Rare: one worker polling every 5 s, which a fetch
  // batch with failed jobs also wakes once pg-boss has moved them.
  let gaveUpWorker: string | undefined;
  const wakeGaveUp = () => setTimeout(() => gaveUpWorker && deps.boss.notifyWorker(gaveUpWorker), 500).unref();
  // Only a batch's summary is a delivery job to wake the worker for (a request's first attempt is
  // made by its fetch job): waking it after every settlement cost an empty fetch each on PGlite.
  const fetchWorker = await deps.boss.work<{ requestId: string }>(QUEUES.shortsFetch, options, async (jobs) => {
    const results = await run(jobs, async (data) => {
      if ((await runShortsFetchJob({ ...deps, delivery }, data.requestId)).summaryQueued) wakeDelivery();
    });
    if (results.some((r) => r.status === 'failed')) wakeGaveUp();
    return results;
  });
  gaveUpWorker = await deps.boss.work<{ requestId: string }>(
    QUEUES.shortsFetchGaveUp,
    { ...options, localConcurrency: 1, pollingIntervalSeconds: 5 },
    (jobs) =>
      run(jobs, async (data) => {
        if ((await runShortsFetchJob({ ...deps, delivery }, data.requestId, GAVE_UP)).summaryQueued) wakeDelivery();
      }),
  );
  // Requests no fetch job will settle — their jobs used up their retries before the fetch queue had
  // a dead-letter queue, or the jobs were lost — are handed to the dead-letter queue now, which
  // settles each as failed (nothing charged, its hold released) and tells its webhook. Two
  // processes starting together may both hand one over: the second finds it settled.
  if ((await handOverStrandedRequests(deps.boss, deps.shortsRequests.db)) > 0) deps.boss.notifyWorker(gaveUpWorker);
  // A check that recorded an event wakes the delivery worker: push notifications should not wait
  // two polling intervals (check, then delivery) on their way to the customer.
  const watchWorker = await deps.boss.work<WatchCheckJob>(QUEUES.watchCheck, options, (jobs) =>
    run(jobs, async (data) => {
      const result = await runWatchCheckJob(deps.watches, data);
      if (result.outcome === 'ok' ? result.newShorts > 0 : result.outcome === 'paused') wakeDelivery();
    }),
  );
  deliveryWorker = await deps.boss.work<DeliveryJob>(QUEUES.webhookDelivery, options, (jobs) =>
    run(jobs, (data) => runDeliveryJob(delivery, data)),
  );
  // An API process that runs no workers, or another instance, queued fetches: they are announced
  // once their transaction committed (JOBS_QUEUED_CHANNEL). Measured before (one API process and
  // two worker processes, 1,000 webhook requests): the first delivery came ~1 s after the first
  // request was accepted, the workers' polling interval. Polling stays the fallback.
  const stopListening = await deps.listen?.(JOBS_QUEUED_CHANNEL, (queue) => {
    if (queue !== QUEUES.shortsFetch) return;
    deps.boss.notifyWorker(fetchWorker);
    deps.onWoken?.(queue);
  });
  return {
    fetchesQueued: () => deps.boss.notifyWorker(fetchWorker),
    watchChecks: () => deps.boss.notifyWorker(watchWorker),
    deliveriesQueued: wakeDelivery,
    stop: async () => stopListening?.(),
  };
}
