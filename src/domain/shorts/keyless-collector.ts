// Keyless listing (YOUTUBE_SOURCE=innertube, or when every Data API key is spent): the Shorts tab
// alone. A tab item has an id, a title, thumbnails and a rounded view count, but no publish date.
// Dates come from the player endpoint, one call per video, which YouTube rate-limits and
// bot-checks, so they are asked only where a window needs them: the last item of each tab page
// until one is older than oldestDate, then a binary search for the window's edge within that page
// (about pages + log2(48) ≈ pages + 6 calls). Answers are cached for good: publish dates do not
// change. Items whose date was looked up carry it; the others stay without one.
//
// A page after the first that still fails after the client's retries ends the listing: what was
// read is kept and the listing says why it stopped (`failure`), so the caller answers it truncated.
import { AppError } from '../../errors.ts';
import { innertubeFailureKind } from './innertube-source.ts';
import { parseTimestamp } from './mapping.ts';
import type { InnertubeShortItem, InnertubeShortsPage, InnertubeVideo } from './innertube-source.ts';

export interface KeylessCollectOptions {
  oldestDate?: number;
  cap: number;
  capIsServiceMax: boolean;
  /** The player's answer for a video (cached, throttled); undefined when YouTube has none. */
  video(id: string): Promise<InnertubeVideo | undefined>;
}

export interface KeylessCollected {
  items: InnertubeShortItem[];
  details: Map<string, InnertubeVideo>;
  truncated: boolean;
  pages: number;
  /** Player calls made for dates (cache hits included). */
  dateLookups: number;
  /** The InnerTube failure that ended the listing before its end (then `truncated`). */
  failure?: unknown;
}

export async function collectKeyless(
  first: InnertubeShortsPage,
  options: KeylessCollectOptions,
): Promise<KeylessCollected> {
  const dates = publishDates(options);
  const listed = await listTab(first, options, dates);
  const { items } = listed;
  let { truncated } = listed;
  if (listed.failure !== undefined)
    return {
      items,
      details: dates.details,
      truncated,
      pages: listed.pages,
      dateLookups: dates.lookups,
      failure: listed.failure,
    };
  if (truncated && options.oldestDate !== undefined && listed.edgeFrom < 0)
    truncated = !(await windowEndsAtCap(listed, dates));
  if (listed.edgeFrom >= 0) items.length = await firstOlder(items, listed.edgeFrom, dates);
  return { items, details: dates.details, truncated, pages: listed.pages, dateLookups: dates.lookups };
}

interface PublishDates {
  /** The player's answers, by video id. */
  details: Map<string, InnertubeVideo>;
  lookups: number;
  /** Whether the item was published before oldestDate (UPSTREAM_ERROR when the player gives no date). */
  isOlder(item: InnertubeShortItem): Promise<boolean>;
}

function publishDates(options: KeylessCollectOptions): PublishDates {
  const dates: PublishDates = {
    details: new Map(),
    lookups: 0,
    async isOlder(item) {
      dates.lookups++;
      const video = await options.video(item.id);
      if (video) dates.details.set(item.id, video);
      const at = parseTimestamp(video?.publishedAt);
      if (at === undefined)
        throw new AppError(
          'UPSTREAM_ERROR',
          `The video platform gave no publish date for short ${item.id}, which oldestDate needs in keyless mode.`,
        );
      // The player gives dates to the second, the Data API some with a fraction: a short of the same
      // second as oldestDate may be up to 999 ms later than it says, so it is kept (published at
      // 06:00:00.129, it belongs to a window from 06:00:00.129).
      return at + (at % 1000 === 0 ? 999 : 0) < options.oldestDate!;
    },
  };
  return dates;
}

interface TabListing {
  items: InnertubeShortItem[];
  seen: Set<string>;
  truncated: boolean;
  pages: number;
  /** Index of the first item of the page holding the window's edge (-1: none found). */
  edgeFrom: number;
  /** The first item the cap cut off. */
  beyond: InnertubeShortItem | undefined;
  /** The last page read. */
  page: InnertubeShortsPage;
  /** The failure of the page after it, when one ended the listing. */
  failure?: unknown;
}

/** Lists the tab page by page until the cap, its end, or (with a window) a page whose last item is older. */
async function listTab(
  first: InnertubeShortsPage,
  options: KeylessCollectOptions,
  dates: PublishDates,
): Promise<TabListing> {
  const listing: TabListing = {
    items: [],
    seen: new Set(),
    truncated: false,
    pages: 0,
    edgeFrom: -1,
    beyond: undefined,
    page: first,
  };
  const { items, seen } = listing;
  for (let page = first; ; ) {
    listing.page = page;
    listing.pages++;
    const start = items.length;
    for (const item of page.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
    }
    if (items.length > options.cap) {
      listing.truncated = options.capIsServiceMax;
      listing.beyond = items[options.cap];
      items.length = options.cap;
    } else if (items.length === options.cap && page.hasMore && options.capIsServiceMax) {
      listing.truncated = true;
    }
    if (options.oldestDate !== undefined && items.length > start && (await dates.isOlder(items[items.length - 1]!))) {
      listing.edgeFrom = start;
      listing.truncated = false; // the window ends inside what was read
      return listing;
    }
    if (items.length >= options.cap || !page.hasMore) return listing;
    // As in tab-collector.ts: the page after the next one is asked for early only when it will be wanted.
    try {
      page = await page.next({
        readAhead: options.oldestDate === undefined && options.cap - items.length > page.items.length,
      });
    } catch (error) {
      if (!innertubeFailureKind(error) || items.length === 0) throw error;
      listing.failure = error;
      listing.truncated = true;
      return listing;
    }
  }
}

/**
 * A window holding exactly `cap` shorts: the first one cut off tells whether more of the window
 * exist (else it would say truncated where the Data API path, reading one page more, does not).
 */
async function windowEndsAtCap(listing: TabListing, dates: PublishDates): Promise<boolean> {
  let beyond = listing.beyond;
  // A cap reached at a page's end: that id is the next page's first (else caps that are a multiple
  // of the page size would keep saying truncated).
  if (!beyond && listing.page.hasMore)
    beyond = await listing.page.next({ readAhead: false }).then(
      (next) => next.items.find((i) => !listing.seen.has(i.id)),
      () => undefined,
    );
  // Only a refinement: should that date lookup fail (throttled, bot-checked, no date), the answer stays truncated.
  return !!beyond && (await dates.isOlder(beyond).catch(() => false));
}

/** Binary search for the first older item in [edgeFrom, last]; the last is known to be older. */
async function firstOlder(items: InnertubeShortItem[], edgeFrom: number, dates: PublishDates): Promise<number> {
  let lo = edgeFrom;
  let hi = items.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (await dates.isOlder(items[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
