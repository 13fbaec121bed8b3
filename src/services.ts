// Builds every dependency once from the config and wires them: a list of parts, each built beside
// its area (services/*.ts, the sweeper in jobs/), where its embedded or scale-out kind is chosen.
import type { PgBoss } from 'pg-boss';
import type { Config } from './config.ts';
import { startQueue } from './infra/queue.ts';
import type { ShortsRequestDeps } from './domain/requests/shorts-requests.ts';
import { createAcceptanceBatcher, type AcceptanceBatcher } from './domain/requests/acceptances.ts';
import type { DeliveryDeps } from './jobs/webhook-delivery-job.ts';
import { openCore, type Core } from './services/core.ts';
import type { ServiceOptions } from './services/options.ts';

export type { ServiceOptions } from './services/options.ts';
import type { Stores } from './services/stores.ts';
import { buildAuth, type Access } from './services/auth.ts';
import { buildUpstream, type Upstream } from './services/upstream.ts';
import { buildShorts, buildShortsRequests } from './services/shorts.ts';
import { buildDelivery } from './services/delivery.ts';
import { buildWatches, type WatchParts } from './services/watches.ts';
import { startWorker, type Worker } from './services/worker.ts';
import { buildStats, type StatsParts } from './services/stats.ts';

export interface Services
  extends Pick<Core, 'config' | 'clock' | 'db' | 'metrics'>,
    Pick<Stores, 'redis' | 'rateLimiter'>,
    Access,
    Pick<Upstream, 'source' | 'keyPool' | 'youtube' | 'health'>,
    Pick<WatchParts, 'watches' | 'websub'>,
    Pick<Worker, 'sweepOnce' | 'jobs'> {
  shortsRequests: ShortsRequestDeps;
  boss: PgBoss;
  acceptances: AcceptanceBatcher;
  delivery: DeliveryDeps;
  stats: StatsParts;
  /**
   * Aborted when a stopping server cuts the connections its drain left open (server.ts): a
   * synchronous request still running then cannot deliver its answer, so it is not charged.
   */
  readonly connectionsCut: AbortController;
  close(): Promise<void>;
}

export async function createServices(config: Config, options: ServiceOptions): Promise<Services> {
  const { core, stores } = await openCore(config, options);
  const { db, metrics, clock: now } = core;
  const access = await buildAuth(core, stores);
  const upstream = await buildUpstream(core);
  const { source, innertube, youtube } = upstream;
  const stats = buildStats(core);
  const { pricing, shorts } = buildShorts(core, stores, upstream, stats);
  const boss = await startQueue(db, {
    databaseUrl: config.DATABASE_URL,
    heartbeatSeconds: config.JOB_HEARTBEAT_SECONDS,
    onError: (error) => options.log.error({ err: error }, 'queue error'),
  });
  const shortsRequests = buildShortsRequests(core, { boss, shorts, source, pricing });
  const delivery = buildDelivery(core, boss);
  const quota = shortsRequests.quota;
  const { watches, websub, subscriptions } = buildWatches(core, {
    boss,
    youtube,
    innertube,
    source,
    quota,
    pricing,
    snapshots: stats.snapshots,
  });
  const worker = await startWorker(core, options, { watches, subscriptions, boss, shortsRequests, delivery });
  const { jobs } = worker;
  const acceptances = createAcceptanceBatcher(shortsRequests, {
    enqueueFetches: (tx, ids) => jobs.enqueueShortsFetches(tx, ids),
    onGroupError: (err, size) =>
      options.log.error({ err, size }, 'accepting a group of webhook requests failed; accepted one by one'),
  });
  return {
    config,
    clock: now,
    db,
    redis: stores.redis,
    rateLimiter: stores.rateLimiter,
    ...access,
    youtube,
    keyPool: upstream.keyPool,
    health: upstream.health,
    source,
    shortsRequests,
    acceptances,
    boss,
    jobs,
    delivery,
    stats,
    watches,
    websub,
    metrics,
    sweepOnce: worker.sweepOnce,
    connectionsCut: new AbortController(),
    async close() {
      await worker.stop();
      await stats.snapshots.idle();
      await Promise.allSettled([upstream.close(), delivery.agent.close(), stores.closeCaches()]);
      await stores.disconnect();
    },
  };
}
