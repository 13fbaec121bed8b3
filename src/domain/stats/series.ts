// Reading stored snapshots: a Short's series and the growth of Shorts over the last 24 hours, 7
// days and 30 days. Growth is the latest point minus the earliest stored point inside the window,
// never extrapolated: a window holding fewer than two points has none.
import type { Growth, ShortGrowth, StatsPoint } from '../../contract/stats.ts';
import type { Queryable } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import type { ShortsResult } from '../shorts/shorts-result.ts';

const HOUR_MS = 3_600_000;
export const GROWTH_WINDOWS = { last24h: 24 * HOUR_MS, last7d: 7 * 24 * HOUR_MS, last30d: 30 * 24 * HOUR_MS } as const;
export type GrowthWindow = keyof typeof GROWTH_WINDOWS;
/** The most points one series answer holds (the newest ones): 30 days of snapshots every 5 minutes is 8,640. */
export const MAX_SERIES_POINTS = 10_000;
const DEFAULT_SERIES_MS = 30 * 24 * HOUR_MS;

/** A point as the database returns it: counts as float8 (exact below 2^53), absent ones null. */
export interface PointRow {
  at: Date;
  views: number;
  likes: number | null;
  comments: number | null;
  exact: boolean;
}

export function toPoint(row: PointRow): StatsPoint {
  return {
    at: new Date(row.at).toISOString(),
    viewCount: row.views,
    ...(row.likes !== null ? { likeCount: row.likes } : {}),
    ...(row.comments !== null ? { commentCount: row.comments } : {}),
    exact: row.exact,
  };
}

/** The latest point minus an earlier one. */
export function gained(latest: Omit<PointRow, 'exact'>, earliest: Omit<PointRow, 'exact'>): Growth {
  return {
    viewsGained: latest.views - earliest.views,
    ...(latest.likes !== null && earliest.likes !== null ? { likesGained: latest.likes - earliest.likes } : {}),
    ...(latest.comments !== null && earliest.comments !== null
      ? { commentsGained: latest.comments - earliest.comments }
      : {}),
    since: new Date(earliest.at).toISOString(),
  };
}

/** The latest point of a Short the growth is counted to. */
export interface Latest extends Omit<PointRow, 'exact'> {
  videoId: string;
}

/**
 * Growth of each Short to its latest point: per window, the earliest stored point at or after
 * `now − window` and before the latest point (one probe of the primary key per Short and window).
 */
export async function growthOf(db: Queryable, latest: Latest[], now: number): Promise<Map<string, ShortGrowth>> {
  const out = new Map<string, ShortGrowth>(latest.map((l) => [l.videoId, {}]));
  if (latest.length === 0) return out;
  const rows = await db.query<{ video_id: string; label: GrowthWindow } & Omit<PointRow, 'exact'>>(
    `SELECT i.video_id, w.label, p.at, p.views, p.likes, p.comments
       FROM unnest($1::text[], $2::timestamptz[]) AS i(video_id, latest_at)
       JOIN stats_shorts s ON s.video_id = i.video_id
       CROSS JOIN (VALUES ('last24h', $3::timestamptz), ('last7d', $4::timestamptz), ('last30d', $5::timestamptz))
         AS w(label, since)
       CROSS JOIN LATERAL (SELECT at, views::float8 AS views, likes::float8 AS likes, comments::float8 AS comments
         FROM stats_points WHERE short_id = s.id AND at >= w.since AND at < i.latest_at ORDER BY at LIMIT 1) p`,
    [
      latest.map((l) => l.videoId),
      latest.map((l) => l.at),
      new Date(now - GROWTH_WINDOWS.last24h),
      new Date(now - GROWTH_WINDOWS.last7d),
      new Date(now - GROWTH_WINDOWS.last30d),
    ],
  );
  const byId = new Map(latest.map((l) => [l.videoId, l]));
  for (const row of rows) {
    const last = byId.get(row.video_id)!;
    out.get(row.video_id)![row.label] = gained(last, row);
  }
  return out;
}

interface ShortRow {
  id: string;
  channel_id: string;
  last_at: Date;
  last_views: number;
  last_likes: number | null;
  last_comments: number | null;
}

/** GET …/videos/:videoId/stats: the points in from..to, oldest first, and the Short's growth. */
export async function readSeries(
  db: Queryable,
  videoId: string,
  window: { from?: string | undefined; to?: string | undefined; now: number },
) {
  const [short] = await db.query<ShortRow>(
    `SELECT id::text AS id, channel_id, last_at, last_views::float8 AS last_views, last_likes::float8 AS last_likes,
       last_comments::float8 AS last_comments FROM stats_shorts WHERE video_id = $1`,
    [videoId],
  );
  if (!short)
    throw new AppError(
      'VIDEO_NOT_TRACKED',
      `No statistics are stored for ${videoId}: it was never read from the platform by this service.`,
    );
  const to = window.to === undefined ? window.now : Date.parse(window.to);
  const from = window.from === undefined ? to - DEFAULT_SERIES_MS : Date.parse(window.from);
  if (from > to) throw new AppError('VALIDATION_FAILED', 'from must not be after to.');
  const rows = await db.query<PointRow>(
    `SELECT * FROM (SELECT at, views::float8 AS views, likes::float8 AS likes, comments::float8 AS comments, exact
       FROM stats_points WHERE short_id = $1 AND at >= $2 AND at <= $3 ORDER BY at DESC LIMIT $4) p ORDER BY at`,
    [short.id, new Date(from), new Date(to), MAX_SERIES_POINTS],
  );
  const latest = {
    videoId,
    at: short.last_at,
    views: short.last_views,
    likes: short.last_likes,
    comments: short.last_comments,
  };
  const growth = (await growthOf(db, [latest], window.now)).get(videoId)!;
  return { videoId, channelId: short.channel_id, points: rows.map(toPoint), growth };
}

const countOf = (value: string | undefined): number | null =>
  value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : null;

/**
 * A shorts result whose shorts carry their growth, this answer's counts being the latest point
 * (at its fetchedAt); a short without growth in any window carries none. A new result and new
 * shorts: the cached result is shared by other answers.
 */
export async function withGrowth(db: Queryable, result: ShortsResult, now: number): Promise<ShortsResult> {
  const at = new Date(result.fetchedAt);
  const latest: Latest[] = [];
  for (const short of result.shorts) {
    const views = countOf(short.statistics.viewCount);
    if (views === null) continue;
    latest.push({
      videoId: short.id,
      at,
      views,
      likes: countOf(short.statistics.likeCount),
      comments: countOf(short.statistics.commentCount),
    });
  }
  const growth = await growthOf(db, latest, now);
  return {
    ...result,
    shorts: result.shorts.map((short) => {
      const found = growth.get(short.id);
      return found && Object.keys(found).length > 0 ? { ...short, growth: found } : short;
    }),
  };
}
