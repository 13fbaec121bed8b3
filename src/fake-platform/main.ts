// Runs the fake platform on its own, e.g. to point a locally started service at it:
// PORT (default 0 = any free port), HOST, FAKE_API_KEY (default fake-api-key), FAKE_LATENCY_MS.
import { startFakePlatform } from './server.ts';

const fake = await startFakePlatform({
  port: Number(process.env.PORT ?? 0),
  host: process.env.HOST || undefined,
  apiKey: process.env.FAKE_API_KEY || undefined,
  latencyMs: Number(process.env.FAKE_LATENCY_MS ?? 0),
});
console.log(`fake Data API at ${fake.baseUrl}`);
console.log(`fake InnerTube at ${fake.innertubeBaseUrl}`);
console.log(`fake WebSub hub at ${fake.hub.hubUrl()} (WEBSUB_HUB_URL; WEBSUB_TOPIC_BASE_URL=${fake.innertubeBaseUrl})`);
console.log(`publish a short now: curl -X POST ${fake.innertubeBaseUrl}/__admin/channels/demo/shorts`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void fake.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
