// The comparison point for webhook delivery: a bare loop, in a process of its own as the service's
// worker is, that signs and POSTs a body COUNT times, CONCURRENCY at a time, to the same receiver the
// service delivers to (the same signing code and HTTP client as src/domain/webhooks/deliver-once.ts,
// without queue, database or upstream). What the service takes beyond this is its own work; what
// this takes is the machine, the client and the receiver, so the ratio of the two carries across
// machines where either time alone does not.
// Usage: node bench/bare-webhooks.ts <receiver base URL> <count> <concurrency> <body file>
// Prints one JSON line: { elapsedMs, medianMs, cpuMs } (the whole loop; one POST's median round trip;
// the loop's own CPU time, which other work on the machine moves far less than its wall time).
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { signPayload } from '../src/domain/webhooks/signing.ts';

const [base, countArg, concurrencyArg, bodyFile] = process.argv.slice(2);
const count = Number(countArg);
const concurrency = Number(concurrencyArg);
const body = readFileSync(bodyFile!, 'utf8');
const secret = `whsec_${Buffer.from('bench-bare-webhook-secret-32byte').toString('base64')}`;

const latencies: number[] = [];
let next = 0;
async function lane(): Promise<void> {
  while (next < count) {
    const index = next++;
    const started = performance.now();
    const id = `msg_bare_${index}`;
    const timestamp = new Date();
    const response = await request(`${base}/h/${index}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'channel-shorts-webhooks/1.0',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signPayload([secret], id, timestamp, body),
      },
      body,
    });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`the receiver answered ${response.statusCode}`);
    latencies.push(performance.now() - started);
  }
}

const started = performance.now();
const cpuBefore = process.cpuUsage();
await Promise.all(Array.from({ length: concurrency }, lane));
const elapsedMs = performance.now() - started;
latencies.sort((a, b) => a - b);
const { user, system } = process.cpuUsage(cpuBefore);
console.log(
  JSON.stringify({
    elapsedMs,
    medianMs: latencies[Math.floor(latencies.length / 2)] ?? 0,
    cpuMs: (user + system) / 1000,
  }),
);
