// Statistics over time: snapshots stored from fresh upstream reads (never cache hits), at most one
// per Short per STATS_SNAPSHOT_MIN_SECONDS, shared across accounts; the series per Short and its
// growth; growth in the shorts answer; a channel's movers; tracked channels and the growth alert.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { harness, type Harness } from './helpers/harness.ts';
import type { SuccessBody } from '../src/contract/shorts.ts';
import type { VideoStats } from '../src/contract/stats.ts';
import type { TestUser } from './helpers/test-app.ts';
import { runWatchCheck } from '../src/domain/watches/watch-check.ts';
import { newCheckId } from '../src/domain/watches/watch-store.ts';
import { writeShortPoints } from '../src/domain/stats/snapshots.ts';
import { rollUpOldPoints } from '../src/domain/stats/retention.ts';
import { MAX_TRACKED, trackedCounts, trackedIds } from '../src/domain/stats/tracking.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** A clock the test moves by hand. */
function manualClock(start = Date.parse('2026-07-01T12:00:00Z')) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

async function readShorts(h: Harness, user: TestUser, handle: string, extra: Record<string, unknown> = {}) {
  const res = await h
    .as(user)
    .post<unknown, SuccessBody & { data: { shorts: Array<{ growth?: unknown }> } }>('/api/youtube/shorts', {
      channelUrl: `https://www.youtube.com/@${handle}`,
      ...extra,
    });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

const series = (h: Harness, user: TestUser, videoId: string, query = '') =>
  h.as(user).get<VideoStats>(`/api/youtube/videos/${videoId}/stats${query}`);

async function pointCount(h: Harness): Promise<number> {
  await h.services.stats.snapshots.idle();
  const [row] = await h.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM stats_points');
  return row!.n;
}

for (const mode of ['pglite', 'postgres'] as const) {
  describe(`snapshots (${mode})`, () => {
    it('a fresh read stores one snapshot per Short; a cache hit stores none; another read within the interval none', async (t) => {
      const clock = manualClock();
      const h = await harness(t, { mode, now: clock.now, env: { STATS_SNAPSHOT_MIN_SECONDS: '600' } });
      h.fake.addChannel({ handle: 'snap', shortsCount: 3 });
      const user = await h.user(100);
      const body = await readShorts(h, user, 'snap');
      assert.equal(await pointCount(h), 3);
      await readShorts(h, user, 'snap'); // cached
      assert.equal(await pointCount(h), 3, 'a cache hit stores nothing');
      clock.advance(400_000); // past the cache (300 s), inside the snapshot interval (600 s)
      await readShorts(h, user, 'snap');
      assert.equal(await pointCount(h), 3, 'within STATS_SNAPSHOT_MIN_SECONDS');
      clock.advance(400_000);
      await readShorts(h, user, 'snap');
      assert.equal(await pointCount(h), 6);
      const [short] = body.data.shorts;
      const [channelPoints] = await h.services.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM stats_channel_points',
      );
      assert.equal(channelPoints!.n, 2, "the channel's own counts, under the same interval");
      // Shared across accounts: another account reads the same series.
      const other = await h.user(0);
      const res = await series(h, other, short!.id);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.points.length, 2);
      assert.equal(res.body.channelId, body.data.channel.id);
      assert.equal(res.body.points[0]!.viewCount, Number(short!.statistics.viewCount));
      assert.equal(res.body.points[0]!.exact, true);
    });
  });
}

describe('snapshots', () => {
  it('STATS_SNAPSHOT_MIN_SECONDS=0 keeps every fresh read', async (t) => {
    const clock = manualClock();
    const h = await harness(t, { now: clock.now, env: { STATS_SNAPSHOT_MIN_SECONDS: '0', CACHE_TTL_SECONDS: '0' } });
    h.fake.addChannel({ handle: 'every', shortsCount: 2 });
    const user = await h.user(100);
    await readShorts(h, user, 'every');
    clock.advance(1000);
    await readShorts(h, user, 'every');
    assert.equal(await pointCount(h), 4);
  });

  it('keyless counts are stored as approximate (exact: false)', async (t) => {
    const h = await harness(t, { env: { YOUTUBE_SOURCE: 'innertube' } });
    h.fake.addChannel({ handle: 'keyless', shortsCount: 2 });
    const user = await h.user(100);
    const body = await readShorts(h, user, 'keyless');
    const res = await series(h, user, body.data.shorts[0]!.id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.points.length, 1);
    assert.equal(res.body.points[0]!.exact, false);
  });

  it('a snapshot that cannot be written fails no request', async (t) => {
    const h = await harness(t);
    h.fake.addChannel({ handle: 'broken', shortsCount: 2 });
    const user = await h.user(100);
    await h.services.db.query('ALTER TABLE stats_points RENAME TO stats_points_away');
    const body = await readShorts(h, user, 'broken');
    assert.equal(body.itemCount, 2);
    await h.services.stats.snapshots.idle();
  });
});

describe('a series per Short', () => {
  it('lists the points oldest first in from..to, with growth per window from the earliest point inside it', async (t) => {
    const clock = manualClock();
    const h = await harness(t, { now: clock.now, env: { CACHE_TTL_SECONDS: '0' } });
    const { id: channelId } = h.fake.addChannel({ handle: 'series', shortsCount: 1 });
    const user = await h.user(100);
    const first = await readShorts(h, user, 'series');
    const videoId = first.data.shorts[0]!.id;
    const views = [1000, 1500, 4000, 9000];
    const times: string[] = [];
    // Points at -48 h, -20 h, -2 h and now (relative to the last), an hour after the first read.
    const hours = [1, 29, 47, 49];
    for (const [i, at] of hours.entries()) {
      clock.advance((at - (hours[i - 1] ?? 0)) * HOUR);
      await h.fake.setShortStatistics('series', videoId, { viewCount: String(views[i]), likeCount: String(i * 10) });
      await readShorts(h, user, 'series');
      times.push(new Date(clock.now()).toISOString());
    }
    const res = await series(h, user, videoId);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.channelId, channelId);
    // The first read (generated counts) and the four set ones, oldest first.
    assert.deepEqual(
      res.body.points.slice(1).map((p) => [p.at, p.viewCount, p.likeCount]),
      times.map((at, i) => [at, views[i], i * 10]),
    );
    assert.deepEqual(res.body.growth.last24h, {
      viewsGained: 9000 - 1500,
      likesGained: 30 - 10,
      commentsGained: 0,
      since: times[1],
    });
    assert.equal(res.body.growth.last7d?.since, res.body.points[0]!.at);
    // from..to narrows the points, not the growth.
    const narrow = await series(
      h,
      user,
      videoId,
      `?from=${encodeURIComponent(times[1]!)}&to=${encodeURIComponent(times[2]!)}`,
    );
    assert.deepEqual(
      narrow.body.points.map((p) => p.at),
      [times[1], times[2]],
    );
    assert.deepEqual(narrow.body.growth, res.body.growth);
  });

  it('has no growth in a window holding one point, and 404 VIDEO_NOT_TRACKED for a video never read', async (t) => {
    const h = await harness(t);
    h.fake.addChannel({ handle: 'single', shortsCount: 1 });
    const user = await h.user(100);
    const body = await readShorts(h, user, 'single');
    const res = await series(h, user, body.data.shorts[0]!.id);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.growth, {});
    const missing = await series(h, user, 'AAAAAAAAAAA');
    assert.equal(missing.status, 404);
    assert.equal((missing.body as unknown as { error: string }).error, 'VIDEO_NOT_TRACKED');
    const bad = await series(h, user, 'AAAAAAAAAAA', '?from=yesterday');
    assert.equal(bad.status, 400, bad.text);
    assert.equal((await h.as('nope').get(`/api/youtube/videos/${body.data.shorts[0]!.id}/stats`)).status, 401);
  });
});

describe('snapshots from watch checks', () => {
  it('a check stores the counts of the new shorts it read in detail', async (t) => {
    const h = await harness(t, { env: { STATS_SNAPSHOT_MIN_SECONDS: '0' } });
    h.fake.addChannel({ handle: 'watched-stats', shortsCount: 2 });
    const user = await h.user(100);
    const receiver = await h.receiver();
    const created = await h.as(user).post<unknown, { id: string }>('/api/youtube/watches', {
      channelUrl: 'https://www.youtube.com/@watched-stats',
      webhookUrl: receiver.url(),
    });
    assert.equal(created.status, 201, created.text);
    const { videoId } = await h.fake.publishShort('watched-stats');
    const result = await runWatchCheck(h.services.watches, created.body.id, newCheckId(), 'manual');
    assert.equal(result.outcome, 'ok', JSON.stringify(result));
    const res = await series(h, user, videoId);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.points.length, 1);
  });
});

describe('growth in the answer', () => {
  it('include: ["growth"] adds each short\'s growth, with this answer\'s counts as the latest point, at no extra price', async (t) => {
    const clock = manualClock();
    const h = await harness(t, { now: clock.now, env: { CACHE_TTL_SECONDS: '0' } });
    h.fake.addChannel({ handle: 'grows', shortsCount: 2 });
    const user = await h.user(100);
    const first = await readShorts(h, user, 'grows', { include: ['growth'] });
    assert.ok(
      first.data.shorts.every((s) => s.growth === undefined),
      'no history yet: no growth',
    );
    const [moving, still] = first.data.shorts as Array<{ id: string; statistics: { viewCount: string } }>;
    clock.advance(2 * HOUR);
    await h.fake.setShortStatistics('grows', moving!.id, {
      viewCount: String(Number(moving!.statistics.viewCount) + 700),
    });
    const plain = await readShorts(h, user, 'grows');
    assert.ok(
      plain.data.shorts.every((s) => s.growth === undefined),
      'only when asked for',
    );
    clock.advance(HOUR);
    const second = await readShorts(h, user, 'grows', { include: ['growth'] });
    assert.equal(second.creditsCharged, plain.creditsCharged);
    const byId = new Map(second.data.shorts.map((s) => [(s as { id: string }).id, s.growth]));
    assert.deepEqual(byId.get(moving!.id), {
      last24h: { viewsGained: 700, likesGained: 0, commentsGained: 0, since: first.fetchedAt },
      last7d: { viewsGained: 700, likesGained: 0, commentsGained: 0, since: first.fetchedAt },
      last30d: { viewsGained: 700, likesGained: 0, commentsGained: 0, since: first.fetchedAt },
    });
    assert.equal(byId.get(still!.id)?.last24h?.viewsGained, 0);
    const bad = await h.as(user).post('/api/youtube/shorts', {
      channelUrl: 'https://www.youtube.com/@grows',
      include: ['everything'],
    });
    assert.equal(bad.status, 400, bad.text);
  });

  it('batch items accept include and their results carry growth', async (t) => {
    const clock = manualClock();
    const h = await harness(t, { now: clock.now, runWorker: true, env: { CACHE_TTL_SECONDS: '0' } });
    h.fake.addChannel({ handle: 'batched', shortsCount: 1 });
    const user = await h.user(100);
    const first = await readShorts(h, user, 'batched');
    clock.advance(HOUR);
    const receiver = await h.receiver();
    const res = await h.as(user).post<unknown, { items: Array<{ requestId: string }> }>('/api/youtube/shorts/batch', {
      webhookUrl: receiver.url(),
      items: [{ channelUrl: 'https://www.youtube.com/@batched', include: ['growth'] }],
    });
    assert.equal(res.status, 202, res.text);
    await receiver.waitFor(1, 60_000);
    const item = receiver.deliveries
      .map(
        (d) =>
          JSON.parse(d.body) as {
            type: string;
            data: { data?: { shorts: Array<{ growth?: { last24h?: { since: string } } }> } };
          },
      )
      .find((e) => e.type === 'shorts.completed');
    assert.ok(item, 'the item was delivered');
    assert.equal(item.data.data?.shorts[0]?.growth?.last24h?.since, first.fetchedAt);
  });
});

describe("a channel's movers", () => {
  it("ranks the Shorts with history by views gained in the window, with the channel's counts over it", async (t) => {
    const clock = manualClock();
    const h = await harness(t, { now: clock.now, env: { CACHE_TTL_SECONDS: '0' } });
    const { id: channelId } = h.fake.addChannel({ handle: 'movers', shortsCount: 3 });
    const user = await h.user(100);
    const first = await readShorts(h, user, 'movers');
    const [a, b, c] = first.data.shorts as Array<{ id: string; statistics: { viewCount: string } }>;
    const bump = (s: { id: string; statistics: { viewCount: string } }, by: number) =>
      h.fake.setShortStatistics('movers', s.id, { viewCount: String(Number(s.statistics.viewCount) + by) });
    clock.advance(3 * 24 * HOUR);
    await bump(a!, 10);
    await bump(b!, 5000);
    await readShorts(h, user, 'movers'); // 3 days after the first: inside 7d, not 24h
    clock.advance(HOUR);
    await bump(c!, 300);
    await readShorts(h, user, 'movers');
    const get = (query: string) =>
      h.as(user).get<{
        movers: Array<{ videoId: string; growth: Record<string, { viewsGained: number } | undefined> }>;
        channel: { points: unknown[] };
        window: string;
      }>(`/api/youtube/channels/${channelId}/stats${query}`);
    const day = await get('?window=24h');
    assert.equal(day.status, 200, day.text);
    assert.deepEqual(day.body.movers[0], {
      ...day.body.movers[0],
      videoId: c!.id,
    });
    assert.deepEqual(
      day.body.movers.map((m) => m.growth.last24h?.viewsGained),
      [300, 0, 0],
    );
    assert.equal(day.body.channel.points.length, 2, "the channel's points inside 24 hours");
    const week = await get('?window=7d&limit=2');
    assert.deepEqual(
      week.body.movers.map((m) => [m.videoId, m.growth.last7d?.viewsGained]),
      [
        [b!.id, 5000],
        [c!.id, 300],
      ],
    );
    assert.equal(week.body.channel.points.length, 3);
    const none = await h.as(user).get<{ movers: unknown[] }>(`/api/youtube/channels/UC${'A'.repeat(22)}/stats`);
    assert.equal(none.status, 200, none.text);
    assert.deepEqual(none.body.movers, []);
    assert.equal((await get('?window=1y')).status, 400);
  });
});

describe('tracked channels', () => {
  it('each check refreshes the recent Shorts at 1 unit per 50, paid with the check, and alerts once per window', async (t) => {
    const clock = manualClock();
    const h = await harness(t, { now: clock.now, env: { STATS_SNAPSHOT_MIN_SECONDS: '0' } });
    // 60 shorts an hour apart, the newest now: 60 published within 3 days, 10 of them past the listing page.
    h.fake.addChannel({ handle: 'tracked', shortsCount: 60, newestPublishedAt: new Date(clock.now()).toISOString() });
    const user = await h.user(1000);
    // Every Short of the channel has history (a read by anyone: the tracking's list of recent Shorts).
    await readShorts(h, user, 'tracked');
    const receiver = await h.receiver();
    const created = await h
      .as(user)
      .post<unknown, { id: string; trackStats: unknown; alert: unknown }>('/api/youtube/watches', {
        channelUrl: 'https://www.youtube.com/@tracked',
        webhookUrl: receiver.url(),
        trackStats: { days: 3 },
        alert: { viewsGained: 1000, withinHours: 24 },
      });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(
      [created.body.trackStats, created.body.alert],
      [{ days: 3 }, { viewsGained: 1000, withinHours: 24 }],
    );
    const { data } = await readShorts(h, user, 'tracked', { limit: 1 });
    const star = data.shorts[0] as { id: string; statistics: { viewCount: string } };
    clock.advance(HOUR);
    await h.fake.setShortStatistics('tracked', star.id, {
      viewCount: String(Number(star.statistics.viewCount) + 5000),
    });
    h.fake.resetStats();
    const check = async () => {
      const result = await runWatchCheck(h.services.watches, created.body.id, newCheckId(), 'manual');
      assert.equal(result.outcome, 'ok', JSON.stringify(result));
      return result as { units: number; credits: number };
    };
    const first = await check();
    // 1 listing page + 60 tracked ids in 2 videos.list calls.
    assert.equal(first.units, 3);
    assert.deepEqual(
      h.fake.calls().map((c) => c.endpoint),
      ['playlistItems', 'videos', 'videos'],
    );
    const [stored] = await h.services.db.query<{ payload: string }>(
      "SELECT payload FROM webhook_events WHERE type = 'shorts.growth'",
    );
    const event = JSON.parse(stored!.payload) as { type: string; data: Record<string, unknown> };
    assert.equal(event.type, 'shorts.growth');
    assert.equal(event.data.videoId, star.id);
    assert.equal(event.data.viewsGained, 5000);
    // Once per Short per alert window: it keeps growing, no second event within 24 hours.
    clock.advance(HOUR);
    await h.fake.setShortStatistics('tracked', star.id, {
      viewCount: String(Number(star.statistics.viewCount) + 9000),
    });
    await check();
    const res = await series(h, user, star.id);
    assert.ok(res.body.points.length >= 3, 'the tracked counts are stored');
    const events = await h.as(user).get<{ events: Array<{ type: string }> }>(`/api/youtube/watches/${created.body.id}`);
    assert.deepEqual(
      events.body.events.map((e) => e.type).filter((type) => type === 'shorts.growth'),
      ['shorts.growth'],
    );
  });

  it('trackedCounts counts what trackedIds returns: the channel, within days, at most MAX_TRACKED', async (t) => {
    const h = await harness(t);
    const { db } = h.services;
    const now = Date.parse('2026-07-01T12:00:00Z');
    const busy = `UC${'B'.repeat(22)}`;
    const quiet = `UC${'Q'.repeat(22)}`;
    const point = (channelId: string, i: number, publishedAt: number) => ({
      videoId: `${channelId.slice(2, 3)}${String(i).padStart(10, '0')}`,
      channelId,
      at: new Date(now),
      views: '1',
      likes: null,
      comments: null,
      exact: true,
      publishedAt: new Date(publishedAt).toISOString(),
    });
    // The busy channel: MAX_TRACKED + 10 Shorts a minute apart, the newest an hour old; the quiet one: 30 a day apart.
    await writeShortPoints(
      db,
      [
        ...Array.from({ length: MAX_TRACKED + 10 }, (_, i) => point(busy, i, now - HOUR - i * 60_000)),
        ...Array.from({ length: 30 }, (_, i) => point(quiet, i, now - (i + 0.5) * DAY)),
      ],
      0,
    );
    const asked = [
      { channelId: busy, days: 90 },
      { channelId: quiet, days: 1 },
      { channelId: quiet, days: 7 },
      { channelId: `UC${'N'.repeat(22)}`, days: 3 },
      { channelId: quiet, days: 90 },
    ];
    const ids = await Promise.all(asked.map((w) => trackedIds(db, w.channelId, w.days, now)));
    assert.deepEqual(
      ids.map((list) => list.length),
      [MAX_TRACKED, 1, 7, 0, 30],
    );
    assert.deepEqual(
      await trackedCounts(db, asked, now),
      ids.map((list) => list.length),
    );
    assert.deepEqual(await trackedCounts(db, [], now), []);
  });

  it('refuses an alert without tracking, and days outside 1..90', async (t) => {
    const h = await harness(t);
    const user = await h.user(100);
    const create = (extra: object) =>
      h.as(user).post('/api/youtube/watches', {
        channelUrl: 'https://www.youtube.com/@demo',
        webhookUrl: 'https://example.com/hook',
        ...extra,
      });
    assert.equal((await create({ alert: { viewsGained: 10, withinHours: 1 } })).status, 400);
    assert.equal((await create({ trackStats: { days: 91 } })).status, 400);
    assert.equal((await create({ trackStats: { days: 0 } })).status, 400);
  });
});

describe('retention', () => {
  it('rolls points older than STATS_RETENTION_DAYS up to the last of each UTC day, and keeps newer ones', async (t) => {
    const h = await harness(t);
    const { db } = h.services;
    const now = Date.parse('2026-07-01T12:00:00Z');
    const day = 86_400_000;
    const old = now - 91 * day; // 2026-04-01, past 90 days
    const points = [0, 1, 2].flatMap((d) =>
      [1, 5, 9].map((hour) => ({
        videoId: 'AAAAAAAAAAA',
        channelId: `UC${'A'.repeat(22)}`,
        at: new Date(Math.floor(old / day) * day - d * day + hour * HOUR),
        views: String(d * 100 + hour),
        likes: null,
        comments: null,
        exact: true,
        publishedAt: null,
      })),
    );
    const recent = { ...points[0]!, at: new Date(now - HOUR), views: '5000' };
    for (const p of [...points, recent].sort((a, b) => a.at.getTime() - b.at.getTime()))
      await writeShortPoints(db, [p], 0);
    assert.equal(await rollUpOldPoints(db, 90, now), 6);
    const left = await db.query<{ at: Date; views: string }>(
      'SELECT at, views::text AS views FROM stats_points ORDER BY at',
    );
    assert.deepEqual(
      left.map((r) => r.views),
      ['209', '109', '9', '5000'],
    );
    assert.equal(await rollUpOldPoints(db, 90, now), 0, 'idempotent');
    const rolledUntil = async () =>
      (await db.query<{ at: Date }>('SELECT rolled_until AS at FROM stats_rollup'))[0]!.at.toISOString();
    assert.equal(await rolledUntil(), '2026-04-02T00:00:00.000Z');
    // The next day crosses the boundary a day later: that day alone is rolled up, once (another
    // Short: points older than a Short's last one are not stored).
    for (const hour of [2, 7])
      await writeShortPoints(
        db,
        [
          {
            ...recent,
            videoId: 'CCCCCCCCCCC',
            at: new Date(Date.parse('2026-04-02T00:00:00Z') + hour * HOUR),
            views: String(hour),
          },
        ],
        0,
      );
    assert.equal(await rollUpOldPoints(db, 90, now + 11 * HOUR), 0, 'not yet past retention');
    assert.equal(await rollUpOldPoints(db, 90, now + DAY), 1);
    assert.equal(await rolledUntil(), '2026-04-03T00:00:00.000Z');
    const kept = await db.query<{ views: string }>('SELECT views::text AS views FROM stats_points ORDER BY at');
    assert.deepEqual(
      kept.map((r) => r.views),
      ['209', '109', '9', '7', '5000'],
    );
  });

  it('catches up a backlog a few days per run, each day once, however many instances run it', async (t) => {
    // PostgreSQL: the racing runs hold connections of their own.
    const h = await harness(t, { mode: 'postgres' });
    const { db } = h.services;
    const now = Date.parse('2026-07-01T12:00:00Z');
    const first = Date.parse('2026-04-02T00:00:00Z') - 3 * DAY; // where the first run starts
    const points = Array.from({ length: 8 }, (_, d) =>
      [3, 9].map((hour) => ({
        videoId: 'BBBBBBBBBBB',
        channelId: `UC${'B'.repeat(22)}`,
        at: new Date(first + d * DAY + hour * HOUR),
        views: String(d * 100 + hour),
        likes: null,
        comments: null,
        exact: true,
        publishedAt: null,
      })),
    ).flat();
    for (const p of points) await writeShortPoints(db, [p], 0);
    assert.equal(await rollUpOldPoints(db, 90, now), 3, 'the first run: three days');
    // Five days later five more are past retention: three a run, then the rest, by runs racing each other.
    const later = now + 5 * DAY;
    assert.equal(await rollUpOldPoints(db, 90, later), 3);
    const raced = await Promise.all([rollUpOldPoints(db, 90, later), rollUpOldPoints(db, 90, later)]);
    assert.equal(raced[0]! + raced[1]!, 2);
    assert.equal(await rollUpOldPoints(db, 90, later), 0);
    const [{ n }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM stats_points')) as [{ n: number }];
    assert.equal(n, 8, 'one point per day');
  });
});
