// Identical concurrent requests share one upstream read (single-flight, across instances through
// the cache), paid by the request that leads it (its metered work); the others pay only their
// result's item price. A shared read that fails for the leader's own reasons (its balance, its
// allowance) is not the joiners' answer: they retry, leading their own. When no key has quota
// left, a stale copy answers, else current keyless data (unless the caller wants exact values).
import { AppError, isAppError } from '../../errors.ts';
import type { MeteredWork } from '../quota/metered-work.ts';
import {
  cacheResult,
  keepStale,
  limitKey,
  mappingKey,
  rememberAddress,
  type ResultCacheOptions,
  resultKey,
  staleResult,
} from './result-cache.ts';
import type { FetchHooks, FetchOutcome, ShortsQuery, SourceMode } from './shorts-query.ts';
import type { ShortsResult } from './shorts-result.ts';
import { OwnResult } from './sources/source.ts';

/** Shared reads a request joins that fail for the leader's own reasons, before it gives up. */
const MAX_FLIGHT_ATTEMPTS = 5;

/** One upstream read of a query, by the request leading it; `resolved` learns the channel's id once found. */
export type ReadFresh = (read: {
  query: ShortsQuery;
  channelId: string | undefined;
  mode: SourceMode;
  work: MeteredWork;
  hooks: FetchHooks;
  resolved: { id?: string };
}) => Promise<ShortsResult>;

export interface FlightDeps {
  /** The shared cache (its singleFlight shares the reads) and how results are kept in it. */
  results: ResultCacheOptions;
  /** The configured source (YOUTUBE_SOURCE). */
  source: SourceMode;
  /** Whether a keyless read can stand in when every key is spent (an InnerTube client exists). */
  keylessFallback: boolean;
  readFresh: ReadFresh;
}

/** A failed fetch, with the metered work of the upstream read this request did (if it led). */
export class FlightFailure extends Error {
  readonly error: unknown;
  readonly work: MeteredWork | undefined;
  /** This request led the flight: the error is its own (its work may not have opened: its balance). */
  readonly led: boolean;
  constructor(error: unknown, work: MeteredWork | undefined, led = work !== undefined) {
    super((error as Error)?.message ?? String(error));
    this.error = error;
    this.work = work;
    this.led = led;
  }
}

/** The error inside a FlightFailure, or the error itself. */
export function unwrapFailure(error: unknown): { error: unknown; work: MeteredWork | undefined } {
  return error instanceof FlightFailure ? { error: error.error, work: error.work } : { error, work: undefined };
}

/** Errors that belong to the request that met them, not to everyone waiting on the same read. */
function isPersonal(error: unknown): boolean {
  return (
    error instanceof OwnResult ||
    (isAppError(error) && (error.code === 'INSUFFICIENT_CREDITS' || error.code === 'QUOTA_ALLOWANCE_EXHAUSTED'))
  );
}

/**
 * Reads `query` upstream, sharing the read with identical requests: retried while others' personal
 * failures stop the shared read, answered from a stale copy or keyless data when every key is spent.
 */
export async function fetchShared(
  deps: FlightDeps,
  query: ShortsQuery,
  hooks: FetchHooks,
  knownId: string | undefined,
): Promise<FetchOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetchOnce(deps, query, hooks, knownId, deps.source);
    } catch (failure) {
      const { error, work, led } = failure as FlightFailure;
      // Another request's balance or allowance stopped the shared read: do our own. That error is
      // the other account's and never this request's answer: should other requests keep leading and
      // failing, this one gives up with an error of its own.
      if (!led && !work && isPersonal(error)) {
        if (attempt < MAX_FLIGHT_ATTEMPTS) continue;
        throw new FlightFailure(
          new AppError(
            'SERVICE_UNAVAILABLE',
            'Concurrent requests for this channel kept failing before this one could read it; try again shortly.',
            { headers: { 'retry-after': '1' } },
          ),
          undefined,
        );
      }
      if (isAppError(error) && error.code === 'UPSTREAM_QUOTA_EXHAUSTED') {
        const answer = await whenKeysAreSpent(deps, query, hooks, knownId, work);
        if (answer) return answer;
      }
      throw failure;
    }
  }
}

/** Every key is spent: a stale copy, else current keyless data unless the caller wants exact values only. */
async function whenKeysAreSpent(
  deps: FlightDeps,
  query: ShortsQuery,
  hooks: FetchHooks,
  knownId: string | undefined,
  work: MeteredWork | undefined,
): Promise<FetchOutcome | undefined> {
  const copy = await staleResult(deps.results, knownId, query);
  if (copy) {
    // A stale copy costs what a cache hit of it would (docs/quota.md): its item price. The units the
    // failed read spent before the quota ran out are paid from that price, not from the account's
    // allowance of unpaid work as well (the price is at least what those units cost: MeteredWork.price).
    if (work?.opened) await work.commit(work.price(copy.shorts.length), 'This earlier copy of the channel costs');
    return { result: copy, stale: true, work };
  }
  if (!deps.keylessFallback || query.freshness === 'exact') return undefined;
  const keyless = await fetchOnce(
    deps,
    query,
    { openMeter: () => (work ? Promise.resolve(work) : hooks.openMeter()) },
    knownId,
    'innertube',
  ).catch((e: unknown) => {
    throw e instanceof FlightFailure ? e : new FlightFailure(e, work);
  });
  return { ...keyless, work: keyless.work ?? work };
}

/** One attempt: lead the shared read of `query` (reading with `mode`), or join the one in flight. */
async function fetchOnce(
  deps: FlightDeps,
  query: ShortsQuery,
  hooks: FetchHooks,
  knownId: string | undefined,
  mode: SourceMode,
): Promise<FetchOutcome> {
  let work: MeteredWork | undefined;
  const base = knownId
    ? resultKey(deps.results, knownId, query)
    : `${mappingKey(query.ref)}:${query.oldestDate ?? 'all'}:${limitKey(query)}`;
  // Keyless results are approximate: they never share a flight or a cache entry with exact ones.
  const keyless = mode === 'innertube' && deps.source !== 'innertube';
  const flightKey = keyless ? `${base}:keyless` : base;
  const ttl = knownId && !keyless ? deps.results.cacheTtlMs : 0;
  // Whether this request led the flight (its own error) or joined another's (the leader's).
  let led = false;
  try {
    const result = await deps.results.cache.singleFlight(flightKey, ttl, async () => {
      led = true;
      const ready = await readyElsewhere(deps, query, knownId, keyless);
      if (ready) return ready;
      work = await hooks.openMeter();
      return lead(deps, { query, channelId: knownId, mode, work, hooks }, keyless);
    });
    return { result, stale: false, work };
  } catch (error) {
    if (error instanceof OwnResult && work) return { result: error.result, stale: false, work };
    // The error object may be shared with other requests waiting on the same flight: wrap, never mutate.
    throw new FlightFailure(error, work, led);
  }
}

/**
 * A flight by address is not shared through the cache (its id is not known yet): another
 * instance's flight for the same address may have finished while this one waited for it, leaving
 * its result under the channel's id — read again, it would cost a second read of the channel.
 */
async function readyElsewhere(
  deps: FlightDeps,
  query: ShortsQuery,
  knownId: string | undefined,
  keyless: boolean,
): Promise<ShortsResult | undefined> {
  if (knownId || keyless || deps.results.cacheTtlMs <= 0) return undefined;
  const id = await deps.results.cache.get<string>(mappingKey(query.ref));
  return id === undefined ? undefined : deps.results.cache.get<ShortsResult>(resultKey(deps.results, id, query));
}

/** The leader's read: fresh from upstream, then cached and kept as a stale copy (exact results only). */
async function lead(
  deps: FlightDeps,
  read: Omit<Parameters<ReadFresh>[0], 'resolved'>,
  keyless: boolean,
): Promise<ShortsResult> {
  const { query, channelId: knownId } = read;
  const resolved: { id?: string } = {};
  try {
    const fresh = await deps.readFresh({ ...read, resolved });
    if (keyless) return fresh;
    if (!knownId && deps.results.cacheTtlMs > 0) await cacheResult(deps.results, query, fresh);
    await keepStale(deps.results, query, fresh);
    return fresh;
  } finally {
    // The address's id is published once its result is: a request for the address arriving while
    // this one still reads joins this flight, instead of starting a second read by id. Kept after
    // a failure too: the next attempt need not resolve again.
    if (!knownId && resolved.id && query.ref.type !== 'id')
      await rememberAddress(deps.results, query.ref, resolved.id).catch(() => {});
  }
}
