// Reads a channel's Shorts playlist (UUSH + channel id without "UC") page by page and loads video
// details in batches of 50. The next playlist page is requested as soon as a page arrives, so it
// travels while that page's videos.list is in flight. With oldestDate, paging stops at the first
// page whose items are all older: the playlist is newest-first in practice but Google does not
// promise it, so one fully-out-of-window page is the safety margin.
import { PlaylistNotFound, QUOTA_COST, type YoutubeClient } from './youtube-client.ts';
import { parseTimestamp } from './mapping.ts';
import type { YtListResponse, YtPlaylistItem, YtVideo } from './youtube-types.ts';

export interface CollectOptions {
  oldestDate?: number;
  maxShorts: number;
  /** A first page already requested (e.g. in parallel with channels.list). */
  firstPage?: Promise<YtListResponse<YtPlaylistItem>>;
}

export interface Collected {
  videos: YtVideo[];
  truncated: boolean;
  units: number;
  pages: number;
}

export function shortsPlaylistId(channelId: string): string {
  return 'UUSH' + channelId.slice(2);
}

export async function collectShorts(client: YoutubeClient, channelId: string, options: CollectOptions): Promise<Collected> {
  const playlistId = shortsPlaylistId(channelId);
  const inWindow = (published: string | undefined) => {
    if (options.oldestDate === undefined) return true;
    const ms = parseTimestamp(published);
    return ms === undefined || ms >= options.oldestDate; // unknown dates are decided by the video's own publishedAt
  };
  let units = 0;
  let pages = 0;
  const fetchPage = (token?: string) => {
    units += QUOTA_COST.playlistItems;
    return client.playlistItems(playlistId, token);
  };
  let pending: Promise<YtListResponse<YtPlaylistItem>> | undefined = options.firstPage ?? fetchPage();
  if (options.firstPage) units += QUOTA_COST.playlistItems;
  // Failed detail batches must not surface as unhandled rejections while we await later pages.
  const batches: Promise<YtListResponse<YtVideo>>[] = [];
  let wanted = 0;
  let truncated = false;
  while (pending) {
    let page: YtListResponse<YtPlaylistItem>;
    try {
      page = await pending;
    } catch (error) {
      // The Shorts playlist does not exist for a channel that has never posted a Short.
      if (error instanceof PlaylistNotFound && pages === 0) return { videos: [], truncated: false, units, pages };
      await Promise.allSettled(batches);
      throw error;
    }
    pages++;
    pending = undefined;
    const items = page.items ?? [];
    const matching = items.filter((item) => item.contentDetails?.videoId && inWindow(item.contentDetails.videoPublishedAt));
    const allOlder = options.oldestDate !== undefined && items.length > 0 && matching.length === 0;
    if (wanted >= options.maxShorts) {
      // We only read this page to learn whether anything was left out.
      truncated = matching.length > 0;
      break;
    }
    const room = options.maxShorts - wanted;
    const ids = matching.slice(0, room).map((item) => item.contentDetails!.videoId!);
    if (matching.length > room) truncated = true;
    wanted += ids.length;
    if (page.nextPageToken && !allOlder && !truncated) pending = fetchPage(page.nextPageToken);
    if (ids.length > 0) {
      units += QUOTA_COST.videos;
      const batch = client.videos(ids);
      batch.catch(() => {});
      batches.push(batch);
    }
  }
  const responses = await Promise.all(batches);
  const videos = responses
    .flatMap((r) => r.items ?? [])
    .filter((video) => options.oldestDate === undefined || (parseTimestamp(video.snippet?.publishedAt) ?? Infinity) >= options.oldestDate);
  return { videos, truncated, units, pages };
}
