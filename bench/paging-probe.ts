// What a stored result's pages cost, against a bare call of the same run: the first and the last page
// (100 shorts) of a stored 5,000-short result, and GET …/items of another account's request id against
// an unknown id (the same answer, 404, must take the same time: no existence oracle). The service
// (dist/server.mjs, or PROBE_SCRIPT) runs on the embedded database; the baseline is GET /accounts (a
// normal authenticated read) of the same account in the same rounds. Prints the median of
// PROBE_RUNS (default 40) rounds, each call measured one at a time, in a new order each round.
// Run alone (node bench/paging-probe.ts) or as the `paging` section of `npm run bench`.
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { startFakePlatform } from '../src/fake-platform/server.ts';
import { startChild, type ServiceScript } from '../support/child-service.ts';
import { benchServiceEnv, seedBenchAccount } from './bench-service.ts';
import { createAccount } from '../src/domain/accounts/accounts.ts';
import { createApiKey } from '../src/domain/keys/api-keys.ts';
import { encodeCursor } from '../src/domain/requests/stored-results.ts';

const RUNS = Number(process.env.PROBE_RUNS ?? 40);
const SHORTS = 5000;
const PAGE = 100;

type Report = (section: string, metric: string, value: string, target: string, verdict: string) => void;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

export async function pagingBench(report: Report): Promise<void> {
  const fake = await startFakePlatform({ latencyMs: 0 });
  const handle = fake.addChannel({ handle: 'paging-probe', shortsCount: SHORTS }).handle;
  let otherKey = '';
  const { dataDir, key } = await seedBenchAccount({
    credits: 2_000_000_000,
    prepare: async (db) => {
      const other = await createAccount(db, { email: 'other@example.com', password: 'bench-password-123' });
      otherKey = (await createApiKey(db, other.id, 'bench')).key;
    },
  });
  const service = await startChild(
    (process.env.PROBE_SCRIPT ?? 'dist/server.mjs') as ServiceScript,
    benchServiceEnv(dataDir, fake.baseUrl, { CACHE_TTL_SECONDS: '0', MAX_SHORTS_PER_REQUEST: String(SHORTS) }),
  );

  async function timed(path: string, credential: string, expect: number): Promise<number> {
    const started = performance.now();
    const res = await fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${credential}` } });
    await res.arrayBuffer();
    const ms = performance.now() - started;
    if (res.status !== expect) throw new Error(`${path}: ${res.status}, expected ${expect}`);
    return ms;
  }

  try {
    const stored = await fetch(`${service.url}/api/youtube/shorts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channelUrl: `https://www.youtube.com/@${handle}`, store: true }),
    });
    const { requestId, itemCount } = (await stored.json()) as { requestId: string; itemCount: number };
    if (itemCount !== SHORTS) throw new Error(`expected ${SHORTS} shorts, got ${itemCount}`);
    const items = `/api/youtube/shorts/${requestId}/items?pageSize=${PAGE}`;
    const calls: Record<string, () => Promise<number>> = {
      'GET /accounts (baseline)': () => timed('/accounts', key, 200),
      'first page': () => timed(items, key, 200),
      'last page': () => timed(`${items}&cursor=${encodeCursor(requestId, SHORTS - PAGE)}`, key, 200),
      "another account's id": () => timed(items, otherKey, 404),
      'unknown id': () => timed(`/api/youtube/shorts/req_${'0'.repeat(20)}/items?pageSize=${PAGE}`, otherKey, 404),
    };
    for (const call of Object.values(calls)) await call(); // warm-up
    const times = Object.fromEntries(Object.keys(calls).map((name) => [name, [] as number[]]));
    // Each round in another order: a call never always follows the same one (and its garbage).
    for (let round = 0; round < RUNS; round++) {
      const order = Object.entries(calls).sort(() => Math.random() - 0.5);
      for (const [name, call] of order) times[name]!.push(await call());
    }
    const ms = (name: string) => median(times[name]!);
    const baseline = ms('GET /accounts (baseline)');
    const times100 = (name: string) =>
      `${ms(name).toFixed(1)} ms (${(ms(name) / baseline).toFixed(2)}× GET /accounts ${baseline.toFixed(1)} ms)`;
    const lastFirst = ms('last page') / ms('first page');
    const otherUnknown = ms("another account's id") / ms('unknown id');
    report(
      'paging',
      `first page of a stored ${SHORTS}-short result (${PAGE} shorts), median of ${RUNS}`,
      times100('first page'),
      'info',
      '',
    );
    report('paging', 'last page of it', times100('last page'), 'info', '');
    report(
      'paging',
      'last page ÷ first page',
      `${lastFirst.toFixed(2)}×`,
      '≈ 1 (≤ 1.5)',
      lastFirst <= 1.5 ? 'met' : 'NOT met',
    );
    report(
      'paging',
      `another account's request id ÷ an unknown id (both 404: ${ms("another account's id").toFixed(1)} vs ${ms('unknown id').toFixed(1)} ms)`,
      `${otherUnknown.toFixed(2)}×`,
      '≈ 1 (≤ 1.5)',
      otherUnknown <= 1.5 ? 'met' : 'NOT met',
    );
  } finally {
    await service.kill();
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await pagingBench((section, metric, value, target, verdict) =>
    console.log(`| ${section} | ${metric} | ${value} | ${target} | ${verdict} |`),
  );
}
