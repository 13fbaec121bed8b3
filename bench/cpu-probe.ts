// CPU per request of each of the service's threads on the hot path (100 shorts cached, c=50), for
// A/B checks of hot-path changes. PROBE_RATE (req/s, default 2000; 0: as fast as it goes) holds the
// load at a fixed rate: below saturation the figure moves far less with how busy the machine is
// than req/s does. PROBE_AB='A=1|A=0' starts one service per variant (environment settings,
// space-separated, for the two children) and alternates their rounds, so the two are measured
// seconds apart on the same machine: a shared 2-vCPU machine's speed drifts by tens of per cent
// over minutes, more than most changes move. PROBE_MODE=scale-out runs on PostgreSQL + Redis;
// a variant's PROBE_SQL_FILE (statements separated by ';') runs on its database first, and its
// PROBE_SCRIPT=src/server.ts runs the sources instead of the bundle npm start runs (dist/server.mjs);
// in those modes the CPU of every postgres and redis-server process on the machine is added apart;
// a variant's PROBE_NODE_FLAGS (comma-separated) starts its node with those flags instead of npm start's;
// PROBE_SECONDS (default 8), PROBE_ROUNDS (default 3, per variant). Run: node bench/cpu-probe.ts
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startFakePlatform } from '../src/fake-platform/server.ts';
import { startChild, type ChildService, type ServiceScript } from '../support/child-service.ts';
import { commandCpuSeconds, residentMemory, threadCpuSeconds, userSystemSeconds } from './process-stats.ts';
import { createPostgresDatabase, REDIS_TEST_URL } from '../support/databases.ts';
import { benchServiceEnv, seedBenchAccount } from './bench-service.ts';

const RATE = Number(process.env.PROBE_RATE ?? 2000);
const SECONDS = Number(process.env.PROBE_SECONDS ?? 8);
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 3);
const scaleOut = process.env.PROBE_MODE === 'scale-out' || process.env.PROBE_MODE === 'postgres';
/** PROBE_MODE=postgres: PostgreSQL without Redis (rate limits and cache in the process, as embedded). */
const withRedis = process.env.PROBE_MODE === 'scale-out';
const variants = (process.env.PROBE_AB ?? '').split('|').map((v) => v.trim());

/** The other processes a request uses in the PostgreSQL modes: the PostgreSQL server's and Redis's. */
const SERVERS = /^(postgres|redis-server)/;

function parseEnv(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

interface Variant {
  name: string;
  service: ChildService;
  key: string;
  rounds: Array<{ rps: number; p99: number; total: number; threads: string }>;
}

const fake = await startFakePlatform();
const cleanup: Array<() => Promise<unknown>> = [() => fake.close()];
try {
  const started: Variant[] = [];
  for (const [i, name] of variants.entries()) {
    const pg = scaleOut ? await createPostgresDatabase() : null;
    if (pg) cleanup.push(() => pg.drop());
    // A variant's PROBE_SQL_FILE runs on its database before its service starts (e.g. a schema change to weigh).
    const env = parseEnv(name);
    const statements = env.PROBE_SQL_FILE
      ? readFileSync(env.PROBE_SQL_FILE, 'utf8')
          .split(';')
          .filter((s) => s.trim())
      : [];
    const { dataDir, key } = await seedBenchAccount({
      credits: 2_000_000_000,
      ...(pg ? { databaseUrl: pg.url } : {}),
      prepare: async (db) => {
        for (const statement of statements) await db.query(statement);
      },
    });
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const service = await startChild(
      (env.PROBE_SCRIPT ?? 'dist/server.mjs') as ServiceScript,
      benchServiceEnv(dataDir, fake.baseUrl, {
        CACHE_TTL_SECONDS: '3600',
        LOG_LEVEL: 'info',
        ...(pg ? { DATABASE_URL: pg.url } : {}),
        ...(pg && withRedis ? { REDIS_URL: REDIS_TEST_URL, REDIS_KEY_PREFIX: `cpu-probe-${process.pid}-${i}:` } : {}),
        ...env,
      }),
      {
        logFile: join(dataDir, 'service.log'),
        ...(env.PROBE_NODE_FLAGS ? { nodeFlags: env.PROBE_NODE_FLAGS.split(',') } : {}),
      },
    );
    cleanup.push(() => service.kill('SIGTERM'));
    started.push({ name: name || '(as is)', service, key, rounds: [] });
  }
  const body = JSON.stringify({ channelUrl: 'https://www.youtube.com/@fake-100' });
  const load = (v: Variant, seconds: number) =>
    autocannon({
      url: `${v.service.url}/api/youtube/shorts`,
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${v.key}`, 'content-type': 'application/json' },
      connections: 50,
      duration: seconds,
      ...(RATE > 0 ? { overallRate: RATE } : {}),
    });
  for (const v of started) await load(v, 3); // warm-up
  for (let round = 1; round <= ROUNDS; round++) {
    for (const v of started) {
      const pid = v.service.process.pid!;
      const before = threadCpuSeconds(pid);
      const kernelBefore = userSystemSeconds(pid).system;
      const serversBefore = scaleOut ? commandCpuSeconds(SERVERS) : 0;
      const result = await load(v, SECONDS);
      const after = threadCpuSeconds(pid);
      const kernel = ((userSystemSeconds(pid).system - kernelBefore) * 1e6) / result.requests.total;
      const servers = scaleOut
        ? ` + PostgreSQL and Redis ${(((commandCpuSeconds(SERVERS) - serversBefore) * 1e6) / result.requests.total).toFixed(0)}`
        : '';
      const requests = result.requests.total;
      if (result.errors + result.non2xx > 0) throw new Error(`${v.name}: ${result.errors + result.non2xx} errors`);
      const perThread = [...after]
        .map(([name, s]) => [name, ((s - (before.get(name) ?? 0)) * 1e6) / requests] as const)
        .filter(([, us]) => us >= 1)
        .sort((a, b) => b[1] - a[1]);
      const total = perThread.reduce((sum, [, us]) => sum + us, 0);
      const threads = `${perThread.map(([name, us]) => `${name} ${us.toFixed(0)}`).join(', ')}; in the kernel ${kernel.toFixed(0)}${servers}`;
      v.rounds.push({ rps: requests / SECONDS, p99: result.latency.p99, total, threads });
      console.log(
        `${v.name.padEnd(24)} round ${round}: ${(requests / SECONDS).toFixed(0)} req/s, p99 ${result.latency.p99} ms, µs/request ${total.toFixed(0)} (${threads})`,
      );
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const v of started) {
    const { peak, now } = residentMemory(v.service.process.pid!);
    console.log(
      `${v.name.padEnd(24)} memory: peak ${(peak / 2 ** 20).toFixed(0)} MiB, now ${(now / 2 ** 20).toFixed(0)} MiB`,
    );
  }
  for (const v of started)
    console.log(
      `${v.name.padEnd(24)} median: ${median(v.rounds.map((r) => r.rps)).toFixed(0)} req/s, p99 ${median(v.rounds.map((r) => r.p99))} ms, ${median(v.rounds.map((r) => r.total)).toFixed(0)} µs/request`,
    );
} finally {
  for (const step of cleanup.reverse()) await step().catch(() => {});
}
