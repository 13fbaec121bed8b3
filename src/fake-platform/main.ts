// Runs the fake platform on its own, e.g. to point a locally started service at it:
// PORT (default 0 = any free port), HOST, FAKE_API_KEY (default fake-api-key), FAKE_LATENCY_MS,
// FAKE_GROWTH=0 to keep every short's counts still (views grow with the clock by default here).
import { startFakePlatform } from './server.ts';

const port = Number(process.env.PORT ?? 0);
const fake = await startFakePlatform({
  port,
  host: process.env.HOST || undefined,
  apiKey: process.env.FAKE_API_KEY || undefined,
  latencyMs: Number(process.env.FAKE_LATENCY_MS ?? 0),
  // Thumbnails drawn by the fake itself: the dashboard's gallery looks as meant with no network.
  localImages: true,
  growth: process.env.FAKE_GROWTH !== '0',
}).catch((error: NodeJS.ErrnoException) => {
  // One clear line instead of a stack trace.
  if (error.code === 'EADDRINUSE') {
    console.error(
      `Cannot listen on ${process.env.HOST || '127.0.0.1'}:${port}: the port is already in use. Stop the other ` +
        'process, or set PORT (0 picks a free port).',
    );
    process.exit(1);
  }
  throw error;
});
console.log(`fake Data API at ${fake.baseUrl}`);
console.log(`fake InnerTube at ${fake.innertubeBaseUrl}`);
console.log(
  `point a service at it: YOUTUBE_API_KEY=${process.env.FAKE_API_KEY || 'fake-api-key'} ` +
    `YOUTUBE_API_BASE_URL=${fake.baseUrl} YOUTUBE_INNERTUBE_BASE_URL=${fake.innertubeBaseUrl} ` +
    'WEBHOOK_ALLOW_PRIVATE_TARGETS=true npm start',
);
console.log(`fake WebSub hub at ${fake.hub.hubUrl()} (WEBSUB_HUB_URL; WEBSUB_TOPIC_BASE_URL=${fake.innertubeBaseUrl})`);
console.log(`publish a short now: curl -X POST ${fake.innertubeBaseUrl}/__admin/channels/demo/shorts`);
console.log(
  `take one down / restore it: curl -X DELETE ${fake.innertubeBaseUrl}/__admin/channels/demo/shorts/<videoId>; ` +
    `curl -X POST ${fake.innertubeBaseUrl}/__admin/channels/demo/shorts/<videoId>/restore`,
);
console.log(
  `set a short's counts: curl -X POST ${fake.innertubeBaseUrl}/__admin/channels/demo/shorts/<videoId>/statistics ` +
    `-d '{"viewCount":"1000000"}'`,
);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void fake.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
