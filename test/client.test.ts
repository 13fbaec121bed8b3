// The typed TypeScript client (clients/typescript), driving the real service over HTTP with the fake platform.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createUser, bearer, clearOfWindowEnd, clearOfQuotaDayEnd } from './helpers/test-app.ts';
import { useHarness } from './helpers/harness.ts';
import { startReceiver, until } from '../support/webhook-receiver.ts';
import { CLIENT_TYPES_PATH, renderClientTypes, serviceOpenApiDocument } from '../scripts/generate-client-types.ts';
import {
  ChannelShortsClient,
  ChannelShortsError,
  parseRetryAfter,
  verifyWebhook,
  WebhookVerificationError,
  type Short,
} from '../clients/typescript/src/index.ts';

describe('typed client: generated types', () => {
  it('clients/typescript/src/openapi.ts is what openapi-typescript makes of the current /openapi.json (npm run client:types)', async () => {
    const doc = await serviceOpenApiDocument();
    const schemas = Object.keys((doc.components as { schemas: Record<string, unknown> }).schemas);
    for (const name of [
      'Channel',
      'Short',
      'RequestLogEntry',
      'DeliveryAttempt',
      'DeliveryLogEntry',
      'RejectionDay',
      'BatchItem',
      'BatchItemStatus',
    ])
      assert.ok(schemas.includes(name), `named component ${name}`);
    assert.equal(await readFile(CLIENT_TYPES_PATH, 'utf8'), await renderClientTypes(doc));
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    assert.equal(parseRetryAfter('7'), 7);
    assert.equal(parseRetryAfter(new Date(Date.UTC(2026, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2026, 0, 1)), 30);
    assert.equal(parseRetryAfter(null), undefined);
    assert.equal(parseRetryAfter('soon'), undefined);
  });
});

describe('typed client against the real service', () => {
  const t = useHarness(() => {
    // Three calls a day per account: the fourth meets a 429 whose Retry-After runs to midnight UTC.
    // The per-day limit counts in the UTC day, and a spent platform quota is retried after the quota
    // day (midnight in Los Angeles): the service's clock keeps two minutes clear of both ends.
    // (UTC midnight and Los Angeles midnight are hours apart: at most one of the two moves it.)
    const skew = clearOfWindowEnd(Date.now(), 86_400, 120_000) + clearOfQuotaDayEnd(Date.now(), 120_000);
    return {
      env: { RATE_LIMIT_PER_DAY: '3', WEBHOOK_RETRY_SCHEDULE: '0.3', CACHE_TTL_SECONDS: '0' },
      runWorker: true,
      now: () => Date.now() + skew,
      listen: true,
    };
  });
  let baseUrl: string;
  before(() => {
    baseUrl = t.url;
  });

  it('lists shorts with typed results and turns failures into ChannelShortsError', async () => {
    const user = await createUser(t, 4);
    const client = new ChannelShortsClient({ baseUrl: `${baseUrl}/`, apiKey: user.key });
    // The price and timings as configured (WEBHOOK_RETRY_SCHEDULE=0.3 above), read from the server.
    const pricing = await client.getPricing();
    assert.deepEqual(pricing.webhooks.retryScheduleSeconds, [0.3]);
    assert.equal(pricing.credits.shortsPerBlock, t.config.SHORTS_PER_CREDIT_BLOCK);
    const result = await client.listShorts({
      channelUrl: 'https://www.youtube.com/@demo',
      sort: 'popular',
      limit: 3,
      maxDurationSeconds: 180,
    });
    assert.equal(result.success, true);
    assert.equal(result.itemCount, 3);
    const views = result.data.shorts.map((s: Short) => Number(s.statistics.viewCount));
    assert.deepEqual(
      views,
      [...views].sort((a, b) => b - a),
    );
    assert.ok(
      result.data.shorts.every(
        (s) => typeof s.durationSeconds === 'number' && s.contentDetails?.duration.startsWith('P'),
      ),
    );
    const error = await client.listShorts({ channelUrl: 'https://www.youtube.com/@demo' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof ChannelShortsError);
    assert.equal(error.status, 402);
    assert.equal(error.code, 'INSUFFICIENT_CREDITS');
    assert.match(error.message, /120 shorts; reading all of them costs 3 credits; 1 available/);
    assert.match(error.requestId ?? '', /^req_/);
    // The requests log, filtered and paged: the key that made each request, no delivery for a sync one.
    const [listed] = await client.listRequests(1);
    assert.equal(listed?.apiKey?.id, user.keyId);
    assert.equal(listed?.delivery, null);
    const failed = await client.listRequestsPage({ status: 'failed', limit: 1 });
    assert.equal(failed.requests[0]?.error, 'INSUFFICIENT_CREDITS');
    assert.equal(failed.nextCursor, null);
    const completed = await client.listRequestsPage({ status: 'completed', mode: 'sync' });
    assert.equal(completed.requests.length, 1);
  });

  it("reads a Short's series and a channel's movers with videoStats() and channelStats()", async () => {
    const user = await createUser(t, 10);
    const client = new ChannelShortsClient({ baseUrl, apiKey: user.key });
    const result = await client.listShorts({ channelUrl: 'https://www.youtube.com/@sparse', limit: 2 });
    const videoId = result.data.shorts[0]!.id;
    const series = await client.videoStats(videoId, { from: new Date(0) });
    assert.equal(series.videoId, videoId);
    assert.equal(series.channelId, result.data.channel.id);
    assert.ok(series.points.length >= 1);
    const movers = await client.channelStats(result.data.channel.id, { window: '7d', limit: 5 });
    assert.equal(movers.window, '7d');
    assert.ok(movers.movers.some((m) => m.videoId === videoId));
    const missing = await client.videoStats('AAAAAAAAAAA').then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(missing instanceof ChannelShortsError);
    assert.equal(missing.code, 'VIDEO_NOT_TRACKED');
  });

  it('retries 429 as often as allowed, waiting what Retry-After says, and does not wait beyond its bound', async () => {
    const user = await createUser(t, 100);
    const seen: number[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      seen.push(response.status === 429 ? Number(response.headers.get('retry-after')) : 0);
      return response;
    };
    const slept: number[] = [];
    const client = new ChannelShortsClient({
      baseUrl,
      apiKey: user.key,
      fetch: recordingFetch,
      maxRetries: 2,
      maxRetryDelayMs: 2 * 86_400_000,
      sleep: async (ms) => void slept.push(ms),
    });
    const sparse = { channelUrl: 'https://www.youtube.com/@sparse' };
    for (let i = 0; i < 3; i++) await client.listShorts(sparse);
    const error = await client.listShorts(sparse).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof ChannelShortsError);
    assert.equal(error.status, 429);
    assert.equal(error.code, 'RATE_LIMITED');
    assert.deepEqual(seen.slice(0, 3), [0, 0, 0]);
    const retryAfters = seen.slice(3);
    assert.equal(retryAfters.length, 3, 'one try and two retries');
    assert.ok(retryAfters.every((s) => s > 0));
    assert.deepEqual(
      slept,
      retryAfters.slice(0, 2).map((s) => s * 1000),
    );
    assert.equal(error.retryAfterSeconds, retryAfters[2]);

    const impatient = new ChannelShortsClient({
      baseUrl,
      apiKey: user.key,
      maxRetryDelayMs: 500,
      sleep: async (ms) => void slept.push(ms),
    });
    slept.length = 0;
    await assert.rejects(
      impatient.listShorts(sparse),
      (e: unknown) => e instanceof ChannelShortsError && e.status === 429,
    );
    assert.deepEqual(slept, [], 'a wait of hours is not attempted');
  });

  it('sends an Idempotency-Key and reuses it after a dropped connection: the call is charged once', async () => {
    const user = await createUser(t, 100);
    const keys: Array<string | null> = [];
    let dropped = false;
    // The service answers, then the connection breaks before the client reads it.
    const droppingFetch: typeof fetch = async (input, init) => {
      keys.push(new Headers(init?.headers).get('idempotency-key'));
      const response = await fetch(input, init);
      if (dropped) return response;
      dropped = true;
      await response.arrayBuffer();
      throw new TypeError('fetch failed');
    };
    const client = new ChannelShortsClient({ baseUrl, apiKey: user.key, fetch: droppingFetch, sleep: async () => {} });
    const result = await client.listShorts({ channelUrl: 'https://www.youtube.com/@demo', limit: 2 });
    assert.equal(keys.length, 2, 'one retry');
    assert.ok(keys[0] && keys[0] === keys[1], "the retry carries the first attempt's key");
    const account = await client.getAccount();
    assert.equal(account.credits.balance, 100 - result.creditsCharged, 'charged once');
    const [charges] = await t.services.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = $1 AND kind = 'charge'",
      [user.id],
    );
    assert.equal(charges!.n, 1);
  });

  it('submits a batch, follows its progress, pages through a stored result and verifies the webhooks', async (context) => {
    const receiver = await startReceiver();
    context.after(() => receiver.close());
    const user = await createUser(t, 10);
    const client = new ChannelShortsClient({ baseUrl, apiKey: user.key });
    const accepted = await client.submitBatch({
      webhookUrl: receiver.url('/b'),
      items: [
        { channelUrl: 'https://www.youtube.com/@demo', sort: 'oldest' },
        { channelUrl: 'https://www.youtube.com/@sparse' },
      ],
    });
    assert.equal(accepted.items.length, 2);
    const done = await until(
      async () => {
        const status = await client.getBatch(accepted.batchId);
        return status.status === 'completed' && status;
      },
      30_000,
      200,
    );
    assert.deepEqual(done.counts, { total: 2, processing: 0, completed: 2, failed: 0 });
    const ids: string[] = [];
    for await (const short of client.items(accepted.items[0]!.requestId, { pageSize: 7 })) ids.push(short.id);
    assert.equal(ids.length, 120);
    assert.equal(new Set(ids).size, 120);
    await receiver.waitFor(3, 30_000);
    const secrets = (
      await t.app.inject({ method: 'GET', url: '/accounts/webhook-secret', headers: bearer(user.token) })
    )
      .json()
      .secrets.map((s: { secret: string }) => s.secret) as string[];
    const types = receiver.deliveries.map((d) => verifyWebhook(d.body, d.headers, secrets[0]!).type);
    assert.deepEqual(types.sort(), ['batch.completed', 'shorts.completed', 'shorts.completed']);
    const summary = receiver.deliveries.find((d) => d.body.includes('"batch.completed"'))!;
    const asHeaders = new Headers(Object.entries(summary.headers).map(([k, v]) => [k, String(v)] as [string, string]));
    const event = verifyWebhook(new TextEncoder().encode(summary.body), asHeaders, [
      'whsec_' + Buffer.alloc(24, 1).toString('base64'),
      secrets[0]!,
    ]);
    assert.equal(event.type, 'batch.completed');
    assert.throws(
      () => verifyWebhook(summary.body.replace('"completed"', '"failed"'), summary.headers, secrets[0]!),
      WebhookVerificationError,
    );
    assert.throws(
      () => verifyWebhook(summary.body, summary.headers, 'whsec_' + Buffer.alloc(24, 2).toString('base64')),
      WebhookVerificationError,
    );
    assert.throws(
      () => verifyWebhook(summary.body, { ...summary.headers, 'webhook-signature': undefined }, secrets[0]!),
      /Missing webhook-signature/,
    );
  });

  it('does not retry a 503 whose Retry-After is beyond the bound (platform quota spent until the next quota day)', async (ctx) => {
    const user = await createUser(t, 10);
    t.fake.injectFault({ kind: 'quotaExceeded', times: Infinity });
    ctx.after(() => t.fake.clearFaults());
    const slept: number[] = [];
    const client = new ChannelShortsClient({ baseUrl, apiKey: user.key, sleep: async (ms) => void slept.push(ms) });
    const error = await client.listShorts({ channelUrl: 'https://www.youtube.com/@fake-77' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof ChannelShortsError);
    assert.equal(error.status, 503);
    assert.equal(error.code, 'UPSTREAM_QUOTA_EXHAUSTED');
    assert.ok((error.retryAfterSeconds ?? 0) > 60);
    assert.deepEqual(slept, []);
  });
});
