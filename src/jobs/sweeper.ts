// The worker's timers: the sweep (lapsed holds, paid watches to resume, due watches, WebSub
// renewals, the event outbox) every WATCH_SWEEP_SECONDS, and the purge of stored results past
// RESULT_RETENTION_DAYS and of idempotency keys past their 24 h, with the roll-up and the month
// partitions of statistics snapshots; on the embedded database, in every process, its vacuum.
import type { PgBoss } from 'pg-boss';
import type { Database } from '../infra/db/database.ts';
import { startAutovacuum } from '../infra/db/pglite-autovacuum.ts';
import { releaseAllExpiredReservations } from '../domain/credits/reservations.ts';
import { purgeExpiredResults } from '../domain/requests/stored-results.ts';
import { purgeExpiredKeys } from '../domain/idempotency/idempotency-keys.ts';
import { purgeDestinationHours } from '../domain/webhooks/destinations.ts';
import { rollUpOldPoints } from '../domain/stats/retention.ts';
import { addMonthPartitions } from '../domain/stats/partitions.ts';
import { resumePaidWatches, sweepDueWatches, type SchedulerDeps } from '../domain/watches/scheduler.ts';
import { dispatchPendingEvents } from '../domain/webhooks/events.ts';
import { enqueueDelivery } from './webhook-delivery-job.ts';
import type { WorkerWakers } from './start-workers.ts';

const PURGE_INTERVAL_MS = 3600_000;
/**
 * The first purge comes this long after start, not an hour: a process restarted more often than
 * hourly (deploys, a crash loop) would otherwise never drop any.
 */
const FIRST_PURGE_MS = 60_000;

export interface SweeperDeps {
  db: Database;
  boss: PgBoss;
  watches: SchedulerDeps;
  /** Renews WebSub leases and retries failed subscriptions (websub-subscriptions.ts). */
  renewSubscriptions(): Promise<void>;
  /** This process's workers, when it runs them: woken when the sweep queued their work. */
  workers: Pick<WorkerWakers, 'deliveriesQueued'> | undefined;
  now: () => number;
  log: { error(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };
}

export interface SweeperSettings {
  /** Run the sweep and purge timers (worker processes); sweepOnce works without them. */
  timers: boolean;
  sweepSeconds: number;
  retentionDays: number;
  /** STATS_RETENTION_DAYS: snapshots older are rolled up to one per Short per day, with the purge. */
  statsRetentionDays?: number;
}

export interface Sweeper {
  /** One sweep; a sweep still running is joined, not started again. */
  sweepOnce(): Promise<void>;
  /** Stops the timers and waits for a vacuum round in progress. */
  stop(): Promise<void>;
}

export function startSweeper(deps: SweeperDeps, settings: SweeperSettings): Sweeper {
  const { db, boss, watches, now, log } = deps;
  let sweeping: Promise<void> | undefined;
  const sweepOnce = (): Promise<void> => {
    sweeping ??= (async () => {
      // Holds of requests whose process died are released first, so they neither keep a paused watch
      // paused nor refuse a charge past their lapse (reservations.ts).
      await releaseAllExpiredReservations(db, new Date(now()));
      await resumePaidWatches(watches);
      if ((await sweepDueWatches(watches)).length > 0) watches.wakeChecks?.();
      // Not awaited: a hub that answers slowly or never must not hold up the scheduled checks,
      // resumes and event dispatch behind it.
      void deps
        .renewSubscriptions()
        .catch((err: unknown) => log.error({ err }, 'renewing WebSub subscriptions failed'));
      // Account events written by charges (credits.low) get their delivery queued here (the outbox).
      if ((await dispatchPendingEvents(db, (tx, eventId) => enqueueDelivery(boss, tx, { eventId, attempt: 1 }))) > 0)
        deps.workers?.deliveriesQueued();
    })()
      .catch((err: unknown) => log.error({ err }, 'watch sweep failed'))
      .finally(() => {
        sweeping = undefined;
      });
    return sweeping;
  };
  const purge = () => {
    void purgeExpiredResults(db, settings.retentionDays, now()).catch((err: unknown) =>
      log.error({ err }, 'dropping expired results failed'),
    );
    void purgeExpiredKeys(db, now()).catch((err: unknown) =>
      log.error({ err }, 'dropping expired idempotency keys failed'),
    );
    // The destinations' hourly counts past the health window (destinations.ts).
    void purgeDestinationHours(db, new Date(now())).catch((err: unknown) =>
      log.error({ err }, 'dropping old webhook destination counts failed'),
    );
    void addMonthPartitions(db, now()).catch((err: unknown) =>
      log.error({ err }, 'creating the month partitions of statistics snapshots failed'),
    );
    if (settings.statsRetentionDays !== undefined)
      void rollUpOldPoints(db, settings.statsRetentionDays, now()).catch((err: unknown) =>
        log.error({ err }, 'rolling up old statistics snapshots failed'),
      );
  };
  const timers = settings.timers
    ? [
        setInterval(() => void sweepOnce(), settings.sweepSeconds * 1000).unref(),
        setInterval(purge, PURGE_INTERVAL_MS).unref(),
        setTimeout(purge, FIRST_PURGE_MS).unref(),
      ]
    : [];
  // The embedded database has no autovacuum of its own (pglite-autovacuum.ts).
  const autovacuum =
    db.kind === 'pglite'
      ? startAutovacuum(db, {
          onRound: (round, ms) => {
            if (round.vacuumed.length + round.analyzed.length > 0)
              log.info(
                { vacuumed: round.vacuumed, analyzed: round.analyzed, ms: Math.round(ms) },
                'embedded database vacuumed',
              );
          },
          onError: (err) => log.error({ err }, 'vacuuming the embedded database failed'),
        })
      : undefined;
  return {
    sweepOnce,
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      await autovacuum?.stop();
    },
  };
}
