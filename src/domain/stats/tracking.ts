// Tracked channels: a watch with trackStats refreshes, at each check, the counts of the channel's
// Shorts published within `days` (videos.list, 1 unit per 50 ids, through the check's metered
// work), and with an alert finds the Shorts that gained at least `viewsGained` views within
// `withinHours`, from the stored snapshots.
import type { Queryable } from '../../infra/db/database.ts';
import type { YoutubeCalls } from '../shorts/youtube-client.ts';
import type { ShortPoint } from './snapshots.ts';

/** videos.list takes at most this many ids per call (1 unit each). */
export const IDS_PER_CALL = 50;
/** The most Shorts one check refreshes: a channel publishing 50 a day for 90 days. */
export const MAX_TRACKED = 4500;

export const trackingUnits = (shorts: number) => Math.ceil(shorts / IDS_PER_CALL);

/** The oldest publication a watch tracking `days` refreshes at `now`. */
const trackedSince = (days: number, now: number) => new Date(now - days * 86_400_000);

/** The channel's Shorts with stored history published within `days` before `now`, newest first. */
export async function trackedIds(db: Queryable, channelId: string, days: number, now: number): Promise<string[]> {
  const rows = await db.query<{ video_id: string }>(
    `SELECT video_id FROM stats_shorts WHERE channel_id = $1 AND published_at >= $2
      ORDER BY published_at DESC LIMIT $3`,
    [channelId, trackedSince(days, now), MAX_TRACKED],
  );
  return rows.map((r) => r.video_id);
}

/** How many ids trackedIds returns for each of `watches` (the same rows and cap), in one statement. */
export async function trackedCounts(
  db: Queryable,
  watches: Array<{ channelId: string; days: number }>,
  now: number,
): Promise<number[]> {
  if (watches.length === 0) return [];
  const rows = await db.query<{ n: number }>(
    `SELECT (SELECT count(*)::int FROM (SELECT 1 FROM stats_shorts s
               WHERE s.channel_id = q.channel_id AND s.published_at >= q.since LIMIT $3) t) AS n
       FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS q(channel_id, since, i) ORDER BY q.i`,
    [watches.map((w) => w.channelId), watches.map((w) => trackedSince(w.days, now)), MAX_TRACKED],
  );
  return rows.map((r) => r.n);
}

/** Reads the ids' counts now, 50 per call; a Short videos.list no longer returns has no point. */
export async function readCounts(calls: YoutubeCalls, ids: string[], channelId: string, at: Date) {
  const points: ShortPoint[] = [];
  const count = (v: string | undefined) => (v !== undefined && /^\d{1,18}$/.test(v) ? v : null);
  for (let i = 0; i < ids.length; i += IDS_PER_CALL) {
    const page = await calls.videos(ids.slice(i, i + IDS_PER_CALL));
    for (const video of page.items ?? []) {
      const views = count(video.statistics?.viewCount);
      if (views === null) continue;
      points.push({
        videoId: video.id,
        channelId: video.snippet?.channelId ?? channelId,
        at,
        views,
        likes: count(video.statistics?.likeCount),
        comments: count(video.statistics?.commentCount),
        exact: true,
        publishedAt: video.snippet?.publishedAt ?? null,
      });
    }
  }
  return points;
}

export interface GrowthAlertHit {
  videoId: string;
  viewCount: number;
  viewsGained: number;
  since: Date;
}

/**
 * The points that gained at least `viewsGained` views since the earliest stored snapshot within
 * `withinHours` before `at` (never extrapolated: a Short without an earlier point there has none).
 */
export async function growthAlerts(
  db: Queryable,
  points: ShortPoint[],
  alert: { viewsGained: number; withinHours: number },
  at: Date,
): Promise<GrowthAlertHit[]> {
  if (points.length === 0) return [];
  const rows = await db.query<{ video_id: string; at: Date; views: number }>(
    `SELECT s.video_id, p.at, p.views::float8 AS views FROM stats_shorts s
       CROSS JOIN LATERAL (SELECT at, views FROM stats_points WHERE short_id = s.id AND at >= $2 AND at < $3
         ORDER BY at LIMIT 1) p
      WHERE s.video_id = ANY($1::text[])`,
    [points.map((p) => p.videoId), new Date(at.getTime() - alert.withinHours * 3_600_000), at],
  );
  const earliest = new Map(rows.map((r) => [r.video_id, r]));
  const hits: GrowthAlertHit[] = [];
  for (const point of points) {
    const from = earliest.get(point.videoId);
    if (!from) continue;
    const gained = Number(point.views) - from.views;
    if (gained >= alert.viewsGained)
      hits.push({ videoId: point.videoId, viewCount: Number(point.views), viewsGained: gained, since: from.at });
  }
  return hits;
}

/**
 * Claims the alerts not sent for their Short within the alert window (one statement): the ones
 * returned are to be sent, in the transaction that records them.
 */
export async function claimAlerts(
  db: Queryable,
  watchId: string,
  videoIds: string[],
  withinHours: number,
  at: Date,
): Promise<Set<string>> {
  if (videoIds.length === 0) return new Set();
  const rows = await db.query<{ video_id: string }>(
    `INSERT INTO stats_alerts_sent AS a (watch_id, video_id, sent_at) SELECT $1, unnest($2::text[]), $3
     ON CONFLICT (watch_id, video_id) DO UPDATE SET sent_at = excluded.sent_at
       WHERE a.sent_at <= excluded.sent_at - make_interval(hours => $4)
     RETURNING video_id`,
    [watchId, videoIds, at, withinHours],
  );
  return new Set(rows.map((r) => r.video_id));
}
