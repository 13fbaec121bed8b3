// Fetches a channel's details and Shorts for a request, through the shared cache:
// - address → channel id mappings are cached for a day (they practically never change), and
//   addresses that resolved to nothing for NEGATIVE_CACHE_SECONDS, so a repeated bad address costs
//   no quota;
// - results are cached per (channel, oldestDate, limit) for CACHE_TTL; a full result also answers
//   any oldestDate and limit by filtering, so it costs no quota;
// - identical concurrent requests share one upstream fetch (single-flight), paid by the request
//   that does it (its quota meter); the others pay only their result's item price;
// - every result is also kept as a stale copy (STALE_RETENTION_SECONDS) that is served, marked
//   stale, when no key has quota left.
import type { Cache } from '../../infra/cache/cache.ts';
import { AppError, isAppError } from '../../errors.ts';
import type { ChannelRef } from './channel-url.ts';
import { resolveChannel, SearchUnaffordable } from './channel-resolver.ts';
import { collectShorts, shortsPlaylistId } from './shorts-collector.ts';
import { channelIdentity, parseTimestamp, toChannel, toShort } from './mapping.ts';
import type { ShortsResult } from './shorts-types.ts';
import type { YoutubeClient } from './youtube-client.ts';
import type { YtChannel } from './youtube-types.ts';
import type { QuotaMeter } from '../quota/quota-meter.ts';
import { priceFor, type PriceSettings } from './pricing.ts';
import { withArrangement, type ShortsSort } from './sorting.ts';

const MAPPING_TTL_MS = 24 * 3600 * 1000;
const PAGE_SIZE = 50;

export interface ShortsQuery {
  ref: ChannelRef;
  oldestDate?: number;
  limit?: number;
  // Sort and duration filters (#14): handled by withArrangement (sorting.ts), which reads the whole
  // window through this service without them; the code below never sees them.
  sort?: ShortsSort;
  minDurationSeconds?: number;
  maxDurationSeconds?: number;
}

export interface FetchOutcome {
  result: ShortsResult;
  /** Served from the stale copy because no key had quota left. */
  stale: boolean;
  /** The meter of the upstream work this request did and pays for (absent: cache or another request's fetch). */
  meter?: QuotaMeter;
  /** Shorts the price is computed on when more were read than returned (sort, duration filters; #14). Default: the result's shorts. */
  itemsPriced?: number;
}

export interface ShortsServiceOptions {
  client: YoutubeClient;
  cache: Cache;
  /** Expired results kept for stale serving (bounded by its own entry count). */
  staleCache: Cache;
  cacheTtlMs: number;
  negativeTtlMs: number;
  staleTtlMs: number;
  maxShorts: number;
  unitsPerCredit: number;
  pricing: PriceSettings;
  now: () => number;
  onUpstream?: (units: number) => void;
}

export interface FetchHooks {
  /** Opens this request's quota meter; runs only when this request is the one going upstream. */
  openMeter(): Promise<QuotaMeter>;
}

export interface ShortsService {
  fetch(query: ShortsQuery, hooks: FetchHooks): Promise<FetchOutcome>;
}

/** The leader's result was cut short by its own balance: not for sharing or caching. */
class OwnResult extends Error {
  readonly result: ShortsResult;
  constructor(result: ShortsResult) {
    super('result limited by the requesting account');
    this.result = result;
  }
}

/** Errors that belong to the request that met them, not to everyone waiting on the same fetch. */
function isPersonal(error: unknown): boolean {
  return error instanceof OwnResult || (isAppError(error) && (error.code === 'INSUFFICIENT_CREDITS' || error.code === 'QUOTA_ALLOWANCE_EXHAUSTED'));
}

interface StaleCopy {
  result: ShortsResult;
  oldestDate: number | null;
  limit: number | null;
}

export function createShortsService(options: ShortsServiceOptions): ShortsService {
  const { client, cache, staleCache, cacheTtlMs, maxShorts } = options;

  const mappingKey = (ref: ChannelRef) => `yt:ref:${ref.type}:${ref.value.toLowerCase()}`;
  const negativeKey = (ref: ChannelRef) => `yt:none:${ref.type}:${ref.value.toLowerCase()}`;
  const resultKey = (channelId: string, oldestDate: number | undefined, limit: number | undefined) => `yt:shorts:${channelId}:${maxShorts}:${oldestDate ?? 'all'}:${limit ?? 'all'}`;

  async function rememberMissing(ref: ChannelRef, error: unknown): Promise<void> {
    if (!isAppError(error) || error.code !== 'CHANNEL_NOT_FOUND' || error.cause instanceof SearchUnaffordable) return;
    await cache.set(negativeKey(ref), error.message, options.negativeTtlMs);
  }

  async function fetchFresh(channelId: string | undefined, query: ShortsQuery, meter: QuotaMeter): Promise<ShortsResult> {
    const calls = client.metered(meter.take);
    let channel: YtChannel;
    let firstPage;
    try {
      if (channelId) {
        // Known id: the channel and the first playlist page travel together.
        firstPage = calls.playlistItems(shortsPlaylistId(channelId));
        firstPage.catch(() => {});
        const [found] = (await calls.channels({ id: channelId })).items ?? [];
        if (!found) {
          await cache.delete(mappingKey(query.ref));
          throw new AppError('CHANNEL_NOT_FOUND');
        }
        channel = found;
      } else {
        channel = await resolveChannel(query.ref, { calls, canSpendUnpaid: (units) => meter.canProbe(units) });
        await cache.set(mappingKey(query.ref), channel.id, MAPPING_TTL_MS);
      }
    } catch (error) {
      await rememberMissing(query.ref, error);
      throw error;
    }
    const cap = Math.min(query.limit ?? maxShorts, maxShorts);
    const capIsServiceMax = cap === maxShorts;
    const fetchedAt = new Date(options.now()).toISOString();
    const collected = await collectShorts(calls, channel.id, {
      cap,
      capIsServiceMax,
      ...(query.oldestDate !== undefined ? { oldestDate: query.oldestDate } : {}),
      ...(firstPage ? { firstPage } : {}),
      budget: {
        async onFirstPage(total) {
          if (query.oldestDate !== undefined) {
            // How much of the channel a window covers is learnt page by page: reserve as it grows.
            return meter.commit(options.pricing.minimumCredits, 'Reading this channel costs at least');
          }
          const expected = Math.min(total, cap);
          const blocks = Math.ceil(expected / PAGE_SIZE);
          const projectedUnits = meter.spent + Math.max(0, blocks - 1) + blocks; // the rest of the pages, and one details call per page
          const credits = Math.max(priceFor(expected, options.pricing), Math.ceil(projectedUnits / options.unitsPerCredit));
          await meter.commit(credits, `This channel has ${total} shorts; reading ${expected === total ? 'all of them' : `the newest ${expected}`} costs`);
        },
        allowItems: (items) => meter.ensureCredits(priceFor(items, options.pricing)),
      },
    });
    options.onUpstream?.(meter.spent);
    const mapped = toChannel(channel);
    const identity = channelIdentity(mapped);
    const result: ShortsResult = {
      channel: mapped,
      shorts: collected.videos.map((v) => toShort(v, identity)),
      truncated: collected.truncated,
      ...(collected.truncated ? { truncatedBy: collected.budgetStopped ? 'balance' as const : 'max' as const } : {}),
      fetchedAt,
    };
    if (collected.budgetStopped) throw new OwnResult(result);
    return result;
  }

  async function cached(channelId: string, query: ShortsQuery): Promise<ShortsResult | undefined> {
    const exact = await cache.get<ShortsResult>(resultKey(channelId, query.oldestDate, query.limit));
    if (exact) return exact;
    if (query.oldestDate === undefined && query.limit === undefined) return undefined;
    return narrow(await cache.get<ShortsResult>(resultKey(channelId, undefined, undefined)), query);
  }

  const staleRefKey = (ref: ChannelRef) => `stale:ref:${ref.type}:${ref.value.toLowerCase()}`;

  async function keepStale(query: ShortsQuery, result: ShortsResult): Promise<void> {
    if (options.staleTtlMs <= 0) return;
    if (query.ref.type !== 'id') await staleCache.set(staleRefKey(query.ref), result.channel.id, options.staleTtlMs);
    const copy: StaleCopy = { result, oldestDate: query.oldestDate ?? null, limit: query.limit ?? null };
    // The full copy answers every later window; a narrower one never replaces it.
    const full = query.oldestDate === undefined && query.limit === undefined;
    await staleCache.set(`stale:${result.channel.id}:${full ? 'full' : 'latest'}`, copy, options.staleTtlMs);
  }

  async function staleFor(channelId: string | undefined, query: ShortsQuery): Promise<ShortsResult | undefined> {
    if (!channelId) return undefined;
    const full = await staleCache.get<StaleCopy>(`stale:${channelId}:full`);
    const fromFull = full && narrow(full.result, query);
    if (fromFull) return fromFull;
    const latest = await staleCache.get<StaleCopy>(`stale:${channelId}:latest`);
    if (!latest) return full?.result;
    // A narrower copy answers a request it covers exactly; otherwise it is still the best there is.
    const covers = (latest.oldestDate === null || (query.oldestDate !== undefined && query.oldestDate >= latest.oldestDate)) && (latest.limit === null || (query.limit !== undefined && query.limit <= latest.limit));
    return (covers && narrow(latest.result, query)) || latest.result;
  }

  async function fetchOnce(query: ShortsQuery, hooks: FetchHooks, knownId: string | undefined): Promise<FetchOutcome> {
    let meter: QuotaMeter | undefined;
    const flightKey = knownId ? resultKey(knownId, query.oldestDate, query.limit) : `${mappingKey(query.ref)}:${query.oldestDate ?? 'all'}:${query.limit ?? 'all'}`;
    try {
      const result = await cache.singleFlight(flightKey, knownId ? cacheTtlMs : 0, async () => {
        meter = await hooks.openMeter();
        const fresh = await fetchFresh(knownId, query, meter);
        if (!knownId && cacheTtlMs > 0) await cache.set(resultKey(fresh.channel.id, query.oldestDate, query.limit), fresh, cacheTtlMs);
        await keepStale(query, fresh);
        return fresh;
      });
      return { result, stale: false, ...(meter ? { meter } : {}) };
    } catch (error) {
      if (error instanceof OwnResult && meter) return { result: error.result, stale: false, meter };
      // The error object may be shared with other requests waiting on the same flight: wrap, never mutate.
      throw new FlightFailure(error, meter);
    }
  }

  // Sort and duration filters (#14) wrap the service: see sorting.ts.
  return withArrangement({
    async fetch(query, hooks) {
      const knownId = query.ref.type === 'id' ? query.ref.value : await cache.get<string>(mappingKey(query.ref));
      const missing = await cache.get<string>(negativeKey(query.ref));
      if (missing !== undefined) throw new AppError('CHANNEL_NOT_FOUND', missing);
      if (knownId && cacheTtlMs > 0) {
        const hit = await cached(knownId, query);
        if (hit) return { result: hit, stale: false };
      }
      for (let attempt = 1; ; attempt++) {
        try {
          return await fetchOnce(query, hooks, knownId);
        } catch (failure) {
          const { error, meter } = failure as FlightFailure;
          // Another request's balance or allowance stopped the shared fetch: do our own.
          if (!meter && isPersonal(error) && attempt < 3) continue;
          if (isAppError(error) && error.code === 'UPSTREAM_QUOTA_EXHAUSTED') {
            const copy = await staleFor(knownId ?? (await staleCache.get<string>(staleRefKey(query.ref))), query);
            if (copy) return { result: copy, stale: true, ...(meter ? { meter } : {}) };
          }
          throw failure;
        }
      }
    },
  });
}

/** A failed fetch, with the meter of the upstream work this request did (if it led). */
export class FlightFailure extends Error {
  readonly error: unknown;
  readonly meter: QuotaMeter | undefined;
  constructor(error: unknown, meter: QuotaMeter | undefined) {
    super((error as Error)?.message ?? String(error));
    this.error = error;
    this.meter = meter;
  }
}

/** The error inside a FlightFailure, or the error itself. */
export function unwrapFailure(error: unknown): { error: unknown; meter: QuotaMeter | undefined } {
  return error instanceof FlightFailure ? { error: error.error, meter: error.meter } : { error, meter: undefined };
}

/** A full result answers any narrower request: keep the window, then the newest `limit`. */
function narrow(full: ShortsResult | undefined, query: ShortsQuery): ShortsResult | undefined {
  if (!full) return undefined;
  let shorts = full.shorts;
  if (query.oldestDate !== undefined) {
    // A truncated full result is missing older shorts that may fall in the window.
    if (full.truncated) return undefined;
    shorts = shorts.filter((s) => (parseTimestamp(s.snippet.publishedAt) ?? Infinity) >= query.oldestDate!);
  }
  let truncated = full.truncated;
  if (query.limit !== undefined) {
    if (full.truncated && query.limit > shorts.length) return undefined;
    if (shorts.length > query.limit) shorts = shorts.slice(0, query.limit);
    truncated = false;
  }
  if (shorts === full.shorts) return full;
  const { truncatedBy: _dropped, ...rest } = full;
  return { ...rest, shorts, truncated };
}
