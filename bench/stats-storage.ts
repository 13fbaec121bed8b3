// The statistics section of `npm run bench` (--only stats): storage of snapshots on each store.
// Bytes per snapshot (table and indexes over rows), the insert rate through the service's own
// grouped statement, and the series and movers queries, measured on a scaled-down copy of the
// target (1,000 tracked channels × 100 Shorts × hourly checks × 30 days = 72 M rows): the rows are
// generated in SQL (generate_series) with the target's shape, and the figures extrapolated by what
// grows with the row count (bytes linearly; the queries are index probes, which grow with the
// depth of the B-tree, one level per ~300× rows).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/infra/db/open-database.ts';
import type { Database } from '../src/infra/db/database.ts';
import { writeShortPoints, type ShortPoint } from '../src/domain/stats/snapshots.ts';
import { readSeries } from '../src/domain/stats/series.ts';
import { readMovers } from '../src/domain/stats/movers.ts';
import { createPostgresDatabase } from '../support/databases.ts';

type Report = (section: string, metric: string, value: string, target: string, verdict: string) => void;

const TARGET_ROWS = 72_000_000;
const CHANNELS = Number(process.env.BENCH_STATS_CHANNELS ?? 100);
const SHORTS_PER_CHANNEL = 100;
const HOURS = Number(process.env.BENCH_STATS_HOURS ?? 72);
const NOW = Date.parse('2026-07-01T00:00:00Z');

/** Generates channels × 100 Shorts × hours points, hourly, ending at NOW. */
async function seed(db: Database): Promise<number> {
  await db.query(
    `INSERT INTO stats_shorts (video_id, channel_id, published_at, last_at, last_views, last_likes, last_comments,
       last_exact)
     SELECT 'v' || lpad(n::text, 10, '0'), 'UC' || lpad((n / $2::int)::text, 22, '0'),
       $3::timestamptz - (n % $2::int) * interval '1 hour',
       $3::timestamptz, 1000 + n, 40 + n / 25, n / 900, true
     FROM generate_series(0, $1::int * $2::int - 1) AS n`,
    [CHANNELS, SHORTS_PER_CHANNEL, new Date(NOW)],
  );
  await db.query(
    `INSERT INTO stats_points (short_id, at, views, likes, comments, exact)
     SELECT s.id, $1::timestamptz - h * interval '1 hour', 1000 + s.id * 7 + (${HOURS} - h) * (s.id % 97),
       40 + s.id / 25, s.id / 900, true
     FROM stats_shorts s CROSS JOIN generate_series(0, ${HOURS - 1}) AS h`,
    [new Date(NOW)],
  );
  await db.query('ANALYZE stats_points');
  const [row] = await db.query<{ n: number }>('SELECT count(*)::float8 AS n FROM stats_points');
  return row!.n;
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

async function measure(db: Database, store: string, report: Report): Promise<void> {
  const seedStart = performance.now();
  const rows = await seed(db);
  const seedS = (performance.now() - seedStart) / 1000;
  const [size] = await db.query<{ heap: number; total: number }>(
    `SELECT pg_relation_size('stats_points')::float8 AS heap, pg_total_relation_size('stats_points')::float8 AS total`,
  );
  const perRow = size!.total / rows;
  report(
    'stats',
    `${store}: rows generated (${CHANNELS} ch × 100 × ${HOURS} h)`,
    `${rows} in ${seedS.toFixed(1)} s`,
    '',
    '',
  );
  report(
    'stats',
    `${store}: bytes per snapshot (heap / with primary key)`,
    `${(size!.heap / rows).toFixed(0)} / ${perRow.toFixed(0)}`,
    '',
    '',
  );
  report(
    'stats',
    `${store}: at 72 M rows (extrapolated)`,
    `${((perRow * TARGET_ROWS) / 2 ** 30).toFixed(1)} GiB`,
    '',
    '',
  );
  // Inserts through the service's grouped statement: one read of 100 Shorts per statement.
  const batches = 50;
  const insert = await timed(batches, (i) => {
    const at = new Date(NOW + (i + 1) * 3_600_000);
    const points: ShortPoint[] = Array.from({ length: SHORTS_PER_CHANNEL }, (_, k) => {
      const n = (i % CHANNELS) * SHORTS_PER_CHANNEL + k;
      return {
        videoId: 'v' + String(n).padStart(10, '0'),
        channelId: 'UC' + String(Math.floor(n / SHORTS_PER_CHANNEL)).padStart(22, '0'),
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
    `${store}: insert rate (groups of 100 snapshots)`,
    `${((100 * 1000) / insert.meanMs).toFixed(0)} rows/s`,
    '',
    '',
  );
  const video = (i: number) => 'v' + String((i * 7919) % (CHANNELS * SHORTS_PER_CHANNEL)).padStart(10, '0');
  const series = await timed(50, (i) => readSeries(db, video(i), { now: NOW }));
  report(
    'stats',
    `${store}: series query (30 days, ${Math.min(HOURS, 720)} points)`,
    `mean ${series.meanMs.toFixed(1)} ms, p95 ${series.p95Ms.toFixed(1)} ms`,
    '',
    '',
  );
  const channel = (i: number) => 'UC' + String((i * 31) % CHANNELS).padStart(22, '0');
  const movers = await timed(20, (i) => readMovers(db, channel(i), { window: '24h', limit: 100, now: NOW }));
  report(
    'stats',
    `${store}: movers query (100 Shorts, 24h)`,
    `mean ${movers.meanMs.toFixed(1)} ms, p95 ${movers.p95Ms.toFixed(1)} ms`,
    '',
    '',
  );
}

export async function statsStorageBench(report: Report): Promise<void> {
  const pg = await createPostgresDatabase();
  try {
    const db = await openDatabase(
      { DATA_DIR: ':memory:', DATABASE_URL: pg.url, DATABASE_POOL_SIZE: 2 },
      { role: 'bench' },
    );
    try {
      await measure(db, 'PostgreSQL', report);
    } finally {
      await db.close();
    }
  } finally {
    await pg.drop();
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'cs-bench-stats-'));
  try {
    const db = await openDatabase({ DATA_DIR: dataDir, DATABASE_POOL_SIZE: 1 }, { role: 'bench' });
    try {
      await measure(db, 'PGlite', report);
    } finally {
      await db.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
