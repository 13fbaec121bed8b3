// Hybrid listing: the Shorts' ids from the channel's Shorts tab (InnerTube, 0 units), their details
// from videos.list 50 at a time (1 unit each, exact Data API fields). Half the quota of the UUSH
// playlist path, which needs a playlist page (1 unit) per 50 ids as well.
//
// The next tab page is requested while the current details batch is in flight. The tab's order is
// newest first in practice but not documented as strictly by date, so with oldestDate the reading
// stops after the first details batch whose shorts are all older (that batch is the margin).
import { BudgetExhausted } from '../quota/quota-meter.ts';
import { parseTimestamp } from './mapping.ts';
import type { CollectOptions, Collected } from './shorts-collector.ts';
import type { InnertubeShortsPage } from './innertube-source.ts';
import type { YoutubeCalls } from './youtube-client.ts';
import type { YtVideo } from './youtube-types.ts';

const BATCH = 50;

export async function collectFromTab(
  calls: YoutubeCalls,
  first: InnertubeShortsPage,
  options: CollectOptions,
): Promise<Collected> {
  // The tab does not say how many shorts there are: the reservation grows as they are read.
  await options.budget.onFirstPage(undefined);
  const seen = new Set<string>();
  const queue: string[] = [];
  const videos: YtVideo[] = [];
  let listed = 0;
  let truncated = false;
  let budgetStopped = false;
  let stop = false;
  let pages = 1;
  let page: InnertubeShortsPage | undefined = first;
  const older = (video: YtVideo) =>
    options.oldestDate !== undefined && (parseTimestamp(video.snippet?.publishedAt) ?? Infinity) < options.oldestDate;

  // With a window, the first id the cap cuts off is read with the last batch: older than the window,
  // it shows nothing of the window is missing (found by review: a window of exactly `cap` shorts said
  // truncated, unlike the playlist path's). Never returned, never priced.
  let sentinel: string | undefined;
  while (page && !stop) {
    for (const item of page.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      if (listed >= options.cap) {
        truncated = options.capIsServiceMax;
        if (truncated && options.oldestDate !== undefined) {
          sentinel = item.id;
          queue.push(item.id);
        }
        break;
      }
      queue.push(item.id);
      listed++;
    }
    const capReached = listed >= options.cap;
    if (capReached && options.capIsServiceMax && page.hasMore) truncated = true;
    // The cap reached at this page's end: the id beyond it is the next page's first (found by review:
    // caps that are a multiple of the page size kept saying truncated). The tab's pages cost no units.
    if (capReached && truncated && options.oldestDate !== undefined && sentinel === undefined && page.hasMore) {
      const beyond = await page.next({ readAhead: false }).then(
        (more) => more.items.find((i) => !seen.has(i.id))?.id,
        () => undefined,
      );
      if (beyond !== undefined) {
        sentinel = beyond;
        queue.push(beyond);
      }
    }
    // Read ahead (the page after the next one too) only when that page will surely be wanted: no
    // window that may end on the next page, and more room under the cap than one page holds.
    const readAhead: boolean = options.oldestDate === undefined && options.cap - listed > page.items.length;
    const next: Promise<InnertubeShortsPage> | undefined =
      page.hasMore && !capReached ? page.next({ readAhead }) : undefined;
    // Started early and awaited on the next iteration, where its error surfaces; this only keeps
    // a rejection before then from being reported as unhandled.
    next?.catch(() => {});
    const last = !next;
    while (!stop && (queue.length >= BATCH || (last && queue.length > 0))) {
      const ids = queue.splice(0, BATCH);
      if (!(await options.budget.allowItems(videos.length + ids.filter((id) => id !== sentinel).length))) {
        budgetStopped = true;
        stop = true;
        break;
      }
      let batch: YtVideo[];
      try {
        batch = (await calls.videos(ids)).items ?? [];
      } catch (error) {
        if (!(error instanceof BudgetExhausted)) throw error;
        budgetStopped = true;
        stop = true;
        break;
      }
      videos.push(...batch);
      options.onVideos?.(batch);
      if (options.oldestDate !== undefined && batch.length > 0 && batch.every(older)) stop = true;
    }
    if (stop || !next) break;
    page = await next;
    pages++;
  }
  const kept = videos.filter((v) => !older(v) && v.id !== sentinel);
  // With a window, the cap counted the listed ids, the window's and older ones alike. When the last
  // short read is older than the window, the window ended inside what was read (the tab lists newest
  // first): the ids left beyond the cap are older too, and nothing of the window is missing (found by
  // review: such a result said `truncated`, unlike the playlist path's; as the keyless collector
  // judges it, by the last one, so that one short out of order does not hide a cut window).
  const last = videos.at(-1);
  if (truncated && options.oldestDate !== undefined && last && older(last)) truncated = false;
  return { videos: kept, truncated: truncated || budgetStopped, budgetStopped, pages };
}
