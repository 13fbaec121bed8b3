// Durable jobs with pg-boss: on PGlite in embedded mode (same database file as everything else, so
// a job and the request it belongs to are written in one transaction), on PostgreSQL when scaled out
// (SKIP LOCKED lets many workers share the queue).
import { PgBoss, fromPglite, type PGliteLike } from 'pg-boss';
import type { Database, DeferredJob, Transaction } from './db/database.ts';

export const QUEUES = {
  shortsFetch: 'shorts-fetch',
  webhookDelivery: 'webhook-delivery',
  watchCheck: 'watch-check',
} as const;

export interface QueueSettings {
  databaseUrl: string | undefined;
  /** Seconds without a worker heartbeat after which an active job is retried (a crashed worker). */
  heartbeatSeconds: number;
  onError: (error: Error) => void;
}

/** A pg-boss instance on this database, not started (starting it creates or upgrades its schema). */
export function createBoss(db: Database, settings: Pick<QueueSettings, 'databaseUrl' | 'onError'>): PgBoss {
  // queueCacheIntervalSeconds: workers switch to continuous fetching while the cached backlog
  // count says there is work (see start-workers.ts), so the count must be fresh.
  const common = { monitorIntervalSeconds: 2, superviseIntervalSeconds: 5, maintenanceIntervalSeconds: 60, queueCacheIntervalSeconds: 2 } as const;
  const boss =
    db.kind === 'pglite'
      ? new PgBoss({ db: fromPglite((db as Database & { pglite: PGliteLike }).pglite), backend: 'pglite', ...common })
      : new PgBoss({ connectionString: settings.databaseUrl!, max: 4, ...common });
  boss.on('error', settings.onError);
  return boss;
}

export async function startQueue(db: Database, settings: QueueSettings): Promise<PgBoss> {
  const boss = createBoss(db, settings);
  await boss.start();
  const queueOptions = {
    // pg-boss's own retries are for crashes and infrastructure errors; webhook retry timing is ours.
    retryLimit: 20,
    retryDelay: 2,
    retryBackoff: true,
    retryDelayMax: 300,
    expireInSeconds: 600,
    heartbeatSeconds: settings.heartbeatSeconds,
    retentionSeconds: 14 * 86_400,
    deleteAfterSeconds: 7 * 86_400,
  };
  for (const [name, policy] of [[QUEUES.shortsFetch, 'standard'], [QUEUES.webhookDelivery, 'singleton'], [QUEUES.watchCheck, 'singleton']] as const) {
    if (!(await boss.getQueue(name))) {
      try {
        await boss.createQueue(name, { ...queueOptions, policy });
      } catch (error) {
        // Another instance created it between our check and our create.
        if (!(await boss.getQueue(name))) throw error;
      }
    }
  }
  return boss;
}

/**
 * Inserts the jobs a grouped transaction deferred (requests/queued-settlements.ts): one statement
 * per queue, in that transaction. pg-boss's `insert` fills in the queue's retry and
 * retention settings as `send` does and skips a job whose singleton key is taken, as `send` does.
 */
export async function insertDeferredJobs(boss: PgBoss, tx: Transaction, jobs: DeferredJob[]): Promise<void> {
  const byQueue = new Map<string, DeferredJob[]>();
  for (const job of jobs) {
    const queued = byQueue.get(job.queue);
    if (queued) queued.push(job);
    else byQueue.set(job.queue, [job]);
  }
  for (const [queue, queued] of byQueue) {
    await boss.insert(queue, queued.map(({ data, singletonKey }) => ({ data, ...(singletonKey ? { singletonKey } : {}) })), { db: tx.jobDb });
  }
}
