// Hybrid listing: the Shorts' ids from the channel's Shorts tab (InnerTube, 0 units), their details
// from videos.list 50 at a time (1 unit each, exact Data API fields). Half the quota of the UUSH
// playlist path, which needs a playlist page (1 unit) per 50 ids as well.
//
// The next tab page is requested while the current details batch is in flight. The tab's order is
// newest first in practice but not documented as strictly by date, so with oldestDate the reading
// stops after the first details batch whose shorts are all older (that batch is the margin).
//
// A tab page after the first that still fails after the client's retries ends the read: the ids
// listed so far get their details and the read says why it stopped (`failure`).
import { BudgetExhausted } from '../quota/quota-meter.ts';
import { innertubeFailureKind } from './innertube-source.ts';
import { parseTimestamp } from './mapping.ts';
import type { CollectOptions, Collected } from './shorts-collector.ts';
import type { InnertubeShortsPage } from './innertube-source.ts';
import type { YoutubeCalls } from './youtube-client.ts';
import type { YtVideo } from './youtube-types.ts';

const BATCH = 50;

/** What a read of the tab has found so far. */
interface TabReading {
  seen: Set<string>;
  /** Ids listed whose details are not asked for yet. */
  queue: string[];
  videos: YtVideo[];
  /** Ids listed under the cap (the sentinel is not). */
  listed: number;
  truncated: boolean;
  budgetStopped: boolean;
  stop: boolean;
  pages: number;
  failure?: unknown;
  /**
   * With a window, the first id the cap cuts off is read with the last batch: older than the
   * window, it shows nothing of the window is missing (else a window of exactly `cap` shorts would
   * say truncated, unlike the playlist path's). Never returned, never priced.
   */
  sentinel?: string;
}

export async function collectFromTab(
  calls: YoutubeCalls,
  first: InnertubeShortsPage,
  options: CollectOptions,
): Promise<Collected> {
  // The tab does not say how many shorts there are: the reservation grows as they are read.
  await options.budget.onFirstPage(undefined);
  const reading: TabReading = {
    seen: new Set(),
    queue: [],
    videos: [],
    listed: 0,
    truncated: false,
    budgetStopped: false,
    stop: false,
    pages: 1,
  };
  let page: InnertubeShortsPage | undefined = first;
  while (page && !reading.stop) {
    listPage(reading, page, options);
    const capReached = reading.listed >= options.cap;
    if (capReached && options.capIsServiceMax && page.hasMore) reading.truncated = true;
    if (capReached) await listSentinelBeyond(reading, page, options);
    // Read ahead (the page after the next one too) only when that page will surely be wanted: no
    // window that may end on the next page, and more room under the cap than one page holds.
    const readAhead: boolean = options.oldestDate === undefined && options.cap - reading.listed > page.items.length;
    const next: Promise<InnertubeShortsPage> | undefined =
      page.hasMore && !capReached ? page.next({ readAhead }) : undefined;
    // Started early and awaited on the next iteration, where its error surfaces; this only keeps
    // a rejection before then from being reported as unhandled.
    next?.catch(() => {});
    await readDetails(calls, reading, options, !next);
    if (reading.stop || !next) break;
    page = await nextPage(next, reading);
    if (!page) await readDetails(calls, reading, options, true);
    else reading.pages++;
  }
  return tabCollected(reading, options);
}

/** The next page; undefined when it failed after ids were listed (the failure is the reading's). */
async function nextPage(next: Promise<InnertubeShortsPage>, reading: TabReading) {
  try {
    return await next;
  } catch (error) {
    if (!innertubeFailureKind(error) || reading.listed === 0) throw error;
    reading.failure = error;
    reading.truncated = true;
    return undefined;
  }
}

function older(options: CollectOptions, video: YtVideo): boolean {
  return (
    options.oldestDate !== undefined && (parseTimestamp(video.snippet?.publishedAt) ?? Infinity) < options.oldestDate
  );
}

/** Queues the page's ids not seen yet, up to the cap (and, with a window, the sentinel past it). */
function listPage(reading: TabReading, page: InnertubeShortsPage, options: CollectOptions): void {
  for (const item of page.items) {
    if (reading.seen.has(item.id)) continue;
    reading.seen.add(item.id);
    if (reading.listed >= options.cap) {
      reading.truncated = options.capIsServiceMax;
      if (reading.truncated && options.oldestDate !== undefined) {
        reading.sentinel = item.id;
        reading.queue.push(item.id);
      }
      break;
    }
    reading.queue.push(item.id);
    reading.listed++;
  }
}

/**
 * The cap reached at this page's end: the id beyond it is the next page's first (else caps that
 * are a multiple of the page size would keep saying truncated). The tab's pages cost no units.
 */
async function listSentinelBeyond(
  reading: TabReading,
  page: InnertubeShortsPage,
  options: CollectOptions,
): Promise<void> {
  if (!reading.truncated || options.oldestDate === undefined || reading.sentinel !== undefined || !page.hasMore) return;
  const beyond = await page.next({ readAhead: false }).then(
    (more) => more.items.find((i) => !reading.seen.has(i.id))?.id,
    () => undefined,
  );
  if (beyond !== undefined) {
    reading.sentinel = beyond;
    reading.queue.push(beyond);
  }
}

/** Reads the details of whole batches of queued ids (of every queued id after the `last` page). */
async function readDetails(calls: YoutubeCalls, reading: TabReading, options: CollectOptions, last: boolean) {
  const { queue, videos } = reading;
  while (!reading.stop && (queue.length >= BATCH || (last && queue.length > 0))) {
    const ids = queue.splice(0, BATCH);
    if (!(await options.budget.allowItems(videos.length + ids.filter((id) => id !== reading.sentinel).length))) {
      reading.budgetStopped = true;
      reading.stop = true;
      break;
    }
    let batch: YtVideo[];
    try {
      batch = (await calls.videos(ids)).items ?? [];
    } catch (error) {
      if (!(error instanceof BudgetExhausted)) throw error;
      reading.budgetStopped = true;
      reading.stop = true;
      break;
    }
    videos.push(...batch);
    options.onVideos?.(batch);
    if (options.oldestDate !== undefined && batch.length > 0 && batch.every((v) => older(options, v)))
      reading.stop = true;
  }
}

function tabCollected(reading: TabReading, options: CollectOptions): Collected {
  const { videos, budgetStopped } = reading;
  const kept = videos.filter((v) => !older(options, v) && v.id !== reading.sentinel);
  // With a window, the cap counted the listed ids, the window's and older ones alike. When the last
  // short read is older than the window, the window ended inside what was read (the tab lists newest
  // first): the ids left beyond the cap are older too, and nothing of the window is missing (such a
  // result must not say `truncated`, unlike the playlist path's; judged as the keyless collector
  // judges it, by the last one, so that one short out of order does not hide a cut window).
  const last = videos.at(-1);
  const truncated = reading.truncated && !(options.oldestDate !== undefined && last && older(options, last));
  return {
    videos: kept,
    truncated: truncated || budgetStopped,
    budgetStopped,
    pages: reading.pages,
    failure: reading.failure,
  };
}
