// CPU profile of the service and its top frames by self time: on the hot path (100 shorts cached,
// c=50), or with PROFILE_SCENARIO=async while 1,000 webhook requests are accepted and delivered.
// PROFILE_MODE=scale-out runs it on PostgreSQL + Redis (postgres: without Redis); PROFILE_RATE=2000 holds the hot path at that rate. The profile (a .cpuprofile file, for Chrome
// DevTools) stays in the printed directory. Run: node bench/profile-hot.ts
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startFakePlatform } from '../src/fake-platform/server.ts';
import { startChild } from '../support/child-service.ts';
import { startReceiver, until } from '../support/webhook-receiver.ts';
import { cpuSeconds, threadCpuSeconds } from './process-stats.ts';
import { createPostgresDatabase, REDIS_TEST_URL } from '../support/databases.ts';
import { benchServiceEnv, seedBenchAccount } from './bench-service.ts';

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 8);
const TOP = Number(process.env.PROFILE_TOP ?? 25);
const scaleOut = process.env.PROFILE_MODE === 'scale-out' || process.env.PROFILE_MODE === 'postgres';
/** PROFILE_MODE=postgres: PostgreSQL without Redis (rate limits in PostgreSQL, cache in the process). */
const withRedis = process.env.PROFILE_MODE === 'scale-out';
const scenario = process.env.PROFILE_SCENARIO === 'async' ? 'async' : 'hot';
/** A fixed request rate (req/s) instead of as fast as it goes: below saturation, a frame's samples are its own CPU time rather than time the thread waited for a core. */
const RATE = process.env.PROFILE_RATE ? Number(process.env.PROFILE_RATE) : undefined;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function (name + file:line), as shares of all samples. */
export function topFrames(profile: Profile, top: number): Array<{ share: number; frame: string }> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const { callFrame } = byId.get(id)!;
    const file = callFrame.url
      .replace(/^.*\/(node_modules\/)?/, (m) => (m.includes('node_modules') ? 'node_modules/' : ''))
      .replace(/^file:\/\/.*\/wt-[^/]+\//, '');
    const key =
      `${callFrame.functionName || '(anonymous)'} ${file ? `${file}:${callFrame.lineNumber + 1}` : ''}`.trim();
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([frame, t]) => ({ share: t / total, frame }));
}

/** Self time grouped by where the code lives: PGlite's WASM, a package, our source, Node internals. */
export function byArea(profile: Profile): Array<{ share: number; frame: string }> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const area = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const { callFrame } = byId.get(id)!;
    const url = callFrame.url;
    const name = callFrame.functionName;
    const key = name.startsWith('wasm-function')
      ? 'PGlite (WASM)'
      : url.includes('node_modules/')
        ? `node_modules/${/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1]}`
        : url.includes('/src/')
          ? `src/${/\/src\/([^/]+(?:\/[^/]+)?)/.exec(url)?.[1]}`
          : url === ''
            ? `(native) ${name || '(anonymous)'}`
            : 'node internals';
    area.set(key, (area.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...area.values()].reduce((a, b) => a + b, 0);
  return [...area.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([frame, t]) => ({ share: t / total, frame }));
}

/** Total time (self + callees) of the functions named in PROFILE_INCLUSIVE (comma-separated), as shares of all samples. */
export function inclusive(profile: Profile, names: string[]): Array<{ share: number; frame: string }> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = new Map(names.map((n) => [n, 0]));
  let all = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    all += delta;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at)!.callFrame.functionName;
      if (totals.has(name) && !seen.has(name)) {
        seen.add(name);
        totals.set(name, totals.get(name)! + delta);
      }
    }
  });
  return [...totals].map(([frame, t]) => ({ share: t / all, frame }));
}

const fake = await startFakePlatform();
const profDir = await mkdtemp(join(tmpdir(), 'cs-cpuprof-'));
const pg = scaleOut ? await createPostgresDatabase() : null;
const { dataDir, key } = await seedBenchAccount({ credits: 2_000_000_000, ...(pg ? { databaseUrl: pg.url } : {}) });
try {
  // The sources, not the bundle npm start runs: the frames are attributed to areas by their file.
  const service = await startChild(
    'src/server.ts',
    benchServiceEnv(dataDir, fake.baseUrl, {
      CACHE_TTL_SECONDS: '3600',
      LOG_LEVEL: 'info',
      WORKER_CONCURRENCY: '20',
      NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profDir} ${process.env.PROFILE_NODE_OPTIONS ?? ''}`,
      ...(pg
        ? {
            DATABASE_URL: pg.url,
            ...(withRedis ? { REDIS_URL: REDIS_TEST_URL, REDIS_KEY_PREFIX: `profile-${process.pid}:` } : {}),
          }
        : {}),
    }),
    { logFile: join(dataDir, 'service.log') },
  );
  const body = JSON.stringify({ channelUrl: 'https://www.youtube.com/@fake-100' });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const warm = await fetch(`${service.url}/api/youtube/shorts`, { method: 'POST', headers, body });
  if (!warm.ok) throw new Error(`warm-up answered ${warm.status}: ${await warm.text()}`);
  await warm.arrayBuffer();
  // CPU time of the service process: robust against other load on a shared machine, unlike wall time.
  const cpuStart = cpuSeconds(service.process.pid!);
  const threadsStart = threadCpuSeconds(service.process.pid!);
  let summary: string;
  if (scenario === 'hot') {
    const result = await autocannon({
      url: `${service.url}/api/youtube/shorts`,
      method: 'POST',
      body,
      headers,
      connections: 50,
      duration: SECONDS,
      ...(RATE ? { overallRate: RATE } : {}),
    });
    summary = `${result.requests.average.toFixed(0)} req/s, p50/p99 ${result.latency.p50}/${result.latency.p99} ms, ${result.errors + result.non2xx} errors`;
  } else {
    // The same load as the async section of bench/run.ts.
    const receiver = await startReceiver();
    const started = performance.now();
    for (let i = 0; i < 1000; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          fetch(`${service.url}/api/youtube/shorts`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              channelUrl: `https://www.youtube.com/@fake-${((i + j) % 10) + 1}`,
              webhookUrl: receiver.url(`/h/${i + j}`),
            }),
          }).then((r) => r.arrayBuffer()),
        ),
      );
    }
    const accepted = performance.now() - started;
    await until(async () => new Set(receiver.deliveries.map((d) => d.headers['webhook-id'])).size >= 1000, 600_000, 50);
    summary = `1000 webhooks: accepted after ${accepted.toFixed(0)} ms, delivered after ${(performance.now() - started).toFixed(0)} ms`;
    await receiver.close();
  }
  summary += `; service CPU ${(cpuSeconds(service.process.pid!) - cpuStart).toFixed(2)} s`;
  // Which thread spent it: the --cpu-prof profile below covers the main thread only.
  const threads = [...threadCpuSeconds(service.process.pid!)]
    .map(([name, s]) => [name, s - (threadsStart.get(name) ?? 0)] as const)
    .filter(([, s]) => s >= 0.01)
    .sort((a, b) => b[1] - a[1]);
  summary += ` (${threads.map(([name, s]) => `${name} ${s.toFixed(2)}`).join(', ')})`;
  await service.kill('SIGTERM');
  const file = (await readdir(profDir)).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  const profile = JSON.parse(await readFile(join(profDir, file), 'utf8')) as Profile;
  console.log(`${scenario}, ${process.env.PROFILE_MODE ?? 'embedded'}: ${summary}; profile ${join(profDir, file)}`);
  console.log('by area (self time):');
  for (const { share, frame } of byArea(profile)) console.log(`${(share * 100).toFixed(1).padStart(5)} %  ${frame}`);
  if (process.env.PROFILE_INCLUSIVE) {
    console.log('inclusive time:');
    const names =
      process.env.PROFILE_INCLUSIVE === 'all'
        ? [...new Set(profile.nodes.map((n) => n.callFrame.functionName).filter((n) => n && !n.startsWith('(')))]
        : process.env.PROFILE_INCLUSIVE.split(',');
    for (const { share, frame } of inclusive(profile, names)
      .sort((a, b) => b.share - a.share)
      .slice(0, TOP))
      console.log(`${(share * 100).toFixed(1).padStart(5)} %  ${frame}`);
  }
  console.log('top frames (self time):');
  for (const { share, frame } of topFrames(profile, TOP))
    console.log(`${(share * 100).toFixed(1).padStart(5)} %  ${frame}`);
} finally {
  await fake.close();
  await rm(dataDir, { recursive: true, force: true });
  await pg?.drop();
}
