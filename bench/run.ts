// npm run bench: reproducible measurements of the hot path, the cold path against a slow upstream,
// early stop, memory and webhook throughput. Prints a table and writes bench/results.md.
import { rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { startFakePlatform } from '../src/fake-platform/server.ts';
import { parseTimestamp } from '../src/domain/shorts/mapping.ts';
import { startChild, freePort, type ChildService } from '../support/child-service.ts';
import { startReceiver, until } from '../support/webhook-receiver.ts';
import { createPostgresDatabase, REDIS_TEST_URL } from '../support/databases.ts';
import { measureMemory } from './memory-probe.ts';
import { appendHistory } from './history.ts';
import { watchesBench } from './watches.ts';
import { cpuSeconds, residentMemory } from './process-stats.ts';
import { benchServiceEnv, seedBenchAccount } from './bench-service.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LATENCY_MS = 50;
const rows: string[][] = [];
// Headline figures of this run, one column each in bench/history.csv (blank when a section did not run).
const HEADLINES = [
  'hot_rps',
  'bare_rps',
  'hot_ratio_pct',
  'hot_cpu_ratio_pct',
  'hot_p99_ms',
  'bare_p99_ms',
  'scaleout_ratio_pct',
  'cold_3000_ratio',
  'mem_fresh_start_peak_mib',
  'mem_serve_peak_mib',
  'mem_idle_mib',
  'mem_restart_peak_mib',
  'mem_default_source_serve_peak_mib',
  'mem_default_source_idle_mib',
  'mem_postgres_peak_mib',
  'async_1000_ms',
  'async_scaleout_1000_ms',
] as const;
const headline: Partial<Record<(typeof HEADLINES)[number], string>> = {};
const notes: string[] = [];
const report = (section: string, metric: string, value: string, target: string, verdict: string) => {
  rows.push([section, metric, value, target, verdict]);
  console.log(`${section.padEnd(10)} ${metric.padEnd(58)} ${value.padEnd(22)} ${target.padEnd(22)} ${verdict}`);
};

const prepareDataDir = (credits: number) => seedBenchAccount({ credits });

const serviceEnv = benchServiceEnv;

function cannon(url: string, body: string, headers: Record<string, string>, connections = 50) {
  return autocannon({
    url,
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
    connections,
    duration: DURATION,
  });
}

const peakRss = (pid: number): number => residentMemory(pid).peak;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function startBare(bodyFile: string, kind: 'buffer' | 'string') {
  const port = await freePort();
  const bare = spawn(process.execPath, ['bench/bare-server.ts', bodyFile], {
    env: { ...process.env, PORT: String(port), BARE_BODY: kind },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((r) => bare.stdout!.once('data', r));
  return { url: `http://127.0.0.1:${port}/api/youtube/shorts`, pid: bare.pid!, close: () => bare.kill() };
}

async function hotPath() {
  const fake = await startFakePlatform();
  const { dataDir, key } = await prepareDataDir(2_000_000_000);
  // LOG_LEVEL=info: every request is logged (to a file, as an operator would ship it).
  const service = await startChild(
    'dist/server.mjs',
    serviceEnv(dataDir, fake.baseUrl, { CACHE_TTL_SECONDS: '3600', LOG_LEVEL: 'info' }),
    { logFile: join(dataDir, 'service.log') },
  );
  const body = JSON.stringify({ channelUrl: 'https://www.youtube.com/@fake-100' });
  const warm = await fetch(`${service.url}/api/youtube/shorts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
  });
  const sample = await warm.text();
  const bodyFile = join(dataDir, 'sample.json');
  await writeFile(bodyFile, sample);
  const bareBuffer = await startBare(bodyFile, 'buffer');
  const bareString = await startBare(bodyFile, 'string');
  // Alternating rounds, medians reported: on a small shared machine single runs vary by ±20 %.
  const runs = {
    service: [] as autocannon.Result[],
    buffer: [] as autocannon.Result[],
    string: [] as autocannon.Result[],
  };
  // CPU time per request as well: on a shared machine it varies far less than throughput does.
  const cpu = { service: [] as number[], buffer: [] as number[] };
  const measured = async (pid: number, run: () => Promise<autocannon.Result>, into: number[]) => {
    const before = cpuSeconds(pid);
    const result = await run();
    into.push(((cpuSeconds(pid) - before) * 1e6) / Math.max(1, result.requests.total));
    return result;
  };
  for (let round = 0; round < ROUNDS; round++) {
    runs.service.push(
      await measured(
        service.process.pid!,
        () => cannon(`${service.url}/api/youtube/shorts`, body, { authorization: `Bearer ${key}` }),
        cpu.service,
      ),
    );
    runs.buffer.push(await measured(bareBuffer.pid, () => cannon(bareBuffer.url, body, {}), cpu.buffer));
    runs.string.push(await cannon(bareString.url, body, {}));
  }
  await service.kill('SIGTERM');
  // The same load in the scale-out configuration: PostgreSQL for the data, Redis for limits and cache.
  const scaled = await scaledOutHotPath(fake.baseUrl, body).catch((error: Error) => {
    notes.push(`- The scale-out hot path was not measured: ${error.message}`);
    return null;
  });
  bareBuffer.close();
  bareString.close();
  await fake.close();
  await rm(dataDir, { recursive: true, force: true });
  const rps = (results: autocannon.Result[]) => median(results.map((r) => r.requests.average));
  const lat = (results: autocannon.Result[]) =>
    `${median(results.map((r) => r.latency.p50))} / ${median(results.map((r) => r.latency.p99))}`;
  const ratio = rps(runs.service) / rps(runs.buffer);
  const errors = runs.service.reduce((sum, r) => sum + r.errors + r.non2xx, 0);
  report(
    'hot',
    `service req/s (100 shorts, ${(sample.length / 1024).toFixed(0)} KiB body, c=50; runs ${runs.service.map((r) => r.requests.average.toFixed(0)).join(', ')})`,
    rps(runs.service).toFixed(0),
    '',
    '',
  );
  report('hot', 'service latency p50 / p99 (ms)', lat(runs.service), '', '');
  report(
    'hot',
    `bare Fastify, pre-encoded body: req/s (runs ${runs.buffer.map((r) => r.requests.average.toFixed(0)).join(', ')})`,
    rps(runs.buffer).toFixed(0),
    '',
    '',
  );
  report('hot', 'bare Fastify, pre-encoded body: latency p50 / p99 (ms)', lat(runs.buffer), '', '');
  report('hot', 'bare Fastify, JSON string body: req/s', rps(runs.string).toFixed(0), '', '');
  const p99 = (results: autocannon.Result[]) => median(results.map((r) => r.latency.p99));
  report(
    'hot',
    'service / bare (pre-encoded) throughput',
    `${(ratio * 100).toFixed(1)} %`,
    '≥ 60 %',
    ratio >= 0.6 ? 'met' : 'NOT met',
  );
  report(
    'hot',
    'service p99 / bare (pre-encoded) p99',
    `${(p99(runs.service) / p99(runs.buffer)).toFixed(1)}×`,
    '≤ 2×',
    p99(runs.service) <= 2 * p99(runs.buffer) ? 'met' : 'NOT met',
  );
  const cpuRatio = median(cpu.buffer) / median(cpu.service);
  report(
    'hot',
    `CPU µs per request: service vs bare (medians; service ${cpu.service.map((c) => c.toFixed(0)).join(', ')})`,
    `${median(cpu.service).toFixed(0)} vs ${median(cpu.buffer).toFixed(0)} (bare/service ${(cpuRatio * 100).toFixed(1)} %)`,
    '',
    '',
  );
  headline.hot_cpu_ratio_pct = (cpuRatio * 100).toFixed(1);
  report(
    'hot',
    'service / bare (string) throughput',
    `${((rps(runs.service) / rps(runs.string)) * 100).toFixed(1)} %`,
    '',
    '',
  );
  headline.hot_rps = rps(runs.service).toFixed(0);
  headline.bare_rps = rps(runs.buffer).toFixed(0);
  headline.hot_ratio_pct = (ratio * 100).toFixed(1);
  headline.hot_p99_ms = String(median(runs.service.map((r) => r.latency.p99)));
  headline.bare_p99_ms = String(median(runs.buffer.map((r) => r.latency.p99)));
  report('hot', 'errors / non-2xx (service, all runs)', String(errors), '0', errors === 0 ? 'met' : 'NOT met');
  if (scaled) {
    const scaledRps = rps(scaled);
    report(
      'hot',
      `scale-out mode (PostgreSQL + Redis) req/s (runs ${scaled.map((r) => r.requests.average.toFixed(0)).join(', ')})`,
      scaledRps.toFixed(0),
      '',
      '',
    );
    report('hot', 'scale-out mode latency p50 / p99 (ms)', lat(scaled), '', '');
    headline.scaleout_ratio_pct = ((scaledRps / rps(runs.buffer)) * 100).toFixed(1);
    report(
      'hot',
      'scale-out mode / bare (pre-encoded) throughput',
      `${((scaledRps / rps(runs.buffer)) * 100).toFixed(1)} %`,
      '≥ 60 %',
      scaledRps >= rps(runs.buffer) * 0.6 ? 'met' : 'NOT met',
    );
    report(
      'hot',
      'scale-out mode p99 / bare (pre-encoded) p99',
      `${(p99(scaled) / p99(runs.buffer)).toFixed(1)}×`,
      '≤ 2×',
      p99(scaled) <= 2 * p99(runs.buffer) ? 'met' : 'NOT met',
    );
  }
}

async function scaledOutHotPath(baseUrl: string, body: string): Promise<autocannon.Result[]> {
  const pg = await createPostgresDatabase();
  const { dataDir, key } = await seedBenchAccount({ credits: 2_000_000_000, databaseUrl: pg.url });
  try {
    const env = {
      CACHE_TTL_SECONDS: '3600',
      LOG_LEVEL: 'info',
      DATABASE_URL: pg.url,
      REDIS_URL: REDIS_TEST_URL,
      REDIS_KEY_PREFIX: `bench-${process.pid}:`,
    };
    const service = await startChild('dist/server.mjs', serviceEnv(dataDir, baseUrl, env), {
      logFile: join(dataDir, 'service.log'),
    });
    try {
      const headers = { authorization: `Bearer ${key}` };
      const warm = await fetch(`${service.url}/api/youtube/shorts`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body,
      });
      if (!warm.ok) throw new Error(`warm-up answered ${warm.status}`);
      await warm.arrayBuffer();
      const results: autocannon.Result[] = [];
      for (let round = 0; round < ROUNDS; round++)
        results.push(await cannon(`${service.url}/api/youtube/shorts`, body, headers));
      return results;
    } finally {
      await service.kill('SIGTERM');
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await pg.drop();
  }
}

async function coldPathAndEarlyStop() {
  const fake = await startFakePlatform({ latencyMs: LATENCY_MS });
  const { dataDir, key } = await prepareDataDir(2_000_000_000);
  const service = await startChild('dist/server.mjs', serviceEnv(dataDir, fake.baseUrl, { CACHE_TTL_SECONDS: '0' }));
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const call = (payload: object) =>
    fetch(`${service.url}/api/youtube/shorts`, { method: 'POST', headers, body: JSON.stringify(payload) }).then((r) =>
      r.json(),
    );
  // Cold means nothing cached upstream-wise, not a process whose code has never run: one read of a
  // channel of its own first, so the first timed runs do not pay for the JIT's warm-up (#13: it put
  // the 50-short median at 200 ms against 176 ms once warm).
  await call({
    channelUrl: `https://www.youtube.com/@${fake.addChannel({ handle: 'benchwarmup', shortsCount: 500 }).handle}`,
  });
  for (const size of [50, 500, 3000]) {
    const pages = Math.max(1, Math.ceil(size / 50));
    const times: number[] = [];
    const firstBytes: number[] = [];
    let units = 0;
    for (let run = 0; run < 3; run++) {
      // A new channel each run: nothing cached, handle resolution included.
      const handle = `@${fake.addChannel({ handle: `bench${size}r${run}`, shortsCount: size }).handle}`;
      fake.resetStats();
      const started = performance.now();
      // fetch resolves when the status line and headers arrive: the time to first byte.
      const res = await fetch(`${service.url}/api/youtube/shorts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ channelUrl: `https://www.youtube.com/${handle}` }),
      });
      firstBytes.push(performance.now() - started);
      const body = await res.json();
      times.push(performance.now() - started);
      if (body.itemCount !== size)
        throw new Error(`expected ${size} shorts, got ${JSON.stringify(body).slice(0, 200)}`);
      units = fake.quotaUsed();
    }
    const wall = median(times);
    const bound = (pages + 2) * LATENCY_MS;
    const minimum = 1 + pages + pages;
    if (size === 3000) headline.cold_3000_ratio = (wall / bound).toFixed(2);
    report(
      'cold',
      `${size} shorts: wall ms (median of 3; first byte after ${median(firstBytes).toFixed(0)}) vs (pages+2)×${LATENCY_MS} = ${bound}`,
      `${wall.toFixed(0)} (${(wall / bound).toFixed(2)}×)`,
      '≤ 1.15×',
      wall <= bound * 1.15 ? 'met' : 'NOT met',
    );
    report(
      'cold',
      `${size} shorts by @handle: quota units vs minimum (1 + pages + batches)`,
      `${units} vs ${minimum}`,
      '= minimum',
      units <= minimum ? 'met' : 'NOT met',
    );
  }
  const all = await call({ channelUrl: 'https://www.youtube.com/@fake-3000' });
  const oldestDate = parseTimestamp(all.data.shorts[9].snippet.publishedAt)!;
  fake.resetStats();
  const windowed = await call({ channelUrl: 'https://www.youtube.com/@fake-3000', oldestDate });
  const pagesRead = fake.calls().filter((c) => c.endpoint === 'playlistItems').length;
  report(
    'early',
    `oldestDate window of ${windowed.itemCount} in 3,000: playlist pages read`,
    `${pagesRead} (window needs 1)`,
    '≤ 2',
    pagesRead <= 2 ? 'met' : 'NOT met',
  );
  await service.kill('SIGTERM');
  await fake.close();
  await rm(dataDir, { recursive: true, force: true });
}

// Quota economy: what an abusive account can make the service spend upstream, and what honest
// work costs. Everything runs against a fake platform that only this section uses, so its unit
// count is exactly what was spent on the accounts' behalf.
async function quotaEconomy() {
  const fake = await startFakePlatform();
  const { dataDir, key } = await prepareDataDir(1);
  const service = await startChild('dist/server.mjs', serviceEnv(dataDir, fake.baseUrl));
  const receiver = await startReceiver();
  const allowance = 50;
  try {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const call = (payload: object) =>
      fetch(`${service.url}/api/youtube/shorts`, { method: 'POST', headers, body: JSON.stringify(payload) }).then(
        async (r) => ({ status: r.status, body: await r.json() }),
      );
    fake.resetStats();
    const answers = await Promise.all([
      ...Array.from({ length: 100 }, (_, i) => call({ channelUrl: `https://www.youtube.com/@fake-${1000 + i}` })),
      ...Array.from({ length: 200 }, (_, i) =>
        call({ channelUrl: `https://www.youtube.com/@fake-${2000 + i}`, webhookUrl: receiver.url(`/q/${i}`) }),
      ),
    ]);
    const account = async () => (await fetch(`${service.url}/accounts`, { headers })).json();
    await until(async () => ((await account()).credits.reserved === 0 ? true : undefined), 60_000);
    const spent = fake.quotaUsed();
    const byStatus = Object.entries(
      answers.reduce<Record<number, number>>((acc, a) => {
        acc[a.status] = (acc[a.status] ?? 0) + 1;
        return acc;
      }, {}),
    )
      .map(([k, v]) => `${v}×${k}`)
      .join(', ');
    report(
      'quota',
      `1-credit account: 100 sync + 200 webhook calls at large channels (${byStatus}): units`,
      String(spent),
      `≤ 3 + ${allowance}`,
      spent <= 3 + allowance ? 'met' : 'NOT met',
    );
  } finally {
    await receiver.close();
    await service.kill('SIGTERM');
  }
  // (b) and (c) from an account that can pay, with its own daily allowance: since queued work runs
  // at once, (a) can spend the first account's whole allowance on webhook probes.
  const paid = await prepareDataDir(1_000_000);
  const payer = await startChild('dist/server.mjs', serviceEnv(paid.dataDir, fake.baseUrl, { CACHE_TTL_SECONDS: '0' }));
  try {
    const call = (payload: object) =>
      fetch(`${payer.url}/api/youtube/shorts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${paid.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    // (c) units per 50 shorts served cold.
    fake.resetStats();
    const res = await fetch(`${payer.url}/api/youtube/shorts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${paid.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channelUrl: 'https://www.youtube.com/@fake-3000' }),
    });
    const body = await res.json();
    const per50 = fake.quotaUsed() / (body.itemCount / 50);
    report(
      'quota',
      `units per 50 shorts served cold, data-api mode (3,000 shorts: ${fake.quotaUsed()} units, ${body.creditsCharged} credits)`,
      per50.toFixed(2),
      '2.0 (data-api)',
      per50 <= 2.05 ? 'met' : 'NOT met',
    );
    // (b) unknown /c/ names from an account with credits: each costs forHandle + forUsername until the allowance is spent.
    fake.resetStats();
    const lookups = [];
    for (let i = 0; i < 50; i++)
      lookups.push(await call({ channelUrl: `https://www.youtube.com/c/NoSuchVanityName${i}` }));
    const refused = lookups.filter((l) => l.status === 429).length;
    report(
      'quota',
      `50 lookups of unknown /c/ names (${lookups.length - refused}×404, ${refused}×429 allowance spent): units`,
      String(fake.quotaUsed()),
      `≤ ${allowance}`,
      fake.quotaUsed() <= allowance ? 'met' : 'NOT met',
    );
  } finally {
    await payer.kill('SIGTERM');
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(paid.dataDir, { recursive: true, force: true });
  }
}

// The three sources side by side: Data API units per 50 shorts served cold and wall time against
// each mode's sequential bound (50 ms per upstream call), for the same 3,000-short channels.
async function sources() {
  const fake = await startFakePlatform({ latencyMs: LATENCY_MS });
  const size = 3000;
  try {
    for (const source of ['data-api', 'hybrid', 'innertube'] as const) {
      const { dataDir, key } = await prepareDataDir(2_000_000_000);
      const service = await startChild(
        'dist/server.mjs',
        serviceEnv(dataDir, fake.baseUrl, {
          CACHE_TTL_SECONDS: '0',
          YOUTUBE_SOURCE: source,
          ...(source === 'innertube' ? { YOUTUBE_API_KEY: '' } : {}),
        }),
      );
      try {
        const times: number[] = [];
        let units = 0;
        for (let run = 0; run < 3; run++) {
          const handle = `@${fake.addChannel({ handle: `src${source.replace('-', '')}r${run}`, shortsCount: size }).handle}`;
          fake.resetStats();
          const started = performance.now();
          const res = await fetch(`${service.url}/api/youtube/shorts`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ channelUrl: `https://www.youtube.com/${handle}` }),
          });
          const body = await res.json();
          times.push(performance.now() - started);
          if (body.itemCount !== size || body.source !== source)
            throw new Error(`${source}: ${JSON.stringify(body).slice(0, 300)}`);
          units = fake.quotaUsed();
        }
        const wall = median(times);
        // Critical paths: data-api: handle + playlist pages (details overlap) + last batch; hybrid: resolve + channel/tab + tab pages (48 each) + last batch; innertube: resolve + channel/tab + tab pages.
        const tabPages = Math.ceil(size / 48);
        const calls =
          source === 'data-api' ? Math.ceil(size / 50) + 2 : source === 'hybrid' ? tabPages + 3 : tabPages + 2;
        const bound = calls * LATENCY_MS;
        report(
          'sources',
          `${source}: ${size} shorts cold, Data API units (per 50 shorts)`,
          `${units} (${(units / (size / 50)).toFixed(2)})`,
          source === 'hybrid' ? '≤ 1.05 per 50' : source === 'innertube' ? '0' : '2.0 per 50 (today)',
          source === 'hybrid'
            ? units / (size / 50) <= 1.05
              ? 'met'
              : 'NOT met'
            : source === 'innertube'
              ? units === 0
                ? 'met'
                : 'NOT met'
              : 'reference',
        );
        report(
          'sources',
          `${source}: wall ms (median of 3) vs ${calls} sequential calls × ${LATENCY_MS} = ${bound}`,
          `${wall.toFixed(0)} (${(wall / bound).toFixed(2)}×)`,
          '≤ 1.15×',
          wall <= bound * 1.15 ? 'met' : 'NOT met',
        );
      } finally {
        await service.kill('SIGTERM');
        await rm(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    await fake.close();
  }
}

async function memory() {
  // Embedded: the whole life the issue (#13) measures, in bench/memory-probe.ts: start on an EMPTY
  // data directory, sign up and create a key through the API, 200 requests for the 3,000-short
  // channel from 20 clients, 10 s idle, then a restart on the existing directory.
  const embedded = await measureMemory({ idleSeconds: 10 });
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  headline.mem_fresh_start_peak_mib = mib(embedded.freshStartPeak);
  headline.mem_serve_peak_mib = mib(embedded.servePeak);
  headline.mem_idle_mib = mib(embedded.idleRss);
  headline.mem_restart_peak_mib = mib(embedded.restartPeak);
  report(
    'memory',
    `embedded PGlite: peak RSS from an empty data directory to listening (MiB; started in ${embedded.startMs.toFixed(0)} ms)`,
    mib(embedded.freshStartPeak),
    '',
    '',
  );
  report(
    'memory',
    'embedded PGlite: peak RSS, empty directory through 3,000 shorts to 20 clients (MiB)',
    mib(embedded.servePeak),
    '≤ 350',
    embedded.servePeak <= 350 * 2 ** 20 ? 'met' : 'NOT met',
  );
  report(
    'memory',
    'embedded PGlite: RSS after 10 s idle (MiB)',
    mib(embedded.idleRss),
    '≤ 200',
    embedded.idleRss <= 200 * 2 ** 20 ? 'met' : 'NOT met',
  );
  report(
    'memory',
    'embedded PGlite: peak RSS of a restart on the existing directory (MiB)',
    mib(embedded.restartPeak),
    '',
    `${embedded.errors} errors/non-2xx`,
  );
  // The rows above run the Data API source alone (the benchmarks' setting: exact unit counts). The
  // default, YOUTUBE_SOURCE=auto, is hybrid with a key: youtubei.js loaded and InnerTube listing the
  // channel, so the same life again in what a new install runs.
  const byDefault = await measureMemory({ idleSeconds: 10, env: { YOUTUBE_SOURCE: 'auto' } });
  headline.mem_default_source_serve_peak_mib = mib(byDefault.servePeak);
  headline.mem_default_source_idle_mib = mib(byDefault.idleRss);
  // A run whose requests failed, or did not go through InnerTube, measured something else.
  const servedByDefault = byDefault.errors === 0 && byDefault.innertubeCalls > 0;
  const defaultVerdict = (ok: boolean) =>
    !servedByDefault
      ? `NOT met (${byDefault.errors} errors/non-2xx, ${byDefault.innertubeCalls} InnerTube calls)`
      : ok
        ? 'met'
        : 'NOT met';
  report(
    'memory',
    'embedded PGlite, default source (auto: hybrid, youtubei.js): peak RSS, empty directory through 3,000 shorts to 20 clients (MiB)',
    mib(byDefault.servePeak),
    '≤ 350',
    defaultVerdict(byDefault.servePeak <= 350 * 2 ** 20),
  );
  report(
    'memory',
    'embedded PGlite, default source (auto: hybrid, youtubei.js): RSS after 10 s idle (MiB)',
    mib(byDefault.idleRss),
    '≤ 200',
    defaultVerdict(byDefault.idleRss <= 200 * 2 ** 20),
  );
  const fake = await startFakePlatform();
  const pg = await createPostgresDatabase().catch(() => null);
  if (!pg) {
    notes.push('- PostgreSQL was not reachable, so peak RSS was measured in the embedded mode only.');
    await fake.close();
    return;
  }
  const { dataDir, key } = await seedBenchAccount({ credits: 2_000_000_000, databaseUrl: pg.url });
  const service = await startChild(
    'dist/server.mjs',
    serviceEnv(dataDir, fake.baseUrl, { CACHE_TTL_SECONDS: '3600', DATABASE_URL: pg.url }),
  );
  const idle = peakRss(service.process.pid!);
  const result = await autocannon({
    url: `${service.url}/api/youtube/shorts`,
    method: 'POST',
    body: JSON.stringify({ channelUrl: 'https://www.youtube.com/@fake-3000' }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    connections: 20,
    amount: 200,
  });
  const peak = peakRss(service.process.pid!);
  headline.mem_postgres_peak_mib = mib(peak);
  report(
    'memory',
    'PostgreSQL mode: peak RSS, 3,000 shorts to 20 concurrent clients (MiB)',
    `${mib(peak)} (at start ${mib(idle)})`,
    '',
    `${result.non2xx + result.errors} errors/non-2xx`,
  );
  await service.kill('SIGTERM');
  await rm(dataDir, { recursive: true, force: true });
  await pg.drop();
  await fake.close();
}

/** 1,000 webhook requests through `url` (50 at a time); resolves with when all were accepted and when the last was delivered. */
async function webhookLoad(url: string, key: string): Promise<{ accepted: number; delivered: number }> {
  const receiver = await startReceiver();
  try {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const started = performance.now();
    const total = 1000;
    for (let i = 0; i < total; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          fetch(`${url}/api/youtube/shorts`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              channelUrl: `https://www.youtube.com/@fake-${((i + j) % 10) + 1}`,
              webhookUrl: receiver.url(`/h/${i + j}`),
            }),
          }).then(async (r) => {
            if (r.status !== 202) throw new Error(`webhook request answered ${r.status}: ${await r.text()}`);
          }),
        ),
      );
    }
    const accepted = performance.now() - started;
    await until(
      async () => new Set(receiver.deliveries.map((d) => d.headers['webhook-id'])).size >= total,
      600_000,
      20,
    );
    return { accepted, delivered: performance.now() - started };
  } finally {
    await receiver.close();
  }
}

// Each mode serves rounds of 1,000 webhook requests: the first on a fresh process (its code not yet
// optimised, its statements not yet prepared), then ROUNDS warm ones. The target is judged on the
// median warm round (by last delivery), as the hot path is judged on the median of its runs; the
// first round is reported beside it.
type WebhookRounds = {
  first: { accepted: number; delivered: number };
  warm: Array<{ accepted: number; delivered: number }>;
};

async function webhookRounds(url: string, key: string): Promise<WebhookRounds> {
  const first = await webhookLoad(url, key);
  const warm: WebhookRounds['warm'] = [];
  for (let round = 0; round < ROUNDS; round++) warm.push(await webhookLoad(url, key));
  return { first, warm };
}

function reportWebhookRounds(label: string, target: number, { first, warm }: WebhookRounds): string {
  const mid = [...warm].sort((a, b) => a.delivered - b.delivered)[Math.floor(warm.length / 2)]!;
  const runs = warm.map((r) => r.delivered.toFixed(0)).join(', ');
  report('async', `${label}1000 webhook requests: all accepted (ms)`, mid.accepted.toFixed(0), '', '');
  report(
    'async',
    `${label}1000 webhook requests: last delivery after (ms; median of warm runs ${runs})`,
    `${mid.delivered.toFixed(0)} (${(1000 / (mid.delivered / 1000)).toFixed(0)}/s)`,
    `≤ ${target}`,
    mid.delivered <= target ? 'met' : 'NOT met',
  );
  report(
    'async',
    `${label}1000 webhook requests, the first round after start: accepted / last delivery (ms)`,
    `${first.accepted.toFixed(0)} / ${first.delivered.toFixed(0)}`,
    '',
    '',
  );
  return mid.delivered.toFixed(0);
}

async function webhooks() {
  const fake = await startFakePlatform();
  const { dataDir, key } = await prepareDataDir(2_000_000_000);
  const service: ChildService = await startChild(
    'dist/server.mjs',
    serviceEnv(dataDir, fake.baseUrl, { CACHE_TTL_SECONDS: '3600', WORKER_CONCURRENCY: '20' }),
  );
  try {
    headline.async_1000_ms = reportWebhookRounds('', 3000, await webhookRounds(service.url, key));
  } finally {
    await service.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
  }
  // Scale-out: one API process that runs no jobs and two worker processes, on PostgreSQL + Redis.
  const scaled = await scaledOutWebhooks(fake.baseUrl).catch((error: Error) => {
    notes.push(`- The scale-out webhook throughput was not measured: ${error.message}`);
    return null;
  });
  if (scaled)
    headline.async_scaleout_1000_ms = reportWebhookRounds('scale-out, 1 API + 2 worker processes: ', 2000, scaled);
  await fake.close();
}

async function scaledOutWebhooks(baseUrl: string) {
  const pg = await createPostgresDatabase();
  const { dataDir, key } = await seedBenchAccount({ credits: 2_000_000_000, databaseUrl: pg.url });
  const children: ChildService[] = [];
  try {
    const env = {
      CACHE_TTL_SECONDS: '3600',
      DATABASE_URL: pg.url,
      REDIS_URL: REDIS_TEST_URL,
      REDIS_KEY_PREFIX: `bench-async-${process.pid}:`,
      WORKER_CONCURRENCY: '20',
    };
    const api = await startChild('dist/server.mjs', serviceEnv(dataDir, baseUrl, { ...env, RUN_WORKER: 'false' }));
    children.push(api);
    for (let i = 0; i < 2; i++) children.push(await startChild('dist/worker.mjs', serviceEnv(dataDir, baseUrl, env)));
    return await webhookRounds(api.url, key);
  } finally {
    await Promise.all(children.map((c) => c.kill('SIGTERM')));
    await rm(dataDir, { recursive: true, force: true });
    await pg.drop();
  }
}

// Other work on the machine moves every wall-clock figure: the load average is recorded with the results.
const loadAtStart = loadavg()[0]!;
console.log(
  `channel-shorts benchmark — ${new Date().toISOString()} — Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'})\n`,
);
// BENCH_ONLY=hot,cold,memory,async runs a subset (the results file then holds only those rows).
const only = new Set((process.env.BENCH_ONLY ?? 'hot,cold,sources,memory,async,quota,watches').split(','));
if (only.has('hot')) await hotPath();
if (only.has('cold')) await coldPathAndEarlyStop();
if (only.has('sources')) await sources();
if (only.has('memory')) await memory();
if (only.has('async')) await webhooks();
if (only.has('quota')) await quotaEconomy();
if (only.has('watches')) await watchesBench(report); // #15, bench/watches.ts

// How to read the table: prose kept in bench/reading.md (measurements and what was tried), appended as is.
notes.push('', readFileSync(new URL('./reading.md', import.meta.url), 'utf8').trimEnd());

// A subset run keeps the previous rows of the sections it did not run.
const ran = new Set(rows.map((r) => r[0]));
let previous: string[] = [];
try {
  previous = readFileSync(new URL('./results.md', import.meta.url), 'utf8')
    .split('\n')
    .filter(
      (line) =>
        /^\| (hot|cold|early|sources|memory|async|quota|watches) \|/.test(line) && !ran.has(line.split('|')[1]!.trim()),
    );
} catch {
  previous = []; // no earlier results
}
const table = [
  '| section | metric | value | target | verdict |',
  '|---|---|---|---|---|',
  ...previous,
  ...rows.map((r) => `| ${r.join(' | ')} |`),
].join('\n');
await writeFile(
  new URL('./results.md', import.meta.url),
  `# Benchmark results\n\nRun with \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}; service in a child process (embedded PGlite, in-memory limiter and cache), load generator (autocannon, ${DURATION} s, 50 connections) and fake platform in the benchmark process. Upstream latency for the cold path: ${LATENCY_MS} ms per call. Load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end (other processes on the machine count in it).\n\n${table}\n\n${notes.join('\n')}\n`,
);
console.log('\nwrote bench/results.md');
await appendHistory(HEADLINES, headline);
console.log('appended bench/history.csv and updated README.md (Benchmarks)');
