// What the HTTP layer may ask of the job queue, so routes never touch pg-boss or queue names:
// enqueue a webhook request's fetch inside the transaction that records it, and redeliver.
import type { PgBoss } from 'pg-boss';
import type { Database, Transaction } from '../infra/db/database.ts';
import { QUEUES } from '../infra/queue.ts';
import { redeliver } from './webhook-delivery-job.ts';

export interface JobQueue {
  /** Queues the fetch of an accepted webhook request, atomically with the caller's writes. */
  enqueueShortsFetch(tx: Transaction, requestId: string): Promise<void>;
  /** Delivers a settled request's webhook again now; 409 DELIVERY_IN_PROGRESS while one is due. */
  redeliver(requestId: string): Promise<number>;
}

export function createJobQueue(db: Database, boss: PgBoss): JobQueue {
  return {
    async enqueueShortsFetch(tx, requestId) {
      await boss.send(QUEUES.shortsFetch, { requestId }, { db: tx.jobDb });
    },
    redeliver: (requestId) => redeliver(db, boss, requestId),
  };
}
