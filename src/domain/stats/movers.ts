// A channel's movers: its Shorts with stored history ranked by views gained in a window, and the
// channel's own counts over that window. Reads stored snapshots only.
import type { ChannelStatsPoint, Mover, StatsWindow } from '../../contract/stats.ts';
import type { Queryable } from '../../infra/db/database.ts';
import { GROWTH_WINDOWS, type GrowthWindow, growthOf, toPoint } from './series.ts';

export const WINDOW_KEYS: Record<StatsWindow, GrowthWindow> = { '24h': 'last24h', '7d': 'last7d', '30d': 'last30d' };

interface LastRow {
  video_id: string;
  published_at: Date | null;
  last_at: Date;
  last_views: number;
  last_likes: number | null;
  last_comments: number | null;
  last_exact: boolean;
}

/** Ranked by views gained in the window (most first); Shorts without growth there follow, by their last views. */
function rank(key: GrowthWindow) {
  return (a: Mover, b: Mover) => {
    const ga = a.growth[key]?.viewsGained;
    const gb = b.growth[key]?.viewsGained;
    if (ga !== undefined && gb !== undefined && ga !== gb) return gb - ga;
    if ((ga === undefined) !== (gb === undefined)) return ga === undefined ? 1 : -1;
    return b.last.viewCount - a.last.viewCount || a.videoId.localeCompare(b.videoId);
  };
}

export async function readMovers(
  db: Queryable,
  channelId: string,
  options: { window: StatsWindow; limit: number; now: number },
) {
  const rows = await db.query<LastRow>(
    `SELECT video_id, published_at, last_at, last_views::float8 AS last_views, last_likes::float8 AS last_likes,
       last_comments::float8 AS last_comments, last_exact FROM stats_shorts WHERE channel_id = $1`,
    [channelId],
  );
  const growth = await growthOf(
    db,
    rows.map((r) => ({
      videoId: r.video_id,
      at: r.last_at,
      views: r.last_views,
      likes: r.last_likes,
      comments: r.last_comments,
    })),
    options.now,
  );
  const key = WINDOW_KEYS[options.window];
  const movers: Mover[] = rows
    .map((r) => ({
      videoId: r.video_id,
      publishedAt: r.published_at ? new Date(r.published_at).toISOString() : undefined,
      last: toPoint({
        at: r.last_at,
        views: r.last_views,
        likes: r.last_likes,
        comments: r.last_comments,
        exact: r.last_exact,
      }),
      growth: growth.get(r.video_id) ?? {},
    }))
    .sort(rank(key))
    .slice(0, options.limit);
  const points = await db.query<{
    at: Date;
    subscribers: number | null;
    views: number | null;
    videos: number | null;
    exact: boolean;
  }>(
    `SELECT at, subscribers::float8 AS subscribers, views::float8 AS views, videos::float8 AS videos, exact
       FROM stats_channel_points WHERE channel_id = $1 AND at >= $2 ORDER BY at`,
    [channelId, new Date(options.now - GROWTH_WINDOWS[key])],
  );
  const channel: ChannelStatsPoint[] = points.map((p) => ({
    at: new Date(p.at).toISOString(),
    // A row's null is the answer's absent count (JSON leaves an undefined field out).
    subscriberCount: p.subscribers ?? undefined,
    viewCount: p.views ?? undefined,
    videoCount: p.videos ?? undefined,
    exact: p.exact,
  }));
  return { channelId, window: options.window, movers, channel: { points: channel } };
}
