// Fetches a channel's details and Shorts for a request: from the result cache when it can answer
// (result-cache.ts), else upstream through one shared read per query (shorts-flight.ts), read by
// the configured source (sources/): the Data API, hybrid, or keyless. Sort and duration filters
// wrap the service (sorting.ts).
import type { Cache } from '../../infra/cache/cache.ts';
import type { CircuitBreaker } from '../../infra/circuit-breaker.ts';
import { AppError } from '../../errors.ts';
import type { InnertubeClient, InnertubeFailureKind } from './innertube-source.ts';
import {
  cachedResult,
  forgetAddress,
  knownChannelId,
  missingMessage,
  rememberMissing,
  type ResultCacheOptions,
} from './result-cache.ts';
import { fetchShared, type FlightDeps } from './shorts-flight.ts';
import type { FetchHooks, FetchOutcome, ShortsQuery, ShortsService, SourceMode } from './shorts-query.ts';
import type { ShortsResult } from './shorts-result.ts';
import { withArrangement } from './sorting.ts';
import { dataApiSource } from './sources/data-api.ts';
import { hybridSource } from './sources/hybrid.ts';
import { createInnertubeAccess, type InnertubeCall } from './sources/innertube-access.ts';
import { keylessSource } from './sources/keyless.ts';
import { OwnResult, type ShortsSource, type SourceContext, type SourceRead } from './sources/source.ts';
import type { YoutubeClient } from './youtube-client.ts';

// Named here for the service's builders (services.ts) and its tests.
export type { SourceMode } from './shorts-query.ts';
export type { FlightFailure } from './shorts-flight.ts';

/** The sources by mode: a new source is a file in sources/ and a line here. */
const SOURCES: Record<SourceMode, ShortsSource> = {
  'data-api': dataApiSource,
  hybrid: hybridSource,
  innertube: keylessSource,
};

export interface ShortsServiceOptions {
  client: YoutubeClient;
  cache: Cache;
  /** Expired results kept for stale serving (bounded by its own entry count). */
  staleCache: Cache;
  cacheTtlMs: number;
  negativeTtlMs: number;
  staleTtlMs: number;
  maxShorts: number;
  now: () => number;
  onUpstream?: (units: number) => void;
  source: SourceMode;
  /** Present when the source uses InnerTube (hybrid, innertube). */
  innertube?: InnertubeClient;
  /** A breaker per InnerTube call kind (sources/innertube-access.ts). */
  breakers?: Record<InnertubeCall, CircuitBreaker>;
  /** Player calls allowed per hour for keyless dates (YouTube bot-checks beyond about 300). */
  playerCallsPerHour: number;
  onInnertubeFailure?: (kind: InnertubeFailureKind, error: unknown) => void;
  /**
   * Every fresh upstream read's result (cut short by a balance included), never a cached one: the
   * statistics snapshots (domain/stats). Called after the read, must not throw or wait.
   */
  onFreshRead?: (result: ShortsResult) => void;
}

export function createShortsService(options: ShortsServiceOptions): ShortsService {
  const results: ResultCacheOptions = {
    cache: options.cache,
    staleCache: options.staleCache,
    cacheTtlMs: options.cacheTtlMs,
    negativeTtlMs: options.negativeTtlMs,
    staleTtlMs: options.staleTtlMs,
    maxShorts: options.maxShorts,
  };
  const context: SourceContext = {
    innertube: createInnertubeAccess({
      innertube: options.innertube,
      breakers: options.breakers,
      dates: options.staleCache,
      playerCallsPerHour: options.playerCallsPerHour,
      now: options.now,
      onInnertubeFailure: options.onInnertubeFailure,
    }),
    maxShorts: options.maxShorts,
    now: options.now,
    forgetAddress: (ref) => forgetAddress(results, ref),
    onUpstream: options.onUpstream,
  };
  const flights: FlightDeps = {
    results,
    source: options.source,
    keylessFallback: !!options.innertube,
    readFresh: ({ mode, resolved, ...read }) =>
      observed(
        readFresh(context, results, { ...read, calls: options.client.metered(read.work.take) }, mode, resolved),
        options.onFreshRead,
      ),
  };
  return withArrangement(
    { fetch: (query, hooks) => fetchShorts(results, flights, query, hooks) },
    { now: options.now },
  );
}

/** The read's result, also handed to `observe` (a result cut short by the balance too). */
async function observed(read: Promise<ShortsResult>, observe: ((result: ShortsResult) => void) | undefined) {
  if (!observe) return read;
  try {
    const result = await read;
    observe(result);
    return result;
  } catch (error) {
    if (error instanceof OwnResult) observe(error.result);
    throw error;
  }
}

/** A cached answer when there is one; else a remembered "not found", else the shared upstream read. */
async function fetchShorts(
  results: ResultCacheOptions,
  flights: FlightDeps,
  query: ShortsQuery,
  hooks: FetchHooks,
): Promise<FetchOutcome> {
  const knownId = await knownChannelId(results, query.ref);
  if (knownId && results.cacheTtlMs > 0) {
    const hit = await cachedResult(results, knownId, query);
    if (hit) return { result: hit, stale: false };
  }
  // Only on the way upstream: a cached hit (the hot path) costs no extra lookup, in Redis mode no round trip.
  const missing = await missingMessage(results, query.ref);
  if (missing !== undefined) throw new AppError('CHANNEL_NOT_FOUND', missing);
  return fetchShared(flights, query, hooks, knownId);
}

/**
 * One upstream read with the source of `mode`. An address that resolves to nothing is remembered;
 * an InnerTube failure while finding the channel is the answer (the source had nothing to stand in).
 */
async function readFresh(
  context: SourceContext,
  results: ResultCacheOptions,
  read: SourceRead,
  mode: SourceMode,
  resolved: { id?: string },
): Promise<ShortsResult> {
  const source = SOURCES[mode];
  let found;
  try {
    found = await source.findChannel(context, read);
  } catch (error) {
    await rememberMissing(results, read.query.ref, error);
    if (context.innertube.failed(error)) throw context.innertube.unavailable(error);
    throw error;
  }
  resolved.id = found.channel.id;
  return source.readShorts(context, read, found);
}
