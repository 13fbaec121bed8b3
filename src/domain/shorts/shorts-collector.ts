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
  /**
   * After the first page: `total` shorts in the playlist (0 when it does not exist; undefined when unknown). May throw
   * (402).
   */
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
  /** The Shorts tab's failure that ended the read before its end (then `truncated`): hybrid only. */
  failure?: unknown;
}

export function shortsPlaylistId(channelId: string): string {
  return 'UUSH' + channelId.slice(2);
}

/** What a read of the playlist has found so far. */
interface Reading {
  pages: number;
  /** Ids already read: a shifted list may list one again. */
  seen: Set<string>;
  /** Shorts whose details were asked for. */
  wanted: number;
  truncated: boolean;
  budgetStopped: boolean;
  /** Detail batches in flight, in listing order. */
  batches: Promise<YtListResponse<YtVideo>>[];
}

export async function collectShorts(
  calls: YoutubeCalls,
  channelId: string,
  options: CollectOptions,
): Promise<Collected> {
  const playlistId = shortsPlaylistId(channelId);
  const reading: Reading = {
    pages: 0,
    seen: new Set(),
    wanted: 0,
    truncated: false,
    budgetStopped: false,
    batches: [],
  };
  let pending: Promise<YtListResponse<YtPlaylistItem>> | undefined =
    options.firstPage ?? calls.playlistItems(playlistId);
  while (pending) {
    let page: YtListResponse<YtPlaylistItem>;
    try {
      page = await pending;
    } catch (error) {
      // The Shorts playlist does not exist for a channel that has never posted a Short.
      if (error instanceof PlaylistNotFound && reading.pages === 0) {
        await options.budget.onFirstPage(0);
        return { videos: [], truncated: false, budgetStopped: false, pages: 0 };
      }
      if (error instanceof BudgetExhausted) {
        reading.budgetStopped = true;
        break;
      }
      // Failed detail batches must not surface as unhandled rejections once this one is thrown.
      await Promise.allSettled(reading.batches);
      throw error;
    }
    if (reading.pages === 0) await options.budget.onFirstPage(page.pageInfo?.totalResults ?? (page.items ?? []).length);
    reading.pages++;
    pending = (await takePage(calls, playlistId, page, reading, options)).next;
  }
  return collected(reading, options);
}

/** Unknown dates are decided by the video's own publishedAt, once its details are read. */
function inWindow(options: CollectOptions, published: string | undefined): boolean {
  if (options.oldestDate === undefined) return true;
  const ms = parseTimestamp(published);
  return ms === undefined || ms >= options.oldestDate;
}

/**
 * Takes one listing page: asks for the details of its shorts that fit (the cap, the window, the
 * balance) and returns the next page's request, already sent, when the read goes on (wrapped: an
 * async function would await it). The next page is asked for before the details, so it travels
 * while they are read.
 */
async function takePage(
  calls: YoutubeCalls,
  playlistId: string,
  page: YtListResponse<YtPlaylistItem>,
  reading: Reading,
  options: CollectOptions,
): Promise<{ next?: Promise<YtListResponse<YtPlaylistItem>> | undefined }> {
  // Page tokens are positions in the list: a short published (or removed) between two pages shifts
  // the items, and one already read comes again — it is read once, or it would be returned and
  // priced twice. One removed meanwhile can likewise shift an item past the next page; nothing
  // short of reading the list again finds that one.
  const items = (page.items ?? []).filter((item) => {
    const id = item.contentDetails?.videoId;
    if (!id || reading.seen.has(id)) return false;
    reading.seen.add(id);
    return true;
  });
  const matching = items.filter((item) => inWindow(options, item.contentDetails!.videoPublishedAt));
  const allOlder = options.oldestDate !== undefined && items.length > 0 && matching.length === 0;
  if (reading.wanted >= options.cap) {
    // This page was read only to learn whether anything was left out.
    reading.truncated = options.capIsServiceMax && matching.length > 0;
    return {};
  }
  const room = options.cap - reading.wanted;
  let ids = matching.slice(0, room).map((item) => item.contentDetails!.videoId!);
  const full = matching.length >= room;
  if (matching.length > room) reading.truncated = options.capIsServiceMax;
  if (ids.length > 0 && !(await options.budget.allowItems(reading.wanted + ids.length))) {
    ids = [];
    reading.budgetStopped = true;
  }
  reading.wanted += ids.length;
  // Without a window, whether more exist beyond the service's cap is known from the page token.
  if (full && page.nextPageToken && options.oldestDate === undefined && options.capIsServiceMax)
    reading.truncated = true;
  const readOn =
    page.nextPageToken &&
    !allOlder &&
    !reading.truncated &&
    !reading.budgetStopped &&
    !(full && (options.oldestDate === undefined || !options.capIsServiceMax));
  const next = readOn ? calls.playlistItems(playlistId, page.nextPageToken) : undefined;
  next?.catch(() => {});
  if (ids.length > 0) {
    const batch = calls.videos(ids);
    batch.then(
      (r) => options.onVideos?.(r.items ?? []),
      () => {},
    );
    reading.batches.push(batch);
  }
  return { next };
}

/** The details read, in the window; a batch the reservation could not pay for stops the read there. */
async function collected(reading: Reading, options: CollectOptions): Promise<Collected> {
  let { budgetStopped } = reading;
  let responses: YtListResponse<YtVideo>[];
  try {
    responses = await Promise.all(reading.batches);
  } catch (error) {
    if (!(error instanceof BudgetExhausted)) throw error;
    // A details batch the reservation could not pay for: keep the batches that were paid.
    budgetStopped = true;
    responses = (await Promise.allSettled(reading.batches)).flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  }
  const videos = responses
    .flatMap((r) => r.items ?? [])
    .filter(
      (video) =>
        options.oldestDate === undefined ||
        (parseTimestamp(video.snippet?.publishedAt) ?? Infinity) >= options.oldestDate,
    );
  return { videos, truncated: reading.truncated || budgetStopped, budgetStopped, pages: reading.pages };
}
