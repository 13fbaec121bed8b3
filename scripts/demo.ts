// npm run demo: the service against the bundled fake YouTube platform, with a demo user and key,
// so the API can be tried without a Google API key. Data lives in ./data-demo (deleted on start).
import { rm } from 'node:fs/promises';
import closeWithGrace from 'close-with-grace';
import { startFakePlatform } from '../src/fake-platform/server.ts';
import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/services.ts';
import { buildApp } from '../src/app.ts';
import { fastifyOptions, LOG_REDACT } from '../src/http/logging.ts';
import { createAccount } from '../src/domain/accounts/accounts.ts';
import { createApiKey } from '../src/domain/keys/api-keys.ts';

const DEMO_EMAIL = 'demo@example.com';
const DEMO_PASSWORD = 'demo-password-123';

// --source data-api|hybrid|innertube|auto (default auto: hybrid, as with a real key).
const sourceArg = process.argv.indexOf('--source');
const source = sourceArg > 0 ? process.argv[sourceArg + 1] : undefined;
if (source !== undefined && !['auto', 'data-api', 'hybrid', 'innertube'].includes(source)) {
  console.error(`--source must be one of auto, data-api, hybrid, innertube (got ${source})`);
  process.exit(2);
}
const fake = await startFakePlatform({ latencyMs: 30 });
const dataDir = process.env.DATA_DIR ?? './data-demo';
await rm(dataDir, { recursive: true, force: true });
const config = loadConfig({ PORT: '3000', ...process.env, DATA_DIR: dataDir, YOUTUBE_API_KEY: source === 'innertube' ? '' : 'fake-api-key', YOUTUBE_API_BASE_URL: fake.baseUrl, YOUTUBE_INNERTUBE_BASE_URL: fake.innertubeBaseUrl, ...(source ? { YOUTUBE_SOURCE: source } : {}), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
const app = await buildApp(
  await createServices(config, { runWorker: true, log: { error: (o, m) => app.log.error(o, m), info: (o, m) => app.log.info(o, m) } }),
  fastifyOptions({ level: 'warn', redact: LOG_REDACT }),
);
const account = await createAccount(app.services.db, { email: DEMO_EMAIL, password: DEMO_PASSWORD, credits: 1000 });
const { key } = await createApiKey(app.services.db, account.id, 'demo key');
const address = await app.listen({ port: config.PORT, host: config.HOST });
closeWithGrace({ delay: 10_000 }, async () => {
  await app.close();
  await app.services.close();
  await fake.close();
});

console.log(`
channel-shorts demo is running at ${address}
  source: ${app.services.source}   (npm run demo -- --source data-api|hybrid|innertube)
  fake YouTube Data API: ${fake.baseUrl}  (channels: @demo 120 shorts, @sparse, @empty, @democustom, and @fake-<N> for any N)
  fake InnerTube:        ${fake.innertubeBaseUrl}
  dashboard: ${address}/dashboard/   (log in as ${DEMO_EMAIL} / ${DEMO_PASSWORD})
  API docs:  ${address}/docs

Try it:
  curl -s -X POST ${address}/api/youtube/shorts \\
    -H "Authorization: Bearer ${key}" \\
    -H "Content-Type: application/json" \\
    -d '{"channelUrl":"https://www.youtube.com/@demo"}'

Press Ctrl+C to stop.
`);
