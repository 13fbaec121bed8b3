// This process's share of the background work: the job workers (when it runs them), the sweeper's
// timers, and the queue as routes see it, which wakes those workers when it queues their work.
// Stopping it stops the timers, then the workers, then the queue itself.
import type { PgBoss } from 'pg-boss';
import type { ServiceOptions } from './options.ts';
import type { Core } from './core.ts';
import type { ShortsRequestDeps } from '../domain/requests/shorts-requests.ts';
import { createJobQueue, type JobQueue } from '../jobs/job-queue.ts';
import { JOBS_PER_FETCH, startWorkers } from '../jobs/start-workers.ts';
import { startSweeper, type Sweeper } from '../jobs/sweeper.ts';
import type { DeliveryDeps } from '../jobs/webhook-delivery-job.ts';
import type { WatchParts } from './watches.ts';

export interface Worker extends Pick<Sweeper, 'sweepOnce'> {
  /** The queue as routes see it (enqueue a fetch, redeliver). */
  jobs: JobQueue;
  stop(): Promise<void>;
}

export async function startWorker(
  { config, db, metrics, clock: now, log }: Core,
  options: Pick<ServiceOptions, 'runWorker' | 'onJobs'>,
  parts: Pick<WatchParts, 'watches' | 'subscriptions'> & {
    boss: PgBoss;
    shortsRequests: ShortsRequestDeps;
    delivery: DeliveryDeps;
  },
): Promise<Worker> {
  const { boss, watches } = parts;
  const workers = options.runWorker
    ? await startWorkers({
        boss,
        shortsRequests: parts.shortsRequests,
        delivery: parts.delivery,
        watches,
        concurrency: config.WORKER_CONCURRENCY,
        jobsPerFetch: JOBS_PER_FETCH[db.kind],
        listen: db.listen,
        onWoken: (queue) => metrics.jobWakeups.inc({ queue }),
        onJobs: options.onJobs,
      })
    : undefined;
  if (workers) watches.wakeChecks = workers.watchChecks;
  const sweeper = startSweeper(
    { db, boss, watches, renewSubscriptions: parts.subscriptions.renew, workers, now, log },
    {
      timers: options.runWorker,
      sweepSeconds: config.WATCH_SWEEP_SECONDS,
      retentionDays: config.RESULT_RETENTION_DAYS,
      statsRetentionDays: config.STATS_RETENTION_DAYS,
    },
  );
  return {
    jobs: createJobQueue(db, boss, () => workers?.fetchesQueued()),
    sweepOnce: sweeper.sweepOnce,
    async stop() {
      await sweeper.stop();
      await workers?.stop();
      await boss
        .stop({ graceful: true, timeout: 10_000, close: true })
        .catch((error: unknown) => log.error({ err: error }, 'queue stop failed'));
    },
  };
}
