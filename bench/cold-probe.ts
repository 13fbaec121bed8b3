// The cold path's overhead, request by request: a service (dist/server.mjs, or PROBE_SCRIPT) on a
// fake platform answering after PROBE_LATENCY ms (default 50, as `npm run bench`; 0 leaves only the
// service's own work), one warm-up read of a 500-short channel, then PROBE_RUNS (default 12) reads of
// new 50-short channels one after another. Prints each wall time and the median without the first,
// which still pays for code paths the warm-up did not take (bench/reading.md, the round on memory handed back to the system).
// PROBE_TIMELINE=1 also prints each read's timeline: the gaps between the request, each upstream
// call's arrival at the fake platform (>) and its answer (<), the response's head and its body
// (Node's http.server diagnostics channels, in this process, where the fake runs): a gap that
// ends with > or head is the service's own work, one that ends with < the fake's.
// Run: node bench/cold-probe.ts
import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { rm } from 'node:fs/promises';
import { startFakePlatform } from '../src/fake-platform/server.ts';
import { startChild, type ServiceScript } from '../support/child-service.ts';
import { benchServiceEnv, seedBenchAccount } from './bench-service.ts';

const LATENCY = Number(process.env.PROBE_LATENCY ?? 50);
const RUNS = Number(process.env.PROBE_RUNS ?? 12);
const TIMELINE = process.env.PROBE_TIMELINE === '1';
/** The fake platform's requests, as [time, '> name' | '< name'] (PROBE_TIMELINE). */
let events: Array<[number, string]> = [];
if (TIMELINE) {
  const call = (request: IncomingMessage) => (request.url ?? '').split('?')[0]!.split('/').at(-1);
  diagnostics.subscribe('http.server.request.start', (m) =>
    events.push([performance.now(), `> ${call((m as { request: IncomingMessage }).request)}`]),
  );
  diagnostics.subscribe('http.server.response.finish', (m) =>
    events.push([performance.now(), `< ${call((m as { request: IncomingMessage }).request)}`]),
  );
}
const fake = await startFakePlatform({ latencyMs: LATENCY });
const { dataDir, key } = await seedBenchAccount({ credits: 2_000_000_000 });
const service = await startChild(
  (process.env.PROBE_SCRIPT ?? 'dist/server.mjs') as ServiceScript,
  benchServiceEnv(dataDir, fake.baseUrl, { CACHE_TTL_SECONDS: '0' }),
);
try {
  const read = async (handle: string, shortsCount: number) => {
    const channelUrl = `https://www.youtube.com/@${fake.addChannel({ handle, shortsCount }).handle}`;
    events = [];
    const started = performance.now();
    const res = await fetch(`${service.url}/api/youtube/shorts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channelUrl }),
    });
    const head = performance.now();
    const body = (await res.json()) as { itemCount?: number };
    if (body.itemCount !== shortsCount)
      throw new Error(`expected ${shortsCount} shorts: ${JSON.stringify(body).slice(0, 200)}`);
    const ended = performance.now();
    if (TIMELINE && shortsCount === 50) {
      let last = started;
      const gaps: string[] = [];
      for (const [at, what] of [...events, [head, 'head'], [ended, 'body']] as Array<[number, string]>) {
        gaps.push(`${(at - last).toFixed(1)} ${what}`);
        last = at;
      }
      console.log(`${gaps.join(' | ')} = ${(ended - started).toFixed(1)} ms`);
    }
    return ended - started;
  };
  await read('coldprobewarmup', 500);
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) times.push(await read(`coldprobe${run}`, 50));
  const rest = times.slice(1).sort((a, b) => a - b);
  console.log(`latency ${LATENCY} ms, 3 upstream calls: ${times.map((t) => t.toFixed(1)).join(' ')}`);
  console.log(
    `first ${times[0]!.toFixed(1)} ms, median of the rest ${rest[Math.floor(rest.length / 2)]!.toFixed(1)} ms (bound ${3 * LATENCY} ms)`,
  );
} finally {
  await service.kill('SIGTERM');
  await fake.close();
  await rm(dataDir, { recursive: true, force: true });
}
