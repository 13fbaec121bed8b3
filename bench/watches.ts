// The watches section of `npm run bench`: lag from a short published on the fake platform to
// its shorts.created webhook, with push (WebSub through the fake hub) and with polling, and the
// upstream units a watch spends per day at a 15-minute interval.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakePlatform, type FakePlatform } from '../src/fake-platform/server.ts';
import { openDatabase } from '../src/infra/db/open-database.ts';
import { createAccount } from '../src/domain/accounts/accounts.ts';
import { createApiKey } from '../src/domain/keys/api-keys.ts';
import { startChild, freePort, type ChildService } from '../support/child-service.ts';
import { startReceiver, until } from '../support/webhook-receiver.ts';
import { fileURLToPath } from 'node:url';
import { bareWebhookLoop } from './bench-service.ts';

type Report = (section: string, metric: string, value: string, target: string, verdict: string) => void;

const PUBLISHES = Number(process.env.BENCH_WATCH_PUBLISHES ?? 8);
const POLL_INTERVAL_S = 5;

async function service(
  fake: FakePlatform,
  extra: Record<string, string>,
  port?: number,
): Promise<{ service: ChildService; key: string; dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cs-bench-watches-'));
  const db = await openDatabase({ DATA_DIR: dataDir, DATABASE_POOL_SIZE: 1 }, { role: 'bench' });
  const account = await createAccount(db, {
    email: 'bench-watches@example.com',
    password: 'bench-password-123',
    credits: 1_000_000,
  });
  const { key } = await createApiKey(db, account.id, 'bench');
  await db.close();
  const env = {
    DATA_DIR: dataDir,
    YOUTUBE_API_KEY: 'fake-api-key',
    YOUTUBE_API_BASE_URL: fake.baseUrl,
    YOUTUBE_SOURCE: 'data-api',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    LOG_LEVEL: 'warn',
    WATCH_SWEEP_SECONDS: '1',
    ...extra,
  };
  return { service: await startChild('dist/server.mjs', env, port ? { port } : {}), key, dataDir };
}

async function createWatch(url: string, key: string, body: object): Promise<{ id: string }> {
  const res = await fetch(`${url}/api/youtube/watches`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`watch: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ id: string }>;
}

/** Publishes shorts one at a time (waiting `gapMs` before each) and returns each one's publish → webhook lag in ms. */
async function lags(
  fake: FakePlatform,
  handle: string,
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  gapMs: () => number,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < PUBLISHES; i++) {
    await new Promise((r) => setTimeout(r, gapMs()));
    const published = Date.now();
    const { videoId } = await fake.publishShort(handle);
    const delivery = await until(
      async () => receiver.deliveries.find((d) => d.body.includes(`"id":"${videoId}"`)),
      120_000,
      20,
    );
    out.push(delivery.receivedAt - published);
  }
  return out;
}

/** Median and max, each also as a multiple of `baseline` (ms) when given. */
const stats = (values: number[], baseline?: { ms: number; name: string }) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const against = baseline
    ? ` (${(at(0.5) / baseline.ms).toFixed(1)}× / ${(sorted.at(-1)! / baseline.ms).toFixed(1)}× ${baseline.name})`
    : '';
  return `median ${at(0.5).toFixed(0)}, max ${sorted.at(-1)!.toFixed(0)}${against}`;
};

export async function watchesBench(report: Report): Promise<void> {
  // Push: the service subscribes the channel at the fake hub; the schedule (1 h) stays out of the way.
  {
    const fake = await startFakePlatform();
    fake.addChannel({ handle: 'bench-push', shortsCount: 20 });
    const receiver = await startReceiver();
    const port = await freePort();
    const {
      service: svc,
      key,
      dataDir,
    } = await service(
      fake,
      {
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        WEBSUB_HUB_URL: `${fake.innertubeBaseUrl}/subscribe`,
        WEBSUB_TOPIC_BASE_URL: fake.innertubeBaseUrl,
      },
      port,
    );
    await createWatch(svc.url, key, {
      channelUrl: 'https://www.youtube.com/@bench-push',
      webhookUrl: receiver.url(),
      intervalSeconds: 3600,
    });
    await until(async () => fake.hub.subscriptions().length > 0, 30_000, 50);
    const pushed = await lags(fake, 'bench-push', receiver, () => 300);
    // Baseline: one signed POST of the same webhook body to the same receiver, from a bare loop
    // (bench/bare-webhooks.ts), one at a time: what any delivery costs on this machine.
    const sample = receiver.deliveries.at(-1)!.body;
    const bare = await bareWebhookLoop(receiver.url(''), 40, 1, sample);
    report(
      'watches',
      `push (WebSub): publish → shorts.created webhook, ${PUBLISHES} shorts (ms; one bare signed POST ${bare.medianMs.toFixed(1)})`,
      stats(pushed, { ms: bare.medianMs, name: 'bare POST' }),
      'seconds',
      pushed.every((ms) => ms < 10_000) ? 'ok' : 'slow',
    );
    await svc.kill('SIGTERM');
    await receiver.close();
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  // Polling only (no PUBLIC_BASE_URL): lag is up to one interval; the interval is 5 s here so the
  // run is short — at 15 minutes expect on average 7.5 minutes, at most 15.
  {
    const fake = await startFakePlatform();
    fake.addChannel({ handle: 'bench-poll', shortsCount: 20 });
    fake.addChannel({ handle: 'bench-quiet', shortsCount: 20 });
    const receiver = await startReceiver();
    const { service: svc, key, dataDir } = await service(fake, { WATCH_MIN_INTERVAL_SECONDS: String(POLL_INTERVAL_S) });
    const polling = await createWatch(svc.url, key, {
      channelUrl: 'https://www.youtube.com/@bench-poll',
      webhookUrl: receiver.url(),
      intervalSeconds: POLL_INTERVAL_S,
    });
    // Random publication times relative to the schedule.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const polled = await lags(fake, 'bench-poll', receiver, () => Math.floor(random() * POLL_INTERVAL_S * 1000));
    report(
      'watches',
      `polling every ${POLL_INTERVAL_S} s: publish → shorts.created webhook, ${PUBLISHES} shorts (ms)`,
      stats(polled, { ms: POLL_INTERVAL_S * 1000, name: 'interval' }),
      `≤ interval + ~1 s`,
      polled.every((ms) => ms <= (POLL_INTERVAL_S + 2) * 1000) ? 'ok' : 'slow',
    );

    // Units of a quiet watch: every check of a channel that publishes nothing, counted at the fake.
    fake.resetStats();
    const quiet = await createWatch(svc.url, key, {
      channelUrl: 'https://www.youtube.com/@bench-quiet',
      webhookUrl: receiver.url(),
      intervalSeconds: POLL_INTERVAL_S,
    });
    const createUnits = fake.quotaUsed();
    const checksOf = async () =>
      (
        (await (
          await fetch(`${svc.url}/api/youtube/watches/${quiet.id}`, { headers: { authorization: `Bearer ${key}` } })
        ).json()) as { watch: { stats: { checks: number; unitsSpent: number } } }
      ).watch.stats;
    const start = await checksOf();
    await until(async () => (await checksOf()).checks >= start.checks + 6, 120_000, 250);
    const end = await checksOf();
    const perCheck = (end.unitsSpent - start.unitsSpent) / (end.checks - start.checks);
    report(
      'watches',
      'units to create a watch (resolve + newest page)',
      String(createUnits),
      '2',
      createUnits === 2 ? 'ok' : 'check',
    );
    report(
      'watches',
      `units per check, nothing new (${end.checks - start.checks} checks)`,
      perCheck.toFixed(2),
      '1',
      perCheck === 1 ? 'ok' : 'check',
    );
    report(
      'watches',
      'units per watch per day at 15 min, quiet channel (96 checks)',
      (96 * perCheck).toFixed(0),
      '96',
      '',
    );
    const withNew = (await (
      await fetch(`${svc.url}/api/youtube/watches/${polling.id}?limit=100`, {
        headers: { authorization: `Bearer ${key}` },
      })
    ).json()) as { checks: Array<{ units: number; newShorts: number }> };
    const found = withNew.checks.filter((c) => c.newShorts > 0);
    const unitsWhenNew = found.reduce((s, c) => s + c.units, 0) / Math.max(1, found.length);
    report(
      'watches',
      `units per check that found new shorts (${found.length} checks)`,
      unitsWhenNew.toFixed(2),
      '2',
      unitsWhenNew === 2 ? 'ok' : 'check',
    );
    await svc.kill('SIGTERM');
    await receiver.close();
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

// `node bench/watches.ts` runs this section alone and prints its rows (without touching results.md).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await watchesBench((section, metric, value, target, verdict) =>
    console.log(`| ${section} | ${metric} | ${value} | ${target} | ${verdict} |`),
  );
}
