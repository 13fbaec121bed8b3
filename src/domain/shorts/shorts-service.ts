// Fetches a channel's details and Shorts for a request, through the shared cache:
// - address → channel id mappings are cached for a day (they practically never change);
// - results are cached per (channel, oldestDate) for CACHE_TTL; a full result also answers any
//   oldestDate by filtering, so it costs no quota;
// - identical concurrent requests share one upstream fetch (single-flight).
import type { Cache } from '../../infra/cache/cache.ts';
import type { ChannelRef } from './channel-url.ts';
import { resolveChannel } from './channel-resolver.ts';
import { collectShorts, shortsPlaylistId } from './shorts-collector.ts';
import { channelIdentity, parseTimestamp, toChannel, toShort } from './mapping.ts';
import type { ShortsResult } from './shorts-types.ts';
import { QUOTA_COST, type YoutubeClient } from './youtube-client.ts';
import type { YtChannel } from './youtube-types.ts';
import { AppError } from '../../errors.ts';

const MAPPING_TTL_MS = 24 * 3600 * 1000;

export interface ShortsQuery {
  ref: ChannelRef;
  oldestDate?: number;
}

export interface FetchOutcome {
  result: ShortsResult;
  /** Upstream quota units this request caused (0 when served from cache or another request's fetch). */
  quotaUnits: number;
  cacheHit: boolean;
}

export interface ShortsServiceOptions {
  client: YoutubeClient;
  cache: Cache;
  cacheTtlMs: number;
  maxShorts: number;
  onQuota?: (units: number) => void;
}

export interface FetchHooks {
  /** Runs only when the result is not cached, before any upstream call (e.g. a credit check). */
  beforeUpstream?: () => Promise<void>;
}

export interface ShortsService {
  fetch(query: ShortsQuery, hooks?: FetchHooks): Promise<FetchOutcome>;
}

export function createShortsService(options: ShortsServiceOptions): ShortsService {
  const { client, cache, cacheTtlMs, maxShorts } = options;

  const mappingKey = (ref: ChannelRef) => `yt:ref:${ref.type}:${ref.value.toLowerCase()}`;
  const resultKey = (channelId: string, oldestDate: number | undefined) => `yt:shorts:${channelId}:${maxShorts}:${oldestDate ?? 'all'}`;

  async function fetchFresh(channelId: string | undefined, query: ShortsQuery): Promise<{ result: ShortsResult; units: number }> {
    let units = 0;
    let channel: YtChannel;
    let firstPage;
    if (channelId) {
      // Known id: the channel and the first playlist page travel together.
      firstPage = client.playlistItems(shortsPlaylistId(channelId));
      firstPage.catch(() => {});
      units += QUOTA_COST.channels;
      const [found] = (await client.channels({ id: channelId })).items ?? [];
      if (!found) {
        await cache.delete(mappingKey(query.ref));
        throw new AppError('CHANNEL_NOT_FOUND');
      }
      channel = found;
    } else {
      const resolved = await resolveChannel(client, query.ref);
      units += resolved.units;
      channel = resolved.channel;
      await cache.set(mappingKey(query.ref), channel.id, MAPPING_TTL_MS);
    }
    const collected = await collectShorts(client, channel.id, { oldestDate: query.oldestDate, maxShorts, ...(firstPage ? { firstPage } : {}) });
    units += collected.units;
    const mapped = toChannel(channel);
    const identity = channelIdentity(mapped);
    return { result: { channel: mapped, shorts: collected.videos.map((v) => toShort(v, identity)), truncated: collected.truncated }, units };
  }

  return {
    async fetch(query, hooks = {}) {
      const knownId = query.ref.type === 'id' ? query.ref.value : await cache.get<string>(mappingKey(query.ref));
      if (knownId && cacheTtlMs > 0) {
        const cached = (await cache.get<ShortsResult>(resultKey(knownId, query.oldestDate))) ?? filterFull(await cache.get<ShortsResult>(resultKey(knownId, undefined)), query.oldestDate);
        if (cached) return { result: cached, quotaUnits: 0, cacheHit: true };
      }
      await hooks.beforeUpstream?.();
      let units = 0;
      const flightKey = knownId ? resultKey(knownId, query.oldestDate) : `${mappingKey(query.ref)}:${query.oldestDate ?? 'all'}`;
      const result = await cache.singleFlight(flightKey, knownId ? cacheTtlMs : 0, async () => {
        const fresh = await fetchFresh(knownId, query);
        units = fresh.units;
        options.onQuota?.(fresh.units);
        if (!knownId && cacheTtlMs > 0) await cache.set(resultKey(fresh.result.channel.id, query.oldestDate), fresh.result, cacheTtlMs);
        return fresh.result;
      });
      return { result, quotaUnits: units, cacheHit: false };
    },
  };
}

/** A cached full (untruncated) result answers any oldestDate. */
function filterFull(full: ShortsResult | undefined, oldestDate: number | undefined): ShortsResult | undefined {
  if (!full || full.truncated || oldestDate === undefined) return oldestDate === undefined ? full : undefined;
  return { ...full, shorts: full.shorts.filter((s) => (parseTimestamp(s.snippet.publishedAt) ?? Infinity) >= oldestDate) };
}
