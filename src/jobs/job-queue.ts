// What the HTTP layer may ask of the job queue, so routes never touch pg-boss or queue names:
// enqueue a webhook request's fetch inside the transaction that records it, and redeliver.
import type { PgBoss } from 'pg-boss';
import type { Database, Transaction } from '../infra/db/database.ts';
import { QUEUES, jobAnnouncer } from '../infra/queue.ts';
import { redeliver, type RedeliveryTarget } from './webhook-delivery-job.ts';

export interface JobQueue {
  /** Queues the fetches of accepted webhook requests, atomically with the caller's writes (one statement). */
  enqueueShortsFetches(tx: Transaction, requestIds: string[]): Promise<void>;
  /**
   * The transaction that queued fetches has committed: this process's fetch worker (if it runs one)
   * looks now instead of at its next poll, up to a second later; on PostgreSQL, other
   * processes' workers are told as well (JOBS_QUEUED_CHANNEL).
   */
  fetchesQueued(): void;
  /**
   * Delivers a settled request's webhook, or a finished batch's summary, again now; 409 DELIVERY_IN_PROGRESS while one
   * is due.
   */
  redeliver(target: RedeliveryTarget): Promise<number>;
}

export function createJobQueue(db: Database, boss: PgBoss, wakeFetchWorker: () => void = () => {}): JobQueue {
  // Where other processes may run the workers (PostgreSQL), they are told too.
  const announce = db.listen ? jobAnnouncer(db, QUEUES.shortsFetch) : undefined;
  return {
    async enqueueShortsFetches(tx, requestIds) {
      if (requestIds.length > 0)
        await boss.insert(
          QUEUES.shortsFetch,
          requestIds.map((requestId) => ({ data: { requestId } })),
          { db: tx.jobDb },
        );
    },
    fetchesQueued() {
      wakeFetchWorker();
      announce?.();
    },
    redeliver: (target) => redeliver(db, boss, target),
  };
}
