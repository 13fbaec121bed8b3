// The Data API source: the channel from channels.list (or the resolver's strategies for an
// address), its Shorts from the UUSH playlist page by page, their details from videos.list.
// hybrid.ts reads the same way once it has the Shorts tab's ids.
import type { Short } from '../../../contract/shorts.ts';
import { AppError, isAppError } from '../../../errors.ts';
import { resolveChannel } from '../channel-resolver.ts';
import { toShort } from '../mapping.ts';
import type { FetchHooks } from '../shorts-query.ts';
import type { ShortsResult } from '../shorts-result.ts';
import { type Collected, type CollectOptions, collectShorts, shortsPlaylistId } from '../shorts-collector.ts';
import { newestFirst } from '../sorting.ts';
import { collectFromTab } from '../tab-collector.ts';
import type { YtVideo } from '../youtube-types.ts';
import {
  type FoundChannel,
  inFlight,
  type ListingFrame,
  cutShort,
  failureText,
  listingFrame,
  OwnResult,
  type ShortsSource,
  type SourceContext,
  type SourceRead,
} from './source.ts';

/** One listing page holds at most this many ids (playlistItems maxResults). */
const PAGE_SIZE = 50;

export const dataApiSource: ShortsSource = {
  async findChannel(ctx, read) {
    const { channelId, calls, query, work } = read;
    if (channelId)
      return channelById(ctx, read, channelId, () => ({
        firstPage: inFlight(calls.playlistItems(shortsPlaylistId(channelId))),
      }));
    return { channel: await resolveChannel(query.ref, { calls, canSpendUnpaid: work.canSpendUnpaid }) };
  },
  readShorts: readDataApiShorts,
};

/** A known id: the channel and the first listing page (`startListing`) travel together. */
export async function channelById(
  ctx: SourceContext,
  read: SourceRead,
  channelId: string,
  startListing: () => Omit<FoundChannel, 'channel'>,
): Promise<FoundChannel> {
  const listing = startListing();
  const [found] = (await read.calls.channels({ id: channelId })).items ?? [];
  if (!found) {
    await ctx.forgetAddress(read.query.ref);
    throw new AppError('CHANNEL_NOT_FOUND');
  }
  return { channel: found, ...listing };
}

/**
 * The found channel's shorts with exact Data API fields: from the Shorts tab's ids when `found`
 * has its first page (hybrid), else from the UUSH playlist. Paid as it reads: the price is held
 * once the first page tells the channel's size (MeteredWork.listingBudget). A read the balance cut
 * short is the requester's own (OwnResult).
 */
export async function readDataApiShorts(
  ctx: SourceContext,
  read: SourceRead,
  found: FoundChannel,
): Promise<ShortsResult> {
  // The Shorts tab's first page (hybrid) is awaited by the listing first anyway: its header shows the handle's case.
  const shown = found.tab && (await found.tab.then((first) => first.channel?.handle).catch(() => undefined));
  const frame = listingFrame(ctx, read.query, found.channel, shown || undefined);
  const early = earlyShorts(read.hooks, frame);
  const options: CollectOptions = {
    cap: frame.cap,
    capIsServiceMax: frame.capIsServiceMax,
    onVideos: early.onVideos,
    oldestDate: read.query.oldestDate,
    budget: read.work.listingBudget({ oldestDate: read.query.oldestDate, cap: frame.cap, pageSize: PAGE_SIZE }),
  };
  const { collected, source, partial } = await collect(ctx, read, found, options);
  ctx.onUpstream?.(read.work.spent);
  const result: ShortsResult = {
    channel: frame.channel,
    shorts: newestFirst(early.shortsOf(collected.videos)),
    truncated: collected.truncated,
    ...(collected.truncated ? { truncatedBy: collected.budgetStopped ? ('balance' as const) : ('max' as const) } : {}),
    fetchedAt: frame.fetchedAt,
    source,
    ...(partial !== undefined ? cutShort(partial) : {}),
  };
  if (collected.budgetStopped || partial !== undefined) throw new OwnResult(result);
  return result;
}

/**
 * The listing: the Shorts tab where it was asked for and answered, else (or as its fallback) the
 * playlist. A tab that failed after some shorts were read falls back to the playlist too; should
 * that fail as well, the tab's shorts are the answer, cut short (`partial`).
 */
async function collect(
  ctx: SourceContext,
  read: SourceRead,
  found: FoundChannel,
  options: CollectOptions,
): Promise<{ collected: Collected; source: 'data-api' | 'hybrid'; partial?: string }> {
  let partial: Collected | undefined;
  if (found.tab) {
    try {
      const first = await found.tab;
      ctx.innertube.succeeded('browse');
      // An empty tab on a channel that reports videos may be a tab that failed to render: ask the playlist.
      if (first.items.length > 0 || Number(found.channel.statistics?.videoCount ?? 0) === 0) {
        const collected = await collectFromTab(read.calls, first, options);
        if (collected.failure === undefined || !collected.truncated) return { collected, source: 'hybrid' };
        ctx.innertube.failed(collected.failure, 'browse');
        partial = collected;
      }
    } catch (error) {
      if (!ctx.innertube.failed(error, 'browse')) throw error; // the UUSH playlist below is the fallback
    }
  }
  const firstPage = found.firstPage ? { firstPage: found.firstPage } : {};
  try {
    return {
      collected: await collectShorts(read.calls, found.channel.id, { ...options, ...firstPage }),
      source: 'data-api',
    };
  } catch (error) {
    if (!partial || !isAppError(error) || !UPSTREAM_FAILURES.has(error.code)) throw error;
    return {
      collected: partial,
      source: 'hybrid',
      partial:
        `YouTube's web API ${failureText(partial.failure)} Reading on through the Data API ` + `${failureText(error)}`,
    };
  }
}

/** Data API failures after which a partial read of the tab is worth answering (not a spent quota: that has its own fallbacks). */
const UPSTREAM_FAILURES = new Set([
  'UPSTREAM_ERROR',
  'UPSTREAM_RATE_LIMITED',
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_UNAVAILABLE',
]);

/**
 * Shorts are mapped as their details arrive and offered to the caller (hooks.onShorts), after the
 * I/O callbacks pending then: the next listing page's, on the critical path. The result reuses
 * them; a batch whose turn comes after the result was built (the last one, often) is left to it.
 */
function earlyShorts(hooks: FetchHooks, frame: ListingFrame) {
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
            const short = toShort(video, frame.identity);
            early.set(video, short);
            return short;
          }),
        );
      }));
  return {
    onVideos,
    shortsOf(videos: YtVideo[]): Short[] {
      built = true;
      return videos.map((v) => early.get(v) ?? toShort(v, frame.identity));
    },
  };
}
