// Snapshots of public counts, taken from every fresh upstream read of a Short's statistics (shorts
// requests and batch items, watch checks, tracked channels) and stored shared by every account.
// Writing them is off the request's critical path: reads finishing together are one group of
// statements (group commit), and a failure is logged, never the request's.
import type { Channel, Short } from '../../contract/shorts.ts';
import type { Database } from '../../infra/db/database.ts';
import { groupCommit } from '../../infra/db/group-commit.ts';

/** One Short's counts at one time; counts are decimal strings (bigint in the database). */
export interface ShortPoint {
  videoId: string;
  channelId: string;
  at: Date;
  views: string;
  likes: string | null;
  comments: string | null;
  /** False for counts parsed from display text ("2.9M views", keyless reads). */
  exact: boolean;
  publishedAt: string | null;
}

export interface ChannelPoint {
  channelId: string;
  at: Date;
  subscribers: string | null;
  views: string | null;
  videos: string | null;
  exact: boolean;
}

/** What one upstream read saw. */
export interface ReadSnapshot {
  shorts: ShortPoint[];
  channel?: ChannelPoint | undefined;
}

const COUNT = /^\d{1,18}$/;
const count = (value: string | undefined): string | null => (value !== undefined && COUNT.test(value) ? value : null);

/** The points of a read: shorts without a view count (none sent) have none. */
export function snapshotOf(
  read: { channel?: Channel | undefined; shorts: readonly Short[]; fetchedAt: string; approximateFields?: string[] },
  channelId?: string,
): ReadSnapshot {
  const at = new Date(read.fetchedAt);
  const approximate = new Set(read.approximateFields ?? []);
  const shorts: ShortPoint[] = [];
  for (const short of read.shorts) {
    const views = count(short.statistics.viewCount);
    const owner = short.snippet.channelId ?? read.channel?.id ?? channelId;
    if (views === null || owner === undefined) continue;
    shorts.push({
      videoId: short.id,
      channelId: owner,
      at,
      views,
      likes: count(short.statistics.likeCount),
      comments: count(short.statistics.commentCount),
      exact: !approximate.has('shorts[].statistics.viewCount'),
      publishedAt: short.snippet.publishedAt ?? null,
    });
  }
  const channel = read.channel && {
    channelId: read.channel.id,
    at,
    subscribers: count(read.channel.statistics.subscriberCount),
    views: count(read.channel.statistics.viewCount),
    videos: count(read.channel.statistics.videoCount),
    exact: !approximate.has('channel.statistics.subscriberCount'),
  };
  return { shorts, channel };
}

export interface SnapshotRecorder {
  /** Stores what a read saw, later and grouped with other reads; never throws. */
  record(snapshot: ReadSnapshot): void;
  /** Resolves once every snapshot recorded so far is written (or failed): reads of the series see them. */
  idle(): Promise<void>;
}

/** At most this many reads' snapshots per group of statements. */
const MAX_GROUP = 64;

export function createSnapshotRecorder(
  db: Database,
  options: { minSeconds: number; onError: (error: unknown, points: number) => void },
): SnapshotRecorder {
  const pending = new Set<Promise<void>>();
  const submit = groupCommit<ReadSnapshot, void>(MAX_GROUP, async (members) => {
    const shorts = members.flatMap((m) => m.item.shorts);
    const channels = members.flatMap((m) => (m.item.channel ? [m.item.channel] : []));
    try {
      await writeShortPoints(db, shorts, options.minSeconds);
      await writeChannelPoints(db, channels, options.minSeconds);
    } catch (error) {
      options.onError(error, shorts.length + channels.length);
    }
    for (const member of members) member.resolve();
  });
  return {
    record(snapshot) {
      if (snapshot.shorts.length === 0 && !snapshot.channel) return;
      const written = submit(snapshot).catch((error: unknown) => options.onError(error, snapshot.shorts.length));
      pending.add(written);
      void written.finally(() => pending.delete(written));
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

/**
 * One statement for a group of reads: each Short's row is created or moved to its newest counts
 * when its last snapshot is at least `minSeconds` older, and only those rows get a point. The
 * newest point of a Short in the group wins; one out of order (older than the stored last) is dropped.
 */
export async function writeShortPoints(db: Database, points: ShortPoint[], minSeconds: number): Promise<void> {
  if (points.length === 0) return;
  await db.query(
    `WITH input AS (
       SELECT DISTINCT ON (video_id) * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::bigint[],
         $5::bigint[], $6::bigint[], $7::boolean[], $8::timestamptz[])
         AS i(video_id, channel_id, at, views, likes, comments, exact, published_at)
       ORDER BY video_id, at DESC
     ), kept AS (
       INSERT INTO stats_shorts AS s (video_id, channel_id, published_at, last_at, last_views, last_likes,
         last_comments, last_exact)
       SELECT video_id, channel_id, published_at, at, views, likes, comments, exact FROM input
       ON CONFLICT (video_id) DO UPDATE SET channel_id = excluded.channel_id,
         published_at = coalesce(excluded.published_at, s.published_at), last_at = excluded.last_at,
         last_views = excluded.last_views, last_likes = excluded.last_likes,
         last_comments = excluded.last_comments, last_exact = excluded.last_exact
       WHERE s.last_at <= excluded.last_at - make_interval(secs => $9)
       RETURNING s.id, s.video_id
     )
     INSERT INTO stats_points (short_id, at, views, likes, comments, exact)
     SELECT k.id, i.at, i.views, i.likes, i.comments, i.exact FROM kept k JOIN input i USING (video_id)
     ON CONFLICT DO NOTHING`,
    [
      points.map((p) => p.videoId),
      points.map((p) => p.channelId),
      points.map((p) => p.at),
      points.map((p) => p.views),
      points.map((p) => p.likes),
      points.map((p) => p.comments),
      points.map((p) => p.exact),
      points.map((p) => (p.publishedAt && !Number.isNaN(Date.parse(p.publishedAt)) ? p.publishedAt : null)),
      minSeconds,
    ],
  );
}

/** A channel's point is kept when it has none within `minSeconds` before it. */
async function writeChannelPoints(db: Database, points: ChannelPoint[], minSeconds: number): Promise<void> {
  if (points.length === 0) return;
  await db.query(
    `INSERT INTO stats_channel_points (channel_id, at, subscribers, views, videos, exact)
     SELECT DISTINCT ON (i.channel_id) i.* FROM unnest($1::text[], $2::timestamptz[], $3::bigint[], $4::bigint[],
       $5::bigint[], $6::boolean[]) AS i(channel_id, at, subscribers, views, videos, exact)
     WHERE NOT EXISTS (SELECT 1 FROM stats_channel_points p WHERE p.channel_id = i.channel_id
       AND p.at > i.at - make_interval(secs => $7) AND p.at <= i.at)
     ORDER BY i.channel_id, i.at DESC
     ON CONFLICT DO NOTHING`,
    [
      points.map((p) => p.channelId),
      points.map((p) => p.at),
      points.map((p) => p.subscribers),
      points.map((p) => p.views),
      points.map((p) => p.videos),
      points.map((p) => p.exact),
      minSeconds,
    ],
  );
}
