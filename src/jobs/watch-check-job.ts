// The watch-check queue: one job = one check of one watch (domain/watches/watch-check.ts).
// Jobs are queued by the sweep (domain/watches/scheduler.ts), by WebSub notifications and by
// "check now"; the queue's singleton policy (keyed by watch) runs at most one check of a watch at once.
import type { PgBoss } from 'pg-boss';
import type { Transaction } from '../infra/db/database.ts';
import { QUEUES } from '../infra/queue.ts';
import type { WatchCheckJob } from '../domain/watches/scheduler.ts';
import { runWatchCheck, type CheckResult, type WatchCheckDeps } from '../domain/watches/watch-check.ts';
import { recordEvent, type NewEvent } from '../domain/webhooks/events.ts';
import { enqueueDelivery } from './webhook-delivery-job.ts';

export async function enqueueWatchCheck(boss: PgBoss, tx: Transaction | null, job: WatchCheckJob): Promise<void> {
  await boss.send(QUEUES.watchCheck, { ...job }, { singletonKey: job.watchId, ...(tx ? { db: tx.jobDb } : {}) });
}

/** recordEvent with its first delivery attempt queued on this queue connection. */
export function eventRecorder(boss: PgBoss) {
  return (tx: Transaction, event: NewEvent) =>
    recordEvent(tx, event, (t, eventId) => enqueueDelivery(boss, t, { eventId, attempt: 1 }));
}

export function runWatchCheckJob(deps: WatchCheckDeps, job: WatchCheckJob): Promise<CheckResult> {
  return runWatchCheck(deps, job.watchId, job.checkId, job.trigger);
}
