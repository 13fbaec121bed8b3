// The statistics section of `npm run bench` (--only stats): storage of snapshots on each store.
// PostgreSQL holds the target itself — 1,000 tracked channels × 100 Shorts × hourly checks × 30
// days = 72 M rows, generated in SQL in the order checks write them (hour by hour) into the month
// partitions the sweeper creates — and is measured there: bytes per snapshot, the insert rate
// through the service's own grouped statement, the series and movers queries, and the daily
// roll-up. Without room for it (~25 GB free) it runs at 1/100 of the target (10 channels) and says so. The
// embedded store runs a smaller history (the embedded mode is one process for one small operator)
// and, on the same data directory, the service itself: its memory serving series and movers,
// against the targets of the memory section.
import { statfsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import autocannon from 'autocannon';
import { openDatabase } from '../src/infra/db/open-database.ts';
import type { Database } from '../src/infra/db/database.ts';
import { addMonthPartitions } from '../src/domain/stats/partitions.ts';
import { writeShortPoints, type ShortPoint } from '../src/domain/stats/snapshots.ts';
import { readSeries } from '../src/domain/stats/series.ts';
import { readMovers } from '../src/domain/stats/movers.ts';
import { rollUpOldPoints } from '../src/domain/stats/retention.ts';
import { startFakePlatform } from '../src/fake-platform/server.ts';
import { createPostgresDatabase } from '../support/databases.ts';
import { SERVICE_NODE_FLAGS, startChild } from '../support/child-service.ts';
import { benchServiceEnv, seedBenchAccount } from './bench-service.ts';
import { residentMemory } from './process-stats.ts';
import { IDLE_TARGET, SERVE_PEAK_TARGET } from './memory-targets.ts';

type Report = (section: string, metric: string, value: string, target: string, verdict: string) => void;

interface Scale {
  channels: number;
  hours: number;
}
const SHORTS_PER_CHANNEL = 100;
const TARGET: Scale = { channels: 1000, hours: 720 };
/** What the embedded store holds here: 100 tracked channels for 3 days (720,000 snapshots). */
const EMBEDDED: Scale = {
  channels: Number(process.env.BENCH_STATS_CHANNELS ?? 100),
  hours: Number(process.env.BENCH_STATS_HOURS ?? 72),
};
/** Free space the 72 M rows need on PostgreSQL's disk: table, primary key and the WAL while writing. */
const FULL_SCALE_BYTES = 25 * 2 ** 30;
const HOUR = 3_600_000;
const MiB = 2 ** 20;
const rowsOf = (scale: Scale) => scale.channels * SHORTS_PER_CHANNEL * scale.hours;
const videoId = (n: number) => `v${String(n).padStart(10, '0')}`;
const channelId = (c: number) => `UC${String(c).padStart(22, '0')}`;

/** Generates channels × 100 Shorts × hours points, hourly, ending at `now`, one hour after another. */
async function seed(db: Database, scale: Scale, now: number): Promise<void> {
  for (let month = now - scale.hours * HOUR; month <= now; month += 28 * 24 * HOUR) await addMonthPartitions(db, month);
  await db.query(
    `INSERT INTO stats_shorts (video_id, channel_id, published_at, last_at, last_views, last_likes, last_comments,
       last_exact)
     SELECT 'v' || lpad(n::text, 10, '0'), 'UC' || lpad((n / $2::int)::text, 22, '0'),
       $3::timestamptz - (n % $2::int) * interval '1 hour', $3::timestamptz, 1000 + n, 40 + n / 25, n / 900, true
     FROM generate_series(0, $1::int * $2::int - 1) AS n`,
    [scale.channels, SHORTS_PER_CHANNEL, new Date(now)],
  );
  // A statement per day: one transaction of 72 M rows would hold its WAL and locks to the end.
  for (let day = Math.ceil(scale.hours / 24) - 1; day >= 0; day--) {
    await db.query(
      `INSERT INTO stats_points (short_id, at, views, likes, comments, exact)
       SELECT s.id, $1::timestamptz - h * interval '1 hour', 1000 + s.id * 7 + ($2::int - h) * (s.id % 97),
         40 + s.id / 25, s.id / 900, true
       FROM generate_series(least($3::int, $2::int - 1), $4::int, -1) AS h CROSS JOIN stats_shorts s`,
      [new Date(now), scale.hours, day * 24 + 23, day * 24],
    );
  }
  await db.query('ANALYZE stats_shorts');
  await db.query('ANALYZE stats_points');
}

async function timed(runs: number, fn: (i: number) => Promise<unknown>): Promise<{ meanMs: number; p95Ms: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    meanMs: times.reduce((s, t) => s + t, 0) / times.length,
    p95Ms: times[Math.floor(times.length * 0.95)]!,
  };
}

const ms = (t: { meanMs: number; p95Ms: number }) => `mean ${t.meanMs.toFixed(1)} ms, p95 ${t.p95Ms.toFixed(1)} ms`;

/** Table and primary key over every partition (a partitioned table has no storage of its own). */
async function storedBytes(db: Database): Promise<{ heap: number; total: number; partitions: number }> {
  const [size] = await db.query<{ heap: number; total: number; partitions: number }>(
    `SELECT sum(pg_relation_size(inhrelid))::float8 AS heap, sum(pg_total_relation_size(inhrelid))::float8 AS total,
       count(*)::int AS partitions
     FROM pg_inherits WHERE inhparent = 'stats_points'::regclass`,
  );
  return size!;
}

async function measureQueries(db: Database, store: string, scale: Scale, now: number, report: Report) {
  const rows = rowsOf(scale);
  const seedStart = performance.now();
  await seed(db, scale, now);
  const seedS = (performance.now() - seedStart) / 1000;
  const size = await storedBytes(db);
  const label = `${store} (${scale.channels.toLocaleString('en')} ch × 100 × ${scale.hours} h)`;
  report('stats', `${label}: rows generated`, `${rows.toLocaleString('en')} in ${seedS.toFixed(0)} s`, '', '');
  report(
    'stats',
    `${label}: bytes per snapshot (heap / with primary key and BRIN)`,
    `${(size.heap / rows).toFixed(0)} / ${(size.total / rows).toFixed(0)} (${(size.total / 2 ** 30).toFixed(2)} GiB ` +
      `in ${size.partitions} partitions)`,
    '',
    '',
  );
  // Inserts through the service's grouped statement: one read of 100 Shorts per statement, the
  // next hour of a channel each.
  const insert = await timed(50, (i) => {
    const at = new Date(now + (Math.floor(i / scale.channels) + 1) * HOUR);
    const points: ShortPoint[] = Array.from({ length: SHORTS_PER_CHANNEL }, (_, k) => {
      const n = (i % scale.channels) * SHORTS_PER_CHANNEL + k;
      return {
        videoId: videoId(n),
        channelId: channelId(Math.floor(n / SHORTS_PER_CHANNEL)),
        at,
        views: String(5000 + n),
        likes: '1',
        comments: '0',
        exact: true,
        publishedAt: null,
      };
    });
    return writeShortPoints(db, points, 600);
  });
  report(
    'stats',
    `${label}: insert rate (groups of 100 snapshots)`,
    `${((100 * 1000) / insert.meanMs).toFixed(0)} rows/s`,
    '',
    '',
  );
  const shorts = scale.channels * SHORTS_PER_CHANNEL;
  const series = await timed(50, (i) => readSeries(db, videoId((i * 7919) % shorts), { now }));
  report('stats', `${label}: series query (30 days, ${Math.min(scale.hours, 720)} points)`, ms(series), '', '');
  const movers = await timed(20, (i) =>
    readMovers(db, channelId((i * 31) % scale.channels), { window: '24h', limit: 100, now }),
  );
  report('stats', `${label}: movers query (100 Shorts, 24h)`, ms(movers), '', '');
  return label;
}

/**
 * The roll-up: its first run (3 days past retention, as a new store's first run finds them), the
 * next hour's (nothing due) and the next day's (one day, its steady state).
 */
async function measureRollUp(db: Database, label: string, scale: Scale, now: number, report: Report) {
  const retentionDays = Math.floor(scale.hours / 24) - 4;
  const run = async (at: number) => {
    const start = performance.now();
    const removed = await rollUpOldPoints(db, retentionDays, at);
    return `${removed.toLocaleString('en')} in ${((performance.now() - start) / 1000).toFixed(1)} s`;
  };
  const first = await run(now);
  const nextHour = await run(now + HOUR);
  const nextDay = await run(now + 24 * HOUR);
  report(
    'stats',
    `${label}: roll-up, points removed: first run (3 days) / next hour / next day (1 day)`,
    `${first} / ${nextHour} / ${nextDay}`,
    '',
    '',
  );
}

/** Bytes free where PostgreSQL keeps its data, when this process can see that directory. */
async function postgresFreeBytes(db: Database): Promise<number> {
  try {
    const [row] = await db.query<{ dir: string }>(`SELECT current_setting('data_directory') AS dir`);
    const free = statfsSync(row!.dir);
    return free.bavail * free.bsize;
  } catch {
    return 0; // not a superuser, or another machine's disk: the smaller scale
  }
}

async function postgresBench(report: Report): Promise<void> {
  const pg = await createPostgresDatabase();
  try {
    const db = await openDatabase(
      { DATA_DIR: ':memory:', DATABASE_URL: pg.url, DATABASE_POOL_SIZE: 2, DATABASE_STATEMENT_TIMEOUT_MS: 0 },
      { role: 'bench' },
    );
    try {
      const full = process.env.BENCH_STATS_FULL !== '0' && (await postgresFreeBytes(db)) >= FULL_SCALE_BYTES;
      const scale = full ? TARGET : { channels: 10, hours: 720 };
      if (!full)
        report(
          'stats',
          'PostgreSQL: 72 M-row target',
          `not generated: ${(FULL_SCALE_BYTES / 2 ** 30).toFixed(0)} GB free needed (or BENCH_STATS_FULL=0); measured at 720,000`,
          '',
          '',
        );
      const now = Math.floor(Date.now() / HOUR) * HOUR;
      const label = await measureQueries(db, 'PostgreSQL', scale, now, report);
      await measureRollUp(db, label, scale, now, report);
    } finally {
      await db.close();
    }
  } finally {
    await pg.drop();
  }
}

/** The service on the data directory that holds the embedded history: its memory serving stats reads. */
async function embeddedServiceMemory(dataDir: string, key: string, label: string, report: Report) {
  const fake = await startFakePlatform();
  const child = await startChild('dist/server.mjs', benchServiceEnv(dataDir, fake.baseUrl), {
    nodeFlags: SERVICE_NODE_FLAGS,
  });
  try {
    const pid = child.process.pid!;
    const started = residentMemory(pid);
    const headers = { authorization: `Bearer ${key}` };
    let errors = 0;
    for (const path of ['/api/youtube/videos/v0000000042/stats', `/api/youtube/channels/${channelId(7)}/stats`]) {
      const result = await autocannon({ url: child.url + path, headers, connections: 20, amount: 400 });
      errors += result.errors + result.non2xx;
    }
    const served = residentMemory(pid);
    await new Promise((r) => setTimeout(r, 10_000));
    const idle = residentMemory(pid);
    report(
      'stats',
      `${label}: service RSS at start / peak serving 800 series and movers reads (20 clients) / idle 10 s`,
      `${(started.now / MiB).toFixed(0)} / ${(served.peak / MiB).toFixed(0)} / ${(idle.now / MiB).toFixed(0)} MiB` +
        `${errors > 0 ? ` (${errors} errors)` : ''}`,
      `≤ ${SERVE_PEAK_TARGET.mib} serving, ≤ ${IDLE_TARGET.mib} idle (the memory section)`,
      served.peak <= SERVE_PEAK_TARGET.mib * MiB && idle.now <= IDLE_TARGET.mib * MiB && errors === 0 ? 'ok' : 'MISS',
    );
  } finally {
    await child.kill('SIGTERM');
    await fake.close();
  }
}

async function embeddedBench(report: Report): Promise<void> {
  const now = Math.floor(Date.now() / HOUR) * HOUR;
  let label = '';
  const { dataDir, key } = await seedBenchAccount({
    credits: 1000,
    prepare: async (db) => {
      label = await measureQueries(db, 'PGlite', EMBEDDED, now, report);
    },
  });
  try {
    await embeddedServiceMemory(dataDir, key, label, report);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function statsStorageBench(report: Report): Promise<void> {
  await postgresBench(report);
  await embeddedBench(report);
}
