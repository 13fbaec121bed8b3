// Load for the WebSub probe (bench/websub-probe.ts), in a process of its own so that sending the
// bodies does not slow the benchmark process, which measures another account's latency meanwhile:
// POSTs of a 1 MiB Atom body to a WebSub callback URL, each on a new connection, timed from the
// request's start until the answer's status line (the refusal) arrives.
// Usage: node bench/websub-flood.ts <callback URL> <lanes> <requests per lane | duration in ms>ms
// e.g. `… 1 16` (16 one after another) or `… 16 4000ms` (16 at a time for 4 s).
// Prints one JSON line: { times (ms, in order of answer), statuses ({ status: count }), errors }.
import { request } from 'node:http';

const [target, lanesArg, amountArg] = process.argv.slice(2);
const url = new URL(target!);
const lanes = Number(lanesArg);
const until = amountArg!.endsWith('ms') ? performance.now() + Number(amountArg!.slice(0, -2)) : Infinity;
const perLane = amountArg!.endsWith('ms') ? Infinity : Number(amountArg);
const body = Buffer.from(`<feed>${'<entry></entry>'.repeat(Math.ceil(2 ** 20 / 15))}</feed>`.slice(0, 2 ** 20));

const times: number[] = [];
const statuses: Record<string, number> = {};
let errors = 0;

/** One POST: resolves with the status and the time to it (status 0: no answer, the connection failed first). */
function probe(): Promise<{ status: number; ms: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    let answered = false;
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/atom+xml',
          'content-length': String(body.length),
          'x-hub-signature': 'sha1=0000000000000000000000000000000000000000',
        },
      },
      (res) => {
        answered = true;
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - started });
        res.resume();
        res.on('end', () => req.destroy());
      },
    );
    // A server that answers before the body is read may close while it is still being sent.
    req.on('error', () => {
      if (!answered) resolve({ status: 0, ms: performance.now() - started });
    });
    req.end(body);
  });
}

async function lane(): Promise<void> {
  for (let sent = 0; sent < perLane && performance.now() < until; sent++) {
    const { status, ms } = await probe();
    if (status === 0) errors++;
    else times.push(ms);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
}

await Promise.all(Array.from({ length: lanes }, lane));
console.log(JSON.stringify({ times, statuses, errors }));
