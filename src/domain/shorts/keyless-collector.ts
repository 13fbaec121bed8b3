// Keyless listing (YOUTUBE_SOURCE=innertube, or when every Data API key is spent): the Shorts tab
// alone. A tab item has an id, a title, thumbnails and a rounded view count, but no publish date.
// Dates come from the player endpoint, one call per video, which YouTube rate-limits and
// bot-checks, so they are asked only where a window needs them: the last item of each tab page
// until one is older than oldestDate, then a binary search for the window's edge within that page
// (about pages + log2(48) ≈ pages + 6 calls). Answers are cached for good: publish dates do not
// change. Items whose date was looked up carry it; the others stay without one.
import { AppError } from '../../errors.ts';
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
}

export async function collectKeyless(
  first: InnertubeShortsPage,
  options: KeylessCollectOptions,
): Promise<KeylessCollected> {
  const details = new Map<string, InnertubeVideo>();
  let dateLookups = 0;
  const dateOf = async (item: InnertubeShortItem): Promise<number | undefined> => {
    dateLookups++;
    const video = await options.video(item.id);
    if (video) details.set(item.id, video);
    return parseTimestamp(video?.publishedAt);
  };
  const isOlder = async (item: InnertubeShortItem) => {
    const at = await dateOf(item);
    if (at === undefined)
      throw new AppError(
        'UPSTREAM_ERROR',
        `The video platform gave no publish date for short ${item.id}, which oldestDate needs in keyless mode.`,
      );
    // The player gives dates to the second, the Data API some with a fraction: a short of the same
    // second as oldestDate may be up to 999 ms later than it says, so it is kept (found by review:
    // published at 06:00:00.129, it was left out of a window from 06:00:00.129).
    return at + (at % 1000 === 0 ? 999 : 0) < options.oldestDate!;
  };

  const items: InnertubeShortItem[] = [];
  const seen = new Set<string>();
  let truncated = false;
  let pages = 0;
  let page: InnertubeShortsPage | undefined = first;
  let edgeFrom = -1; // index of the first item of the page holding the window's edge
  let beyond: InnertubeShortItem | undefined; // the first item the cap cut off
  while (page) {
    pages++;
    const start = items.length;
    for (const item of page.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
    }
    if (items.length > options.cap) {
      truncated = options.capIsServiceMax;
      beyond = items[options.cap];
      items.length = options.cap;
    } else if (items.length === options.cap && page.hasMore && options.capIsServiceMax) {
      truncated = true;
    }
    if (options.oldestDate !== undefined && items.length > start && (await isOlder(items[items.length - 1]!))) {
      edgeFrom = start;
      truncated = false; // the window ends inside what was read
      break;
    }
    if (items.length >= options.cap || !page.hasMore) break;
    // As in tab-collector.ts: the page after the next one is asked for early only when it will be wanted.
    page = await page.next({
      readAhead: options.oldestDate === undefined && options.cap - items.length > page.items.length,
    });
  }
  // A window holding exactly `cap` shorts: the first one cut off tells whether more of the window
  // exist (found by review: it said truncated where the Data API path, reading one page more, did not).
  if (truncated && options.oldestDate !== undefined && edgeFrom < 0) {
    // A cap reached at a page's end: that id is the next page's first (found by review: caps that are
    // a multiple of the page size kept saying truncated).
    if (!beyond && page?.hasMore)
      beyond = await page.next({ readAhead: false }).then(
        (next) => next.items.find((i) => !seen.has(i.id)),
        () => undefined,
      );
    // Only a refinement: should that date lookup fail (throttled, bot-checked, no date), the answer stays truncated.
    if (beyond && (await isOlder(beyond).catch(() => false))) truncated = false;
  }
  if (edgeFrom >= 0) {
    // Binary search for the first older item in [edgeFrom, last]; the last is known to be older.
    let lo = edgeFrom;
    let hi = items.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (await isOlder(items[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    items.length = lo;
  }
  return { items, details, truncated, pages, dateLookups };
}
