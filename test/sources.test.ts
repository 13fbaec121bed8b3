// The upstream source modes end to end (docs/sources.md): data-api, hybrid (InnerTube listing +
// videos.list details), innertube (keyless), auto, the fallbacks and InnerTube's faults.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createUser, bearer, type TestApp, type TestUser } from './helpers/test-app.ts';
import { harness, useHarness } from './helpers/harness.ts';
import { parseTimestamp } from '../src/domain/shorts/mapping.ts';
import type { InnertubeFault } from '../src/fake-platform/types.ts';

const SHORTS = '/api/youtube/shorts';
const channel = (path: string) => `https://www.youtube.com/${path}`;
const post = (t: TestApp, user: TestUser, payload: object) =>
  t.app.inject({ method: 'POST', url: SHORTS, headers: bearer(user.key), payload });
type Short = {
  id: string;
  etag?: string;
  snippet: { publishedAt?: string; title?: string };
  statistics: { viewCount?: string };
};

describe('source modes against the same fake channels', () => {
  const apps: Record<string, TestApp> = {};
  const users: Record<string, TestUser> = {};
  const env = (source: string, more: Record<string, string> = {}) => ({
    YOUTUBE_SOURCE: source,
    ...(source === 'innertube' ? { YOUTUBE_API_KEY: '' } : {}),
    CACHE_TTL_SECONDS: '0',
    RATE_LIMIT_PER_MINUTE: '1000',
    ...more,
  });
  // One service per source, all on the same fake channels.
  const main = useHarness({
    fake: {
      channels: [
        { handle: 'reelchannel', shortsCount: 70, shortsItemShape: 'reel' },
        { handle: 'vanityrenamed', customUrl: 'someoldvanity', shortsCount: 2 },
      ],
    },
    env: env('data-api'),
  });
  before(async () => {
    for (const source of ['data-api', 'hybrid', 'innertube'] as const) {
      apps[source] = source === 'data-api' ? main : await main.sibling({ env: env(source) });
      users[source] = await createUser(apps[source]!, 1000);
    }
  });

  it('hybrid lists from the Shorts tab at half the quota, with the same exact shorts as the Data API path', async () => {
    main.fake.resetStats();
    const exact = (await post(apps['data-api']!, users['data-api']!, { channelUrl: channel('@fake-150') })).json();
    assert.equal(main.fake.quotaUsed(), 1 + 3 + 3);
    main.fake.resetStats();
    const res = await post(apps.hybrid!, users.hybrid!, { channelUrl: channel('@fake-150') });
    assert.equal(res.statusCode, 200, res.body);
    const hybrid = res.json();
    assert.equal(hybrid.source, 'hybrid');
    assert.equal(hybrid.itemCount, 150);
    assert.equal(main.fake.quotaUsed(), 1 + 3, 'channels.list + 3 videos.list, no playlist pages');
    assert.ok(
      main.fake.innertubeCalls().filter((c) => c.endpoint === 'browse').length >= 4,
      'the tab read across continuations (48 per page)',
    );
    assert.deepEqual(hybrid.data.shorts, exact.data.shorts, 'field for field');
    assert.deepEqual(hybrid.data.channel, exact.data.channel);
    assert.equal(hybrid.creditsCharged, 3);
  });

  it('hybrid resolves every URL form through InnerTube at 0 units, /c/ names included', async () => {
    main.fake.resetStats();
    const res = await post(apps.hybrid!, users.hybrid!, { channelUrl: channel('c/someoldvanity') });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().itemCount, 2);
    assert.ok(!main.fake.calls().some((c) => c.endpoint === 'search'));
    assert.equal(main.fake.quotaUsed(), 2, 'channels.list?id + one videos.list');
  });

  it('hybrid stops a window after the first details batch that is all older', async () => {
    const all = (await post(apps.hybrid!, users.hybrid!, { channelUrl: channel('@fake-300') })).json().data
      .shorts as Short[];
    const oldestDate = parseTimestamp(all[9]!.snippet.publishedAt)!;
    main.fake.resetStats();
    const windowed = (await post(apps.hybrid!, users.hybrid!, { channelUrl: channel('@fake-300'), oldestDate })).json();
    assert.equal(windowed.itemCount, 10);
    assert.deepEqual(
      windowed.data.shorts.map((s: Short) => s.id),
      all.slice(0, 10).map((s) => s.id),
    );
    assert.ok(
      main.fake.quotaUsed() <= 1 + 2,
      `${main.fake.quotaUsed()} units: the window's batch and at most one margin batch`,
    );
  });

  it('hybrid falls back to the playlist path when the tab fails', async () => {
    main.fake.injectFault({ protocol: 'innertube', endpoint: 'browse', kind: 'rateLimited', times: 1 });
    main.fake.resetStats();
    const res = await post(apps.hybrid!, users.hybrid!, { channelUrl: channel('@reelchannel') });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().source, 'data-api');
    assert.equal(res.json().itemCount, 70);
    assert.ok(main.fake.calls().some((c) => c.endpoint === 'playlistItems'));
    main.fake.clearFaults();
  });

  it('both Shorts-tab item shapes list the same ids', async () => {
    const reel = (await post(apps.hybrid!, users.hybrid!, { channelUrl: channel('@reelchannel') })).json();
    const exact = (await post(apps['data-api']!, users['data-api']!, { channelUrl: channel('@reelchannel') })).json();
    assert.equal(reel.source, 'hybrid');
    assert.deepEqual(
      reel.data.shorts.map((s: Short) => s.id),
      exact.data.shorts.map((s: Short) => s.id),
    );
  });

  it('innertube (keyless) answers without a key: exact where it can, approximate counts listed, absent stays absent', async () => {
    main.fake.resetStats();
    const res = await post(apps.innertube!, users.innertube!, { channelUrl: channel('@demo') });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(main.fake.quotaUsed(), 0, 'no Data API call');
    assert.equal(body.source, 'innertube');
    assert.ok(Array.isArray(body.approximateFields) && body.approximateFields.length > 0);
    assert.equal(body.itemCount, 120);
    const exact = (await post(apps['data-api']!, users['data-api']!, { channelUrl: channel('@demo') })).json();
    assert.equal(body.data.channel.id, exact.data.channel.id);
    assert.equal(body.data.channel.snippet.title, exact.data.channel.snippet.title);
    assert.equal(body.data.channel.snippet.customUrl, exact.data.channel.snippet.customUrl);
    assert.equal(body.data.channel.etag, undefined);
    const subs = Number(body.data.channel.statistics.subscriberCount);
    const realSubs = Number(exact.data.channel.statistics.subscriberCount);
    assert.ok(Math.abs(subs - realSubs) / realSubs < 0.1, `approximate subscribers ${subs} vs ${realSubs}`);
    body.data.shorts.forEach((short: Short, i: number) => {
      const real = exact.data.shorts[i] as Short;
      assert.equal(short.id, real.id);
      assert.equal(short.snippet.title, real.snippet.title);
      assert.equal(short.etag, undefined);
      assert.equal(short.snippet.publishedAt, undefined, 'no date without a window');
      const views = Number(short.statistics.viewCount);
      const realViews = Number(real.statistics.viewCount);
      // Display text keeps two or three significant digits ("1M views" for 1,054,146).
      assert.ok(Math.abs(views - realViews) <= Math.max(1, realViews * 0.1), `views ${views} vs ${realViews}`);
    });
    assert.ok(!res.body.includes('null'));
    // The documented field paths, and each image under the Data API size nearest its width.
    assert.deepEqual(body.approximateFields, [
      'channel.statistics.subscriberCount',
      'channel.statistics.videoCount',
      'shorts[].statistics.viewCount',
    ]);
    const thumbnails = (body.data.shorts[0] as { snippet: { thumbnails: Record<string, { width?: number }> } }).snippet
      .thumbnails;
    // The cover YouTube lists for the item (405×720), not the video's first frame (frame0.jpg, 1080×1920).
    assert.deepEqual(Object.keys(thumbnails), ['high']);
    assert.deepEqual([thumbnails.high!.width, (thumbnails.high as { height?: number }).height], [405, 720]);
    assert.match((thumbnails.high as { url: string }).url, /\/oardefault\.jpg\?/);
  });

  it('innertube (keyless) refuses duration filters with 400 before any work: it has no durations', async () => {
    main.fake.resetStats();
    const res = await apps.innertube!.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(users.innertube!.key),
      payload: { channelUrl: channel('@demo'), maxDurationSeconds: 180 },
    });
    assert.deepEqual([res.statusCode, res.json().success, res.json().error], [400, false, 'VALIDATION_FAILED']);
    assert.match(res.json().message, /without a Data API key/);
    assert.deepEqual([main.fake.calls().length, main.fake.innertubeCalls().length], [0, 0]);
  });

  it("innertube finds a window's edge with a few date lookups, not one per short", async () => {
    const exact = (await post(apps['data-api']!, users['data-api']!, { channelUrl: channel('@fake-400') })).json().data
      .shorts as Short[];
    const oldestDate = parseTimestamp(exact[99]!.snippet.publishedAt)!;
    main.fake.resetStats();
    const res = await post(apps.innertube!, users.innertube!, { channelUrl: channel('@fake-400'), oldestDate });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.itemCount, 100);
    assert.deepEqual(
      body.data.shorts.map((s: Short) => s.id),
      exact.slice(0, 100).map((s) => s.id),
    );
    const players = main.fake.innertubeCalls().filter((c) => c.endpoint === 'player').length;
    assert.ok(players <= 3 + 6, `${players} player calls for 3 pages`);
    // Looked-up dates are exact and cached for good: the same window again asks the player nothing.
    main.fake.resetStats();
    await post(apps.innertube!, users.innertube!, { channelUrl: channel('@fake-400'), oldestDate });
    assert.equal(main.fake.innertubeCalls().filter((c) => c.endpoint === 'player').length, 0);
  });

  it('innertube: a window starting within the second of a short the Data API dates with a fraction keeps that short', async () => {
    const exact = (await post(apps['data-api']!, users['data-api']!, { channelUrl: channel('@fake-140') })).json().data
      .shorts as Short[];
    const edge = exact.findIndex((s) => /\.\d{3}Z$/.test(s.snippet.publishedAt ?? ''));
    assert.ok(edge >= 0, 'the fake dates some shorts with a fraction, as Google does');
    const oldestDate = parseTimestamp(exact[edge]!.snippet.publishedAt)!;
    assert.notEqual(oldestDate % 1000, 0);
    const keyless = (
      await post(apps.innertube!, users.innertube!, { channelUrl: channel('@fake-140'), oldestDate })
    ).json();
    assert.deepEqual(
      (keyless.data.shorts as Short[]).map((s) => s.id),
      exact.slice(0, edge + 1).map((s) => s.id),
    );
  });

  it('innertube: a cached full listing (no dates) does not answer a window; the window is read', async (ctx) => {
    const exact = (await post(apps['data-api']!, users['data-api']!, { channelUrl: channel('@fake-120') })).json().data
      .shorts as Short[];
    const t = await harness(ctx, { fake: main.fake, env: env('innertube', { CACHE_TTL_SECONDS: '3600' }) });
    const user = await createUser(t, 1000);
    const full = await post(t, user, { channelUrl: channel('@fake-120') });
    assert.equal(full.json().itemCount, 120);
    assert.equal(
      (full.json().data.shorts as Short[])[0]!.snippet.publishedAt,
      undefined,
      'a keyless listing without a window has no dates',
    );
    const window = await post(t, user, {
      channelUrl: channel('@fake-120'),
      oldestDate: parseTimestamp(exact[5]!.snippet.publishedAt)!,
    });
    assert.equal(window.statusCode, 200, window.body);
    assert.deepEqual(
      (window.json().data.shorts as Short[]).map((s) => s.id),
      exact.slice(0, 6).map((s) => s.id),
    );
  });

  it('hybrid: a window the cap cut after its end is not truncated; one with more beyond the cap is', async (ctx) => {
    const exact = (await post(apps['data-api']!, users['data-api']!, { channelUrl: channel('@fake-300') })).json().data
      .shorts as Short[];
    for (const source of ['hybrid', 'innertube'] as const) {
      const t = await harness(ctx, { fake: main.fake, env: env(source, { MAX_SHORTS_PER_REQUEST: '100' }) });
      const user = await createUser(t, 1000);
      const window = async (i: number) =>
        (
          await post(t, user, {
            channelUrl: channel('@fake-300'),
            oldestDate: parseTimestamp(exact[i]!.snippet.publishedAt)!,
          })
        ).json();
      const within = await window(96);
      assert.deepEqual([within.itemCount, within.truncated], [97, false], source);
      assert.deepEqual(
        (within.data.shorts as Short[]).map((s) => s.id),
        exact.slice(0, 97).map((s) => s.id),
      );
      // Exactly the cap: nothing of the window is missing (before: it said truncated).
      const exactly = await window(99);
      assert.deepEqual([exactly.itemCount, exactly.truncated], [100, false], source);
      assert.deepEqual(
        (exactly.data.shorts as Short[]).map((s) => s.id),
        exact.slice(0, 100).map((s) => s.id),
      );
      const beyond = await window(149);
      assert.deepEqual([beyond.itemCount, beyond.truncated], [100, true], source);
    }
  });

  it("a window of exactly the cap at a tab page's end is not truncated; a failed extra date lookup leaves it truncated", async (ctx) => {
    const exact = (await post(apps['data-api']!, users['data-api']!, { channelUrl: channel('@fake-300') })).json().data
      .shorts as Short[];
    for (const source of ['hybrid', 'innertube'] as const) {
      const t = await harness(ctx, { fake: main.fake, env: env(source, { MAX_SHORTS_PER_REQUEST: '96' }) });
      const user = await createUser(t, 1000);
      const exactly = (
        await post(t, user, {
          channelUrl: channel('@fake-300'),
          oldestDate: parseTimestamp(exact[95]!.snippet.publishedAt)!,
        })
      ).json();
      assert.deepEqual([exactly.itemCount, exactly.truncated], [96, false], source);
    }
    // Keyless, with the player's hourly calls nearly spent: the lookup past the cap fails, the answer stands, truncated.
    const t = await harness(ctx, {
      fake: main.fake,
      env: env('innertube', { MAX_SHORTS_PER_REQUEST: '100', INNERTUBE_PLAYER_CALLS_PER_HOUR: '3' }),
    });
    const user = await createUser(t, 1000);
    const res = await post(t, user, {
      channelUrl: channel('@fake-300'),
      oldestDate: parseTimestamp(exact[149]!.snippet.publishedAt)!,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual([res.json().itemCount, res.json().truncated], [100, true]);
  });

  it('a keyless service refuses duration filters before accepting a webhook request too', async () => {
    const res = await apps.innertube!.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(users.innertube!.key),
      payload: { channelUrl: channel('@demo'), maxDurationSeconds: 180, webhookUrl: 'https://example.com/hook' },
    });
    assert.deepEqual([res.statusCode, res.json().error], [400, 'VALIDATION_FAILED']);
  });

  // Each fault as YouTube answers it, and what the caller is told: an answered error is 502 and names
  // the answer (no Retry-After: retrying a 501 does not help); only a rate limit or a block promises a
  // retry; a block says what helps; no answer in time is 504; no answer at all is 503 without a promise.
  const faults: Array<[Omit<InnertubeFault, 'protocol'>, number, string, RegExp, boolean]> = [
    [{ kind: 'botCheck', endpoint: 'player' }, 503, 'UPSTREAM_BLOCKED', /not a bot.*Data API key.*proxy/s, true],
    [{ kind: 'forbidden', endpoint: 'browse' }, 503, 'UPSTREAM_BLOCKED', /HTTP 403.*Data API key.*proxy/s, true],
    [{ kind: 'consentRedirect', endpoint: 'resolve_url' }, 503, 'UPSTREAM_BLOCKED', /consent.*Data API key/s, true],
    [{ kind: 'rateLimited', endpoint: 'browse' }, 503, 'UPSTREAM_RATE_LIMITED', /rate limiting.*HTTP 429/, true],
    [
      { kind: 'backendError', status: 501, endpoint: 'browse' },
      502,
      'UPSTREAM_ERROR',
      /browse call with HTTP 501/,
      false,
    ],
    [
      { kind: 'backendError', status: 500, endpoint: 'browse' },
      502,
      'UPSTREAM_ERROR',
      /browse call with HTTP 500/,
      false,
    ],
    [
      { kind: 'backendError', status: 404, endpoint: 'browse' },
      502,
      'UPSTREAM_ERROR',
      /browse call with HTTP 404/,
      false,
    ],
    [{ kind: 'malformed', endpoint: 'browse' }, 502, 'UPSTREAM_ERROR', /cannot read/, false],
    [{ kind: 'layoutChanged', endpoint: 'browse' }, 502, 'UPSTREAM_ERROR', /cannot read/, false],
    [{ kind: 'hang', endpoint: 'resolve_url' }, 504, 'UPSTREAM_TIMEOUT', /did not answer in time/, false],
    [{ kind: 'reset', endpoint: 'resolve_url' }, 503, 'UPSTREAM_UNAVAILABLE', /could not be reached/, false],
  ];
  for (const [fault, status, code, message, retryAfter] of faults) {
    const name = `${fault.kind}${fault.status ? ` ${fault.status}` : ''} on ${fault.endpoint}`;
    it(`innertube: ${name} answers ${status} ${code}${retryAfter ? ' with Retry-After' : ''}, nothing charged`, async (ctx) => {
      const t = await harness(ctx, {
        fake: main.fake,
        env: { YOUTUBE_API_KEY: '', YOUTUBE_SOURCE: 'auto', CACHE_TTL_SECONDS: '0', YOUTUBE_TIMEOUT_MS: '2000' },
      });
      t.defer(() => t.fake.clearFaults());
      assert.equal(t.services.source, 'innertube', 'auto without a key is keyless');
      const user = await createUser(t, 10);
      main.fake.injectFault({ protocol: 'innertube', ...fault, times: Infinity });
      const payload =
        fault.endpoint === 'player'
          ? { channelUrl: channel('@demo'), oldestDate: 0 }
          : { channelUrl: channel('@demo') };
      const res = await post(t, user, payload);
      assert.deepEqual([res.statusCode, res.json().error], [status, code], res.body);
      assert.match(res.json().message, message);
      assert.equal(res.headers['retry-after'] !== undefined, retryAfter, `Retry-After: ${res.headers['retry-after']}`);
      assert.equal(res.json().success, false);
      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      assert.match(metrics, /innertube_failures_total\{kind="[a-z-]+"\} [1-9]/);
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json().credits.balance,
        10,
      );
    });
  }
});

describe('when every Data API key is spent (hybrid)', () => {
  it('serves stale for stale-ok, keyless when nothing is cached, and 503 for exact', async (ctx) => {
    const t = await harness(ctx, { env: { YOUTUBE_SOURCE: 'auto', CACHE_TTL_SECONDS: '0' } });
    const { fake } = t;
    assert.equal(t.services.source, 'hybrid', 'auto with a key is hybrid');
    const user = await createUser(t, 100);
    assert.equal((await post(t, user, { channelUrl: channel('@demo') })).json().source, 'hybrid');
    fake.injectFault({ kind: 'quotaExceeded', endpoint: '*', times: Infinity });
    const stale = (await post(t, user, { channelUrl: channel('@demo') })).json();
    assert.equal(stale.stale, true);
    assert.equal(stale.source, 'hybrid');
    const keyless = await post(t, user, { channelUrl: channel('@fake-20') });
    assert.equal(keyless.statusCode, 200, keyless.body);
    assert.equal(keyless.json().source, 'innertube');
    assert.equal(keyless.json().stale, false);
    assert.ok(keyless.json().approximateFields.length > 0);
    const exact = await post(t, user, { channelUrl: channel('@fake-21'), freshness: 'exact' });
    assert.equal(exact.statusCode, 503);
    assert.equal(exact.json().error, 'UPSTREAM_QUOTA_EXHAUSTED');
    assert.equal((await post(t, user, { channelUrl: channel('@fake-21'), freshness: 'sometimes' })).statusCode, 400);
    // Keyless data has no durations: a duration filter is refused, not answered empty and charged.
    const before = (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json().credits
      .balance;
    const filtered = await post(t, user, { channelUrl: channel('@fake-22'), maxDurationSeconds: 180 });
    assert.deepEqual([filtered.statusCode, filtered.json().error], [503, 'UPSTREAM_QUOTA_EXHAUSTED'], filtered.body);
    assert.match(filtered.json().message, /Duration filters need the Data API/);
    assert.ok(Number(filtered.headers['retry-after']) > 0);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json().credits.balance,
      before,
      'nothing charged',
    );
  });
});
