// Reads a channel's Shorts playlist (UUSH + channel id without "UC") page by page and loads video
// details in batches of 50. The next playlist page is requested as soon as a page arrives, so it
// travels while that page's videos.list is in flight. With oldestDate, paging stops at the first
// page whose items are all older: the playlist is newest-first in practice but Google does not
// promise it, so one fully-out-of-window page is the safety margin. With limit, paging stops as
// soon as that many shorts are listed.
//
// The first page's pageInfo.totalResults tells how many shorts the channel has, so the price is
// known after two units and the budget is asked to commit before anything else is read.
import { PlaylistNotFound, type YoutubeCalls } from './youtube-client.ts';
import { parseTimestamp } from './mapping.ts';
import type { YtListResponse, YtPlaylistItem, YtVideo } from './youtube-types.ts';
import { BudgetExhausted } from '../quota/quota-meter.ts';

export interface CollectBudget {
  /** After the first page: `total` shorts in the playlist (0 when it does not exist; undefined when unknown). May throw (402). */
  onFirstPage(total: number | undefined): Promise<void>;
  /** Before loading details that bring the result to `items` shorts; false = the balance stops here. */
  allowItems(items: number): Promise<boolean>;
}

export interface CollectOptions {
  oldestDate?: number;
  /** At most this many shorts: min(limit, MAX_SHORTS_PER_REQUEST). */
  cap: number;
  /** True when `cap` is MAX_SHORTS_PER_REQUEST (not the caller's limit): more left out = truncated. */
  capIsServiceMax: boolean;
  budget: CollectBudget;
  /** A first page already requested (e.g. in parallel with channels.list). */
  firstPage?: Promise<YtListResponse<YtPlaylistItem>>;
  /**
   * Each details batch as it arrives, before the rest is read (a window or the balance may still
   * leave some of its videos out of the result): lets the caller start on them meanwhile.
   */
  onVideos?: (videos: YtVideo[]) => void;
}

export interface Collected {
  videos: YtVideo[];
  /** More matching shorts exist than MAX_SHORTS_PER_REQUEST. */
  truncated: boolean;
  /** The balance stopped the read before the end of the window. */
  budgetStopped: boolean;
  pages: number;
}

export function shortsPlaylistId(channelId: string): string {
  return 'UUSH' + channelId.slice(2);
}

export async function collectShorts(
  calls: YoutubeCalls,
  channelId: string,
  options: CollectOptions,
): Promise<Collected> {
  const playlistId = shortsPlaylistId(channelId);
  const inWindow = (published: string | undefined) => {
    if (options.oldestDate === undefined) return true;
    const ms = parseTimestamp(published);
    return ms === undefined || ms >= options.oldestDate; // unknown dates are decided by the video's own publishedAt
  };
  let pages = 0;
  let pending: Promise<YtListResponse<YtPlaylistItem>> | undefined =
    options.firstPage ?? calls.playlistItems(playlistId);
  // Failed detail batches must not surface as unhandled rejections while we await later pages.
  const batches: Promise<YtListResponse<YtVideo>>[] = [];
  const seen = new Set<string>();
  let wanted = 0;
  let truncated = false;
  let budgetStopped = false;
  while (pending) {
    let page: YtListResponse<YtPlaylistItem>;
    try {
      page = await pending;
    } catch (error) {
      // The Shorts playlist does not exist for a channel that has never posted a Short.
      if (error instanceof PlaylistNotFound && pages === 0) {
        await options.budget.onFirstPage(0);
        return { videos: [], truncated: false, budgetStopped: false, pages };
      }
      if (error instanceof BudgetExhausted) {
        budgetStopped = true;
        break;
      }
      await Promise.allSettled(batches);
      throw error;
    }
    if (pages === 0) await options.budget.onFirstPage(page.pageInfo?.totalResults ?? (page.items ?? []).length);
    pages++;
    pending = undefined;
    // Page tokens are positions in the list: a short published (or removed) between two pages shifts
    // the items, and one already read comes again — read once (found by review: it was returned and
    // priced twice). One removed meanwhile can likewise shift an item past the next page; nothing
    // short of reading the list again finds that one.
    const items = (page.items ?? []).filter((item) => {
      const id = item.contentDetails?.videoId;
      if (!id || seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    const matching = items.filter((item) => inWindow(item.contentDetails!.videoPublishedAt));
    const allOlder = options.oldestDate !== undefined && items.length > 0 && matching.length === 0;
    if (wanted >= options.cap) {
      // We only read this page to learn whether anything was left out.
      truncated = options.capIsServiceMax && matching.length > 0;
      break;
    }
    const room = options.cap - wanted;
    let ids = matching.slice(0, room).map((item) => item.contentDetails!.videoId!);
    const full = matching.length >= room;
    if (matching.length > room) truncated = options.capIsServiceMax;
    if (ids.length > 0 && !(await options.budget.allowItems(wanted + ids.length))) {
      ids = [];
      budgetStopped = true;
    }
    wanted += ids.length;
    // Without a window, whether more exist beyond the service's cap is known from the page token.
    if (full && page.nextPageToken && options.oldestDate === undefined && options.capIsServiceMax) truncated = true;
    const readOn =
      page.nextPageToken &&
      !allOlder &&
      !truncated &&
      !budgetStopped &&
      !(full && (options.oldestDate === undefined || !options.capIsServiceMax));
    if (readOn) {
      pending = calls.playlistItems(playlistId, page.nextPageToken);
      pending.catch(() => {});
    }
    if (ids.length > 0) {
      const batch = calls.videos(ids);
      batch.then(
        (r) => options.onVideos?.(r.items ?? []),
        () => {},
      );
      batches.push(batch);
    }
  }
  let responses: YtListResponse<YtVideo>[];
  try {
    responses = await Promise.all(batches);
  } catch (error) {
    if (!(error instanceof BudgetExhausted)) throw error;
    // A details batch the reservation could not pay for: keep the batches that were paid.
    budgetStopped = true;
    responses = (await Promise.allSettled(batches)).flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  }
  const videos = responses
    .flatMap((r) => r.items ?? [])
    .filter(
      (video) =>
        options.oldestDate === undefined ||
        (parseTimestamp(video.snippet?.publishedAt) ?? Infinity) >= options.oldestDate,
    );
  return { videos, truncated: truncated || budgetStopped, budgetStopped, pages };
}
