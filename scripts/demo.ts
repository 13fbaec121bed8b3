// npm run demo: the service against the bundled fake YouTube platform, with a demo user and key,
// so the API can be tried without a Google API key. Data lives in ./data-demo (deleted on start).
// It also runs a webhook receiver that prints what it gets, and sets an OPERATOR_TOKEN, so every
// command of README's walk-through works against it as printed.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import closeWithGrace from 'close-with-grace';
import { startFakePlatform } from '../src/fake-platform/server.ts';
import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/services.ts';
import { buildApp } from '../src/app.ts';
import { fastifyOptions, LOG_REDACT } from '../src/http/logging.ts';
import { createAccount } from '../src/domain/accounts/accounts.ts';
import { createApiKey } from '../src/domain/keys/api-keys.ts';
import { describeHolder, holderIsDead, readLockHolder } from '../src/infra/db/data-dir-lock.ts';

const DEMO_EMAIL = 'demo@example.com';
const DEMO_PASSWORD = 'demo-password-123';

// --source data-api|hybrid|innertube|auto (default auto: hybrid, as with a real key).
const sourceArg = process.argv.indexOf('--source');
const source = sourceArg > 0 ? process.argv[sourceArg + 1] : undefined;
if (source !== undefined && !['auto', 'data-api', 'hybrid', 'innertube'].includes(source)) {
  console.error(`--source must be one of auto, data-api, hybrid, innertube (got ${source})`);
  process.exit(2);
}
/** One clear line and exit 1: the usual first-run problems are not worth a stack trace. */
function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const dataDir = process.env.DATA_DIR ?? './data-demo';
// The data directory is wiped on start: never under a demo (or service) that is still running on it,
// and never one the demo did not make: a shell holding a service's environment (README has
// operators source it for the CLI) would otherwise wipe that service's data.
const holder = readLockHolder(dataDir);
if (holder && !holderIsDead(holder))
  fail(
    `${dataDir} is in use by ${describeHolder(holder)}: is a demo already running? Stop it first (Ctrl+C), or set DATA_DIR.`,
  );
const DEMO_MARKER = join(dataDir, '.channel-shorts-demo');
// ./data-demo (DATA_DIR unset) is the demo's own, also when an older demo left it without the marker.
if (process.env.DATA_DIR && existsSync(join(dataDir, 'PG_VERSION')) && !existsSync(DEMO_MARKER)) {
  fail(
    `${dataDir} holds a database the demo did not create, and the demo wipes its directory at start. Run it with another DATA_DIR (unset, it uses ./data-demo).`,
  );
}
// The CLI reaches the demo through its operator API with this token (README, walk-through step 1).
const operatorToken = process.env.OPERATOR_TOKEN || randomBytes(32).toString('base64url');
// Views grow with the clock, so the statistics pages show movement.
const fake = await startFakePlatform({ latencyMs: 30, localImages: true, growth: true });
const receiver = await startDemoReceiver();
await rm(dataDir, { recursive: true, force: true });
// Marked as the demo's before anything is written there: a start that fails later (a port in use)
// leaves a directory the next start may wipe, rather than one it refuses as not its own.
await mkdir(dataDir, { recursive: true });
await writeFile(DEMO_MARKER, 'Made by npm run demo, which wipes this directory at its next start.\n');
// The demo's own storage only: a DATABASE_URL or REDIS_URL of the shell's (a real service's) is not the demo's to use.
const config = loadConfig({
  PORT: '3000',
  ...process.env,
  DATABASE_URL: '',
  REDIS_URL: '',
  OPERATOR_TOKEN: operatorToken,
  DATA_DIR: dataDir,
  YOUTUBE_API_KEY: source === 'innertube' ? '' : 'fake-api-key',
  YOUTUBE_API_BASE_URL: fake.baseUrl,
  YOUTUBE_INNERTUBE_BASE_URL: fake.innertubeBaseUrl,
  ...(source ? { YOUTUBE_SOURCE: source } : {}),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
});
const app = await buildApp(
  await createServices(config, {
    runWorker: true,
    log: { error: (o, m) => app.log.error(o, m), info: (o, m) => app.log.info(o, m) },
  }),
  fastifyOptions({ level: 'warn', redact: LOG_REDACT }),
);
const account = await createAccount(app.services.db, { email: DEMO_EMAIL, password: DEMO_PASSWORD, credits: 1000 });
const { key } = await createApiKey(app.services.db, account.id, 'demo key');
const address = await app
  .listen({ port: config.PORT, host: config.HOST })
  .catch(async (error: NodeJS.ErrnoException) => {
    await app.services.close();
    await fake.close();
    receiver.close();
    if (error.code === 'EADDRINUSE')
      fail(
        `Cannot listen on ${config.HOST}:${config.PORT}: the port is already in use (another demo, or npm start?). Stop it, or run PORT=3001 npm run demo.`,
      );
    throw error;
  });
// The CLI finds the running demo in the lock file, as it finds a service.
app.services.db.dataDirLock?.setUrl(address);
closeWithGrace({ delay: 10_000 }, async () => {
  await app.close();
  await app.services.close();
  await fake.close();
  receiver.close();
});

console.log(`
channel-shorts demo is running at ${address}
  source: ${app.services.source}   (npm run demo -- --source data-api|hybrid|innertube)
  fake YouTube Data API: ${fake.baseUrl}  (channels: @demo 120 shorts, @sparse, @empty, @democustom, and @fake-<N> for any N)
  fake InnerTube:        ${fake.innertubeBaseUrl}
  dashboard: ${address}/dashboard/   (log in as ${DEMO_EMAIL} / ${DEMO_PASSWORD})
  API docs:  ${address}/docs
  webhook receiver: ${receiver.url}   (prints each delivery here)

For README's walk-through and the operator CLI, in another terminal:
  export BASE=${address} DATA_DIR=${dataDir} OPERATOR_TOKEN=${operatorToken} WEBHOOK_URL=${receiver.url}

Try it:
  curl -s -X POST ${address}/api/youtube/shorts \\
    -H "Authorization: Bearer ${key}" \\
    -H "Content-Type: application/json" \\
    -d '{"channelUrl":"https://www.youtube.com/@demo"}'

Press Ctrl+C to stop.
`);

/** A webhook receiver on a free port that answers 204 and prints one line per delivery. */
async function startDemoReceiver(): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let summary = `${Buffer.concat(chunks).length} bytes`;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          type?: string;
          data?: { requestId?: string; itemCount?: number };
        };
        summary = `${body.type ?? '?'} ${body.data?.requestId ?? ''}${body.data?.itemCount !== undefined ? ` (${body.data.itemCount} shorts)` : ''}`;
      } catch {
        // not JSON: the size says enough
      }
      console.log(
        `webhook received: ${summary}, webhook-id ${req.headers['webhook-id'] ?? '-'}, signed ${req.headers['webhook-signature'] ? 'yes' : 'no'}`,
      );
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/shorts`,
    close: () => server.close(),
  };
}
