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
import { describe as describeRef, resolveChannel, SearchUnaffordable } from './channel-resolver.ts';
import { collectShorts, shortsPlaylistId } from './shorts-collector.ts';
import { channelIdentity, parseTimestamp, toChannel, toShort } from './mapping.ts';
import type { ShortsResult } from './shorts-result.ts';
import type { Short } from '../../contract/shorts.ts';
import type { YoutubeClient } from './youtube-client.ts';
import type { YtChannel, YtVideo } from './youtube-types.ts';
import type { MeteredWork } from '../quota/metered-work.ts';
import type { PriceSettings } from './pricing.ts';
import {
  innertubeFailureKind,
  keylessChannel,
  keylessVideo,
  KEYLESS_APPROXIMATE_FIELDS,
  type InnertubeClient,
  type InnertubeFailureKind,
  type InnertubeVideo,
} from './innertube-source.ts';
import { collectFromTab } from './tab-collector.ts';
import { collectKeyless } from './keyless-collector.ts';
import type { CircuitBreaker } from '../../infra/circuit-breaker.ts';
import type { ChannelRef as Ref } from './channel-url.ts';
import { withArrangement, type ShortsSort } from './sorting.ts';

const MAPPING_TTL_MS = 24 * 3600 * 1000;
const PAGE_SIZE = 50;

export interface ShortsQuery {
  ref: ChannelRef;
  oldestDate?: number;
  limit?: number;
  /**
   * When every Data API key is spent: "stale-ok" (default) takes an earlier exact copy, else current
   * keyless data (approximate fields listed); "exact" takes an earlier exact copy, else 503.
   */
  freshness?: Freshness;
  // Sort and duration filters (#14): handled by withArrangement (sorting.ts), which reads the whole
  // window through this service without them; the code below never sees them.
  sort?: ShortsSort;
  minDurationSeconds?: number;
  maxDurationSeconds?: number;
}

export type Freshness = 'stale-ok' | 'exact';

/** Where listings and details come from (YOUTUBE_SOURCE, with auto already decided). */
export type SourceMode = 'data-api' | 'hybrid' | 'innertube';

export interface FetchOutcome {
  result: ShortsResult;
  /** Served from the stale copy because no key had quota left. */
  stale: boolean;
  /** The upstream work this request did and pays for (absent: cache or another request's fetch). */
  meter?: MeteredWork;
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
  source: SourceMode;
  /** Present when the source uses InnerTube (hybrid, innertube). */
  innertube?: InnertubeClient;
  breaker?: CircuitBreaker;
  /** Player calls allowed per hour for keyless dates (YouTube bot-checks beyond about 300). */
  playerCallsPerHour: number;
  onInnertubeFailure?: (kind: InnertubeFailureKind, error: unknown) => void;
}

export interface FetchHooks {
  /** Opens this request's metered work; runs only when this request is the one going upstream. */
  openMeter(): Promise<MeteredWork>;
  /**
   * Shorts of the result being read, as their details arrive (the Data API paths), while later
   * pages travel: the result holds these same objects, unchanged, unless the window or the balance
   * leaves them out. Only for the request going upstream.
   */
  onShorts?(shorts: Short[]): void;
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
/** Shared fetches a request joins that fail for the leader's own reasons, before it gives up. */
const MAX_FLIGHT_ATTEMPTS = 5;

function isPersonal(error: unknown): boolean {
  return (
    error instanceof OwnResult ||
    (isAppError(error) && (error.code === 'INSUFFICIENT_CREDITS' || error.code === 'QUOTA_ALLOWANCE_EXHAUSTED'))
  );
}

interface StaleCopy {
  result: ShortsResult;
  oldestDate: number | null;
  limit: number | null;
}

export function createShortsService(options: ShortsServiceOptions): ShortsService {
  const { client, cache, staleCache, cacheTtlMs, maxShorts } = options;

  // Handles, user names and custom URLs are case-insensitive; channel ids are not (found by review:
  // an id with one letter's case flipped cached "not found" for the real channel too).
  const refKey = (ref: ChannelRef) => `${ref.type}:${ref.type === 'id' ? ref.value : ref.value.toLowerCase()}`;
  const mappingKey = (ref: ChannelRef) => `yt:ref:${refKey(ref)}`;
  const negativeKey = (ref: ChannelRef) => `yt:none:${refKey(ref)}`;
  const resultKey = (channelId: string, oldestDate: number | undefined, limit: number | undefined) =>
    `yt:shorts:${channelId}:${maxShorts}:${oldestDate ?? 'all'}:${limit ?? 'all'}`;

  async function rememberMissing(ref: ChannelRef, error: unknown): Promise<void> {
    if (!isAppError(error) || error.code !== 'CHANNEL_NOT_FOUND' || error.cause instanceof SearchUnaffordable) return;
    await cache.set(negativeKey(ref), error.message, options.negativeTtlMs);
  }

  const innertube = options.innertube;
  const usesInnertube = () => !!innertube && (!options.breaker || options.breaker.allows());
  const innertubeFailed = (error: unknown): boolean => {
    const kind = innertubeFailureKind(error);
    if (!kind) return false;
    options.breaker?.failure();
    options.onInnertubeFailure?.(kind, error);
    return true;
  };
  const innertubeUnavailable = (error: unknown) => {
    const kind = innertubeFailureKind(error);
    const why =
      kind === 'bot-check'
        ? 'it asks the service to prove it is not a bot'
        : kind === 'rate-limited'
          ? 'it is rate limiting the service'
          : kind === 'parse'
            ? 'its pages changed in a way the service cannot read'
            : kind === 'timeout'
              ? 'it did not answer in time'
              : 'it could not be reached';
    // A timeout is the platform's 504, as on the Data API path (found by review: it said 503 "rate limited").
    if (kind === 'timeout')
      return new AppError('UPSTREAM_TIMEOUT', `The video platform's web API (keyless mode) did not answer in time.`, {
        cause: error,
      });
    return new AppError(
      kind === 'parse' ? 'UPSTREAM_ERROR' : 'UPSTREAM_RATE_LIMITED',
      `The video platform's web API (keyless mode) is unavailable: ${why}.`,
      kind === 'parse' ? { cause: error } : { headers: { 'retry-after': '60' }, cause: error },
    );
  };

  // Keyless date lookups: cached for good (publish dates never change) and throttled per hour.
  let playerWindowStart = 0;
  let playerCalls = 0;
  async function playerVideo(id: string): Promise<InnertubeVideo | undefined> {
    const key = `yt:player:${id}`;
    const known = await staleCache.get<InnertubeVideo>(key);
    if (known) return known;
    const now = options.now();
    if (now - playerWindowStart >= 3600_000) {
      playerWindowStart = now;
      playerCalls = 0;
    }
    if (++playerCalls > options.playerCallsPerHour) {
      throw new AppError(
        'UPSTREAM_RATE_LIMITED',
        `Keyless publish-date lookups are limited to ${options.playerCallsPerHour} an hour (YouTube bot-checks beyond that); oldestDate windows in keyless mode resume within the hour.`,
        { headers: { 'retry-after': String(Math.ceil((playerWindowStart + 3600_000 - now) / 1000)) } },
      );
    }
    const video = await innertube!.video(id);
    if (video) await staleCache.set(key, video, 30 * 86_400_000);
    return video;
  }

  /** The 0-unit resolver: InnerTube resolve_url. undefined = fall back to the Data API strategies. */
  /** The channel id; null: YouTube says there is no such channel; `failed`: InnerTube could not be used (why, for keyless mode's answer). */
  async function resolveByInnertube(ref: Ref): Promise<string | null | { failed: unknown }> {
    if (!usesInnertube()) return { failed: new InnertubeDown() };
    try {
      const id = await innertube!.resolve(channelAddress(ref));
      options.breaker?.success();
      return id ?? null;
    } catch (error) {
      if (innertubeFailed(error)) return { failed: error };
      throw error;
    }
  }

  async function fetchFresh(
    channelId: string | undefined,
    query: ShortsQuery,
    meter: MeteredWork,
    mode: SourceMode,
    hooks: FetchHooks,
    resolved: { id?: string } = {},
  ): Promise<ShortsResult> {
    const calls = client.metered(meter.take);
    let channel: YtChannel;
    let firstPage;
    let tab: Promise<import('./innertube-source.ts').InnertubeShortsPage> | undefined;
    try {
      if (!channelId && mode !== 'data-api') {
        const id = await resolveByInnertube(query.ref);
        if (id === null)
          throw new AppError('CHANNEL_NOT_FOUND', `No channel exists at that address (${describeRef(query.ref)}).`);
        // Keyless has nothing else to resolve with: its answer says why (a timeout is a 504; found by review).
        if (typeof id === 'object' && mode === 'innertube') throw innertubeUnavailable(id.failed);
        channelId = typeof id === 'string' ? id : undefined;
      }
      if (mode === 'innertube') {
        tab = innertube!.shorts(channelId!);
        tab.catch(() => {});
        // The Shorts tab's first page describes the channel too; ask for the channel page only without it.
        const page =
          (await tab.then((first) => first.channel).catch(() => undefined)) ?? (await innertube!.channel(channelId!));
        if (!page)
          throw new AppError('CHANNEL_NOT_FOUND', `No channel exists at that address (${describeRef(query.ref)}).`);
        channel = keylessChannel(page);
      } else if (channelId) {
        // Known id: the channel and the first listing page travel together.
        if (mode === 'hybrid' && usesInnertube()) {
          tab = innertube!.shorts(channelId);
        } else {
          firstPage = calls.playlistItems(shortsPlaylistId(channelId));
          firstPage.catch(() => {});
        }
        tab?.catch(() => {});
        const [found] = (await calls.channels({ id: channelId })).items ?? [];
        if (!found) {
          await cache.delete(mappingKey(query.ref));
          throw new AppError('CHANNEL_NOT_FOUND');
        }
        channel = found;
      } else {
        channel = await resolveChannel(query.ref, { calls, canSpendUnpaid: meter.canSpendUnpaid });
        if (mode === 'hybrid' && usesInnertube()) {
          tab = innertube!.shorts(channel.id);
          tab.catch(() => {});
        }
      }
      resolved.id = channel.id;
    } catch (error) {
      await rememberMissing(query.ref, error);
      if (innertubeFailed(error)) throw innertubeUnavailable(error);
      throw error;
    }
    const cap = Math.min(query.limit ?? maxShorts, maxShorts);
    const capIsServiceMax = cap === maxShorts;
    const fetchedAt = new Date(options.now()).toISOString();
    const mapped = toChannel(channel);
    const identity = channelIdentity(mapped);

    if (mode === 'innertube') {
      let collected;
      try {
        collected = await collectKeyless(await tab!, {
          cap,
          capIsServiceMax,
          video: playerVideo,
          ...(query.oldestDate !== undefined ? { oldestDate: query.oldestDate } : {}),
        });
        options.breaker?.success();
      } catch (error) {
        if (innertubeFailed(error)) throw innertubeUnavailable(error);
        throw error;
      }
      return {
        channel: mapped,
        shorts: collected.items.map((item) =>
          toShort(keylessVideo(item, channel, collected.details.get(item.id)), identity),
        ),
        truncated: collected.truncated,
        ...(collected.truncated ? { truncatedBy: 'max' as const } : {}),
        fetchedAt,
        source: 'innertube',
        approximateFields: [...KEYLESS_APPROXIMATE_FIELDS],
      };
    }

    // Shorts are mapped as their details arrive and offered to the caller (hooks.onShorts), after the
    // I/O callbacks pending then: the next listing page's, on the critical path. The result reuses them;
    // a batch whose turn comes after the result was built (the last one, often) is left to it.
    const early = new Map<YtVideo, Short>();
    let built = false;
    const onShorts = hooks.onShorts;
    const onVideos =
      onShorts &&
      ((videos: YtVideo[]) =>
        setImmediate(() => {
          if (built) return;
          onShorts(
            videos.map((video) => {
              const short = toShort(video, identity);
              early.set(video, short);
              return short;
            }),
          );
        }));
    const collectOptions = {
      cap,
      capIsServiceMax,
      ...(onVideos ? { onVideos } : {}),
      ...(query.oldestDate !== undefined ? { oldestDate: query.oldestDate } : {}),
      budget: meter.listingBudget({ oldestDate: query.oldestDate, cap, pageSize: PAGE_SIZE }),
    };
    let collected: Awaited<ReturnType<typeof collectShorts>> | undefined;
    let source: SourceMode = 'data-api';
    if (tab) {
      try {
        const first = await tab;
        options.breaker?.success();
        // An empty tab on a channel that reports videos may be a tab that failed to render: ask the playlist.
        if (first.items.length > 0 || Number(channel.statistics?.videoCount ?? 0) === 0) {
          collected = await collectFromTab(calls, first, collectOptions);
          source = 'hybrid';
        }
      } catch (error) {
        if (!innertubeFailed(error)) throw error; // the UUSH playlist below is the fallback
      }
    }
    collected ??= await collectShorts(calls, channel.id, { ...collectOptions, ...(firstPage ? { firstPage } : {}) });
    options.onUpstream?.(meter.spent);
    built = true;
    const result: ShortsResult = {
      channel: mapped,
      shorts: collected.videos.map((v) => early.get(v) ?? toShort(v, identity)),
      truncated: collected.truncated,
      ...(collected.truncated
        ? { truncatedBy: collected.budgetStopped ? ('balance' as const) : ('max' as const) }
        : {}),
      fetchedAt,
      source,
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

  const staleRefKey = (ref: ChannelRef) => `stale:ref:${refKey(ref)}`;

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
    if (!latest) return undefined;
    // A narrower copy answers only a request it covers: one that asked for a wider window or more
    // shorts would get too many of them, or too few without being told (found by review: a copy of
    // the 61 shorts of a window answered limit 5 with 61, a copy of limit 5 the whole channel with 5).
    // The very request it was read for takes it as it is (narrow() refuses a cut window for any window).
    if (latest.oldestDate === (query.oldestDate ?? null) && latest.limit === (query.limit ?? null))
      return latest.result;
    const covers =
      (latest.oldestDate === null || (query.oldestDate !== undefined && query.oldestDate >= latest.oldestDate)) &&
      (latest.limit === null || (query.limit !== undefined && query.limit <= latest.limit));
    return covers ? narrow(latest.result, query) : undefined;
  }

  async function fetchOnce(
    query: ShortsQuery,
    hooks: FetchHooks,
    knownId: string | undefined,
    mode: SourceMode,
  ): Promise<FetchOutcome> {
    let meter: MeteredWork | undefined;
    const base = knownId
      ? resultKey(knownId, query.oldestDate, query.limit)
      : `${mappingKey(query.ref)}:${query.oldestDate ?? 'all'}:${query.limit ?? 'all'}`;
    // Keyless results are approximate: they never share a flight or a cache entry with exact ones.
    const keyless = mode === 'innertube' && options.source !== 'innertube';
    const flightKey = keyless ? `${base}:keyless` : base;
    // Whether this request led the flight (its own error) or joined another's (the leader's).
    let led = false;
    try {
      const result = await cache.singleFlight(flightKey, knownId && !keyless ? cacheTtlMs : 0, async () => {
        led = true;
        // A flight by address is not shared through the cache (its id is not known yet): another
        // instance's flight for the same address may have finished while this one waited for it,
        // leaving its result under the channel's id (found by review: each instance read the channel again).
        if (!knownId && !keyless && cacheTtlMs > 0) {
          const id = await cache.get<string>(mappingKey(query.ref));
          const ready =
            id === undefined ? undefined : await cache.get<ShortsResult>(resultKey(id, query.oldestDate, query.limit));
          if (ready) return ready;
        }
        meter = await hooks.openMeter();
        const resolved: { id?: string } = {};
        try {
          const fresh = await fetchFresh(knownId, query, meter, mode, hooks, resolved);
          if (keyless) return fresh;
          if (!knownId && cacheTtlMs > 0)
            await cache.set(resultKey(fresh.channel.id, query.oldestDate, query.limit), fresh, cacheTtlMs);
          await keepStale(query, fresh);
          return fresh;
        } finally {
          // The address's id is published once its result is: a request for the address arriving
          // while this one still reads joins this flight, instead of starting a second read by id
          // (found by review). Kept after a failure too: the next attempt need not resolve again.
          if (!knownId && resolved.id && query.ref.type !== 'id')
            await cache.set(mappingKey(query.ref), resolved.id, MAPPING_TTL_MS).catch(() => {});
        }
      });
      return { result, stale: false, ...(meter ? { meter } : {}) };
    } catch (error) {
      if (error instanceof OwnResult && meter) return { result: error.result, stale: false, meter };
      // The error object may be shared with other requests waiting on the same flight: wrap, never mutate.
      throw new FlightFailure(error, meter, led);
    }
  }

  // Sort and duration filters (#14) wrap the service: see sorting.ts.
  return withArrangement(
    {
      async fetch(query, hooks) {
        const knownId = query.ref.type === 'id' ? query.ref.value : await cache.get<string>(mappingKey(query.ref));
        if (knownId && cacheTtlMs > 0) {
          const hit = await cached(knownId, query);
          if (hit) return { result: hit, stale: false };
        }
        // Only on the way upstream: a cached hit (the hot path) costs no extra lookup, in Redis mode no round trip.
        const missing = await cache.get<string>(negativeKey(query.ref));
        if (missing !== undefined) throw new AppError('CHANNEL_NOT_FOUND', missing);
        for (let attempt = 1; ; attempt++) {
          try {
            return await fetchOnce(query, hooks, knownId, options.source);
          } catch (failure) {
            const { error, meter, led } = failure as FlightFailure;
            // Another request's balance or allowance stopped the shared fetch: do our own. That error is
            // the other account's (its balance, its allowance) and never this request's answer: should
            // other requests keep leading and failing, this one gives up with an error of its own
            // (found by review: the third such failure was passed on as it was).
            if (!led && !meter && isPersonal(error)) {
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
              const copy = await staleFor(knownId ?? (await staleCache.get<string>(staleRefKey(query.ref))), query);
              if (copy) return { result: copy, stale: true, ...(meter ? { meter } : {}) };
              // No copy: current keyless data, unless the caller wants exact values only.
              if (innertube && query.freshness !== 'exact') {
                const keyless = await fetchOnce(
                  query,
                  { openMeter: () => (meter ? Promise.resolve(meter) : hooks.openMeter()) },
                  knownId,
                  'innertube',
                ).catch((e: unknown) => {
                  throw e instanceof FlightFailure ? e : new FlightFailure(e, meter);
                });
                return { ...keyless, ...(meter && !keyless.meter ? { meter } : {}) };
              }
            }
            throw failure;
          }
        }
      },
    },
    { now: options.now },
  );
}

/** A failed fetch, with the meter of the upstream work this request did (if it led). */
export class FlightFailure extends Error {
  readonly error: unknown;
  readonly meter: MeteredWork | undefined;
  /** This request led the flight: the error is its own (its meter may not have opened: its balance). */
  readonly led: boolean;
  constructor(error: unknown, meter: MeteredWork | undefined, led = meter !== undefined) {
    super((error as Error)?.message ?? String(error));
    this.error = error;
    this.meter = meter;
    this.led = led;
  }
}

/** InnerTube could not be used (breaker open) where nothing else can stand in. */
class InnertubeDown extends Error {
  readonly kind = 'unavailable';
}

/** A channel reference as the address InnerTube's resolver understands. */
export function channelAddress(ref: Ref): string {
  const value = encodeURIComponent(ref.value);
  switch (ref.type) {
    case 'id':
      return `https://www.youtube.com/channel/${value}`;
    case 'handle':
      return `https://www.youtube.com/@${value}`;
    case 'username':
      return `https://www.youtube.com/user/${value}`;
    case 'custom':
      return `https://www.youtube.com/c/${value}`;
  }
}

/** The error inside a FlightFailure, or the error itself. */
export function unwrapFailure(error: unknown): { error: unknown; meter: MeteredWork | undefined } {
  return error instanceof FlightFailure ? { error: error.error, meter: error.meter } : { error, meter: undefined };
}

/** A full result answers any narrower request: keep the window, then the newest `limit`. */
function narrow(full: ShortsResult | undefined, query: ShortsQuery): ShortsResult | undefined {
  if (!full) return undefined;
  let shorts = full.shorts;
  if (query.oldestDate !== undefined) {
    // A truncated full result is missing older shorts that may fall in the window.
    if (full.truncated) return undefined;
    const dates = shorts.map((s) => parseTimestamp(s.snippet.publishedAt));
    // A keyless listing read without a window has no publish dates: it cannot tell the window (found by review).
    if (dates.some((d) => d === undefined)) return undefined;
    shorts = shorts.filter((_, i) => dates[i]! >= query.oldestDate!);
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
