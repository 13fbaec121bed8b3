// Durable jobs with pg-boss: on PGlite in embedded mode (same database file as everything else, so
// a job and the request it belongs to are written in one transaction), on PostgreSQL when scaled out
// (SKIP LOCKED lets many workers share the queue).
import { PgBoss, fromPglite, type PGliteLike } from 'pg-boss';
import type { Database, DeferredJob, Queryable, Transaction } from './db/database.ts';

export const QUEUES = {
  shortsFetch: 'shorts-fetch',
  /**
   * Where pg-boss moves a fetch job that used up its retries (its dead-letter queue): its request is
   * then settled as failed and its webhook told, rather than left `processing` for good with its
   * credits held (jobs/start-workers.ts).
   */
  shortsFetchGaveUp: 'shorts-fetch-gave-up',
  webhookDelivery: 'webhook-delivery',
  watchCheck: 'watch-check',
} as const;

/**
 * The PostgreSQL channel on which a process announces the jobs it queued (payload: the queue's
 * name), so that idle workers of other processes fetch them now rather than at their next poll
 * (jobs/start-workers.ts).
 */
export const JOBS_QUEUED_CHANNEL = 'channel_shorts_jobs_queued';

/**
 * Announces jobs of `queue` that committed transactions queued (call it after the commit). It is a
 * hint, sent after the transaction rather than in it: a NOTIFY in the queuing transaction kept the
 * account's row lock one round trip longer, and with the workers now fetching during acceptance
 * that lock is what acceptances and settlements share. Calls made while one is being sent
 * are answered by one more; a failure is ignored (workers still poll).
 */
export function jobAnnouncer(db: Queryable, queue: string): () => void {
  let sending = false;
  let again = false;
  const send = (): void => {
    sending = true;
    again = false;
    void db
      .query('SELECT pg_notify($1, $2)', [JOBS_QUEUED_CHANNEL, queue])
      .catch(() => null)
      .finally(() => {
        sending = false;
        if (again) send();
      });
  };
  return () => {
    if (sending) again = true;
    else send();
  };
}

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
  // schedule: false — the service has no pg-boss schedules (watches keep their own, src/domain/watches),
  // so no instance runs the timekeeper (a worker polling its send-it queue every 5 s, its cron monitor,
  // its clock-skew checks: more than a dozen statements a minute for nothing), and in the bundle the
  // libraries it parses schedules with never load (src/infra/on-demand/; bench/reading.md).
  const common = {
    monitorIntervalSeconds: 2,
    superviseIntervalSeconds: 5,
    maintenanceIntervalSeconds: 60,
    queueCacheIntervalSeconds: 2,
    schedule: false,
  } as const;
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
  // The dead-letter queue first: a queue can name only an existing one.
  const queues = [
    [QUEUES.shortsFetchGaveUp, 'standard', undefined],
    [QUEUES.shortsFetch, 'standard', QUEUES.shortsFetchGaveUp],
    [QUEUES.webhookDelivery, 'singleton', undefined],
    [QUEUES.watchCheck, 'singleton', undefined],
  ] as const;
  for (const [name, policy, deadLetter] of queues) {
    const existing = await boss.getQueue(name);
    if (!existing) {
      try {
        await boss.createQueue(name, { ...queueOptions, policy, ...(deadLetter ? { deadLetter } : {}) });
      } catch (error) {
        // Another instance created it between our check and our create.
        if (!(await boss.getQueue(name))) throw error;
      }
    } else if (deadLetter && existing.deadLetter !== deadLetter) {
      // A queue created before it had one. A job carries the dead-letter queue it was queued with,
      // so the live ones get it too: those retrying at the upgrade are the likeliest to use up their retries.
      await boss.updateQueue(name, { deadLetter });
      await db.query(
        `UPDATE pgboss.job SET dead_letter = $1 WHERE name = $2 AND dead_letter IS NULL
          AND state IN ('created', 'retry', 'active')`,
        [deadLetter, name],
      );
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
    await boss.insert(
      queue,
      queued.map(({ data, singletonKey }) => ({ data, ...(singletonKey ? { singletonKey } : {}) })),
      { db: tx.jobDb },
    );
  }
}
