// Fetching shorts and the shorts use cases' dependencies: the shorts service over the cache and the
// source in use, and what a request needs to be priced, settled and recorded.
import type { PgBoss } from 'pg-boss';
import type { Core } from './core.ts';
import type { Stores } from './stores.ts';
import type { Upstream } from './upstream.ts';
import type { StatsParts } from './stats.ts';
import { snapshotOf } from '../domain/stats/snapshots.ts';
import { withGrowth } from '../domain/stats/series.ts';
import { insertDeferredJobs } from '../infra/queue.ts';
import { type CircuitBreaker, createCircuitBreaker } from '../infra/circuit-breaker.ts';
import type { SourceHealth } from '../infra/source-health.ts';
import { INNERTUBE_CALLS, type InnertubeCall } from '../domain/shorts/sources/innertube-access.ts';
import type { PriceSettings } from '../domain/shorts/pricing.ts';
import { createShortsService } from '../domain/shorts/shorts-service.ts';
import type { ShortsService, SourceMode } from '../domain/shorts/shorts-query.ts';
import type { ShortsRequestDeps } from '../domain/requests/shorts-requests.ts';
import { createSettlementBatcher } from '../domain/requests/charge-and-record.ts';
import { createQueuedRequestReader } from '../domain/requests/request-store.ts';
import { createQueuedSettlementBatcher } from '../domain/requests/queued-settlements.ts';

export function buildShorts(
  { config, metrics, clock: now, log }: Core,
  { cache, staleCache }: Pick<Stores, 'cache' | 'staleCache'>,
  { youtube, source, innertube, health }: Pick<Upstream, 'youtube' | 'source' | 'innertube' | 'health'>,
  { snapshots }: StatsParts,
): { pricing: PriceSettings; shorts: ShortsService } {
  const pricing = {
    creditsPerBlock: config.CREDITS_PER_BLOCK,
    shortsPerBlock: config.SHORTS_PER_CREDIT_BLOCK,
    minimumCredits: config.MIN_CREDITS_PER_REQUEST,
  };
  const shorts = createShortsService({
    client: youtube,
    cache,
    staleCache,
    cacheTtlMs: config.CACHE_TTL_SECONDS * 1000,
    negativeTtlMs: config.NEGATIVE_CACHE_SECONDS * 1000,
    staleTtlMs: config.STALE_RETENTION_SECONDS * 1000,
    maxShorts: config.MAX_SHORTS_PER_REQUEST,
    now,
    onUpstream: (units) => log.info({ quotaUnits: units }, 'upstream fetch finished'),
    source,
    ...(innertube ? { innertube, breakers: innertubeBreakers(health, now) } : {}),
    playerCallsPerHour: config.INNERTUBE_PLAYER_CALLS_PER_HOUR,
    onFreshRead: (result) => snapshots.record(snapshotOf(result)),
    onInnertubeFailure: (kind, error) => {
      metrics.innertubeFailures.inc({ kind });
      log.error({ err: error, kind }, 'InnerTube call failed');
    },
  });
  return { pricing, shorts };
}

export function buildShortsRequests(
  { config, db, metrics, clock: now, log }: Core,
  parts: { boss: PgBoss; shorts: ShortsService; source: SourceMode; pricing: PriceSettings },
): ShortsRequestDeps {
  const { boss, shorts, source, pricing } = parts;
  return {
    db,
    onServerFailure: (requestId, err) => log.error({ reqId: requestId, err }, 'webhook request failed'),
    shorts,
    maxShorts: config.MAX_SHORTS_PER_REQUEST,
    now,
    keylessOnly: source === 'innertube',
    findQueued: createQueuedRequestReader(db),
    settlements: createSettlementBatcher(db, {
      onBatchError: (err, size) => log.error({ err, size }, 'settlement batch failed; settled one by one'),
    }),
    queuedSettlements: createQueuedSettlementBatcher(db, {
      insertJobs: (tx, jobs) => insertDeferredJobs(boss, tx, jobs),
      onGroupError: (err, size) =>
        log.error({ err, size }, 'settling a group of webhook requests failed; settled one by one'),
    }),
    pricing,
    quota: {
      unitsPerCredit: config.QUOTA_UNITS_PER_CREDIT,
      allowanceUnits: config.QUOTA_ALLOWANCE_UNITS,
      pricing,
      onSettleFailure: ({ requestId, error, what }) => log.error({ reqId: requestId, err: error }, what),
    },
    onCharged: (credits) => metrics.creditsCharged.inc(credits),
    withGrowth: (result) => withGrowth(db, result, now()),
  };
}

/** A breaker per InnerTube call kind, each shown in the source's health. */
function innertubeBreakers(health: SourceHealth, now: () => number): Record<InnertubeCall, CircuitBreaker> {
  const breakers = {} as Record<InnertubeCall, CircuitBreaker>;
  for (const call of INNERTUBE_CALLS) {
    breakers[call] = createCircuitBreaker({ threshold: 3, baseMs: 30_000, maxMs: 600_000, now });
    health.watchBreaker('innertube', call, breakers[call]);
  }
  return breakers;
}
