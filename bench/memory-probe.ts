// A smaller memory benchmark than `npm run bench`: starts the service (dist/server.mjs, as npm start does) as a child on an
// EMPTY data directory, signs up through the API (SIGNUP=open, so nothing else opens the directory),
// creates a key, serves the 3,000-short channel to 20 clients (200 requests), waits idle, then restarts
// the service on the now existing directory. Reads VmHWM (peak) and VmRSS (now) from /proc.
// Usage: node bench/memory-probe.ts [node flags for the service, instead of npm start's…]; PROBE_ENV='{"K":"V"}' adds env.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startFakePlatform } from '../src/fake-platform/server.ts';
import { SERVICE_NODE_FLAGS, startChild } from '../support/child-service.ts';
import { benchServiceEnv } from './bench-service.ts';
import { residentMemory } from './process-stats.ts';

const MiB = 2 ** 20;

export interface MemoryFigures {
  /** Peak RSS from process start on an empty directory until it answers /healthz. */
  freshStartPeak: number;
  /** RSS right after that start. */
  freshStartRss: number;
  /** Peak RSS over the whole first life: empty directory, sign-up, 200 × 3,000 shorts to 20 clients. */
  servePeak: number;
  /** RSS after `idleSeconds` without requests. */
  idleRss: number;
  /** Peak RSS of a restart on the existing directory, until /healthz answers. */
  restartPeak: number;
  restartRss: number;
  errors: number;
  startMs: number;
  /** InnerTube calls the fake platform answered (0 unless the source uses InnerTube). */
  innertubeCalls: number;
}

export async function measureMemory(
  options: { env?: Record<string, string>; nodeFlags?: string[]; idleSeconds?: number; log?: (s: string) => void } = {},
): Promise<MemoryFigures> {
  const log = options.log ?? (() => {});
  const fake = await startFakePlatform();
  const dataDir = await mkdtemp(join(tmpdir(), 'cs-mem-'));
  const env = benchServiceEnv(join(dataDir, 'data'), fake.baseUrl, {
    CACHE_TTL_SECONDS: '3600',
    SIGNUP: 'open',
    SIGNUP_CREDITS: '2000000000',
    ...options.env,
  });
  // By default the flags `npm start` runs the service with.
  const nodeFlags = options.nodeFlags ?? SERVICE_NODE_FLAGS;
  const start = () => startChild('dist/server.mjs', env, { nodeFlags });
  try {
    const t0 = performance.now();
    const first = await start();
    const startMs = performance.now() - t0;
    const pid = first.process.pid!;
    const atStart = residentMemory(pid);
    log(
      `fresh start: ${startMs.toFixed(0)} ms, peak ${(atStart.peak / MiB).toFixed(0)} MiB, rss ${(atStart.now / MiB).toFixed(0)} MiB`,
    );
    const json = { 'content-type': 'application/json' };
    const signup = await fetch(`${first.url}/signup`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password-123' }),
    });
    if (signup.status !== 201) throw new Error(`signup ${signup.status}: ${await signup.text()}`);
    const { token } = (await signup.json()) as { token: string };
    const created = await fetch(`${first.url}/keys`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'bench' }),
    });
    if (created.status !== 201) throw new Error(`key ${created.status}: ${await created.text()}`);
    const { key } = (await created.json()) as { key: string };
    const result = await autocannon({
      url: `${first.url}/api/youtube/shorts`,
      method: 'POST',
      body: JSON.stringify({ channelUrl: 'https://www.youtube.com/@fake-3000' }),
      headers: { ...json, authorization: `Bearer ${key}` },
      connections: 20,
      amount: 200,
    });
    const served = residentMemory(pid);
    log(
      `served 200 × 3,000 shorts to 20 clients: peak ${(served.peak / MiB).toFixed(0)} MiB, rss ${(served.now / MiB).toFixed(0)} MiB, ${result.errors + result.non2xx} errors`,
    );
    await new Promise((r) => setTimeout(r, (options.idleSeconds ?? 10) * 1000));
    const idle = residentMemory(pid);
    log(`idle ${options.idleSeconds ?? 10} s: rss ${(idle.now / MiB).toFixed(0)} MiB`);
    await first.kill('SIGTERM');
    const second = await start();
    const restart = residentMemory(second.process.pid!);
    log(
      `restart on the existing directory: peak ${(restart.peak / MiB).toFixed(0)} MiB, rss ${(restart.now / MiB).toFixed(0)} MiB`,
    );
    await second.kill('SIGTERM');
    return {
      freshStartPeak: atStart.peak,
      freshStartRss: atStart.now,
      servePeak: served.peak,
      idleRss: idle.now,
      restartPeak: restart.peak,
      restartRss: restart.now,
      errors: result.errors + result.non2xx,
      startMs,
      innertubeCalls: fake.innertubeCalls().length,
    };
  } finally {
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const env = process.env.PROBE_ENV ? (JSON.parse(process.env.PROBE_ENV) as Record<string, string>) : {};
  const figures = await measureMemory({
    env,
    ...(process.argv.length > 2 ? { nodeFlags: process.argv.slice(2) } : {}),
    log: console.log,
    idleSeconds: Number(process.env.PROBE_IDLE_SECONDS ?? 10),
  });
  console.log(
    JSON.stringify(
      Object.fromEntries(
        Object.entries(figures).map(([k, v]) => [
          k,
          k === 'errors' || k === 'startMs' || k === 'innertubeCalls' ? Math.round(v) : Math.round(v / MiB),
        ]),
      ),
    ),
  );
}
