import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { REDIS_TEST_URL, skipWithout } from '../support/databases.ts';
import { until } from '../support/webhook-receiver.ts';
import type { FakePlatform } from '../src/fake-platform/server.ts';
import { harness, useHarness } from './helpers/harness.ts';
import type { Account } from '../src/contract/accounts.ts';
import { createUser, bearer, toMidMinute, type TestUser } from './helpers/test-app.ts';
import { assertSpecShape, CHANNEL_FIELDS, SHORT_FIELDS } from './helpers/spec-shape.ts';
import { parseTimestamp } from '../src/domain/shorts/mapping.ts';
import { createShortsService, type FlightFailure } from '../src/domain/shorts/shorts-service.ts';
import { createMemoryCache } from '../src/infra/cache/memory-cache.ts';
import type { Cache } from '../src/infra/cache/cache.ts';
import type { YoutubeCalls, YoutubeClient } from '../src/domain/shorts/youtube-client.ts';
import { collectShorts } from '../src/domain/shorts/shorts-collector.ts';
import type { YtListResponse, YtPlaylistItem } from '../src/domain/shorts/youtube-types.ts';
import { AppError } from '../src/errors.ts';

const SHORTS = '/api/youtube/shorts';
const channel = (path: string) => `https://www.youtube.com/${path}`;

describe('POST /api/youtube/shorts (synchronous)', () => {
  // An allowance large enough for the 101-unit search strategy (the default, 50, is not).
  const t = useHarness({
    env: {
      CACHE_TTL_SECONDS: '0',
      YOUTUBE_TIMEOUT_MS: '2000',
      RATE_LIMIT_PER_MINUTE: '1000',
      QUOTA_ALLOWANCE_UNITS: '1000',
      NEGATIVE_CACHE_SECONDS: '0',
    },
  });

  const call = (user: TestUser, payload: object) =>
    t.app.inject({ method: 'POST', url: SHORTS, headers: bearer(user.key), payload });
  const balance = async (user: TestUser) => (await t.as(user).get<Account>('/accounts')).body.credits.balance;

  it('takes a non-ASCII handle as sent or percent-encoded', async () => {
    const added = t.fake.addChannel({ handle: 'ひらがなチャンネル', shortsCount: 3 });
    const user = await createUser(t, 10);
    for (const channelUrl of [
      'https://www.youtube.com/@ひらがなチャンネル',
      `https://www.youtube.com/@${encodeURIComponent('ひらがなチャンネル')}`,
    ]) {
      const res = await call(user, { channelUrl });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual([res.json().data.channel.id, res.json().itemCount], [added.id, 3]);
    }
    // Text that is no channel address is refused with the accepted forms.
    assert.equal((await call(user, { channelUrl: 'not a url' })).json().error, 'INVALID_CHANNEL_URL');
  });

  it("returns the channel and all its shorts with the spec's fields, charging 1 credit per started 50", async () => {
    const user = await createUser(t, 100);
    t.fake.resetStats();
    const res = await call(user, { channelUrl: channel('@demo') });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), [
      'creditsCharged',
      'data',
      'fetchedAt',
      'itemCount',
      'requestId',
      'source',
      'stale',
      'success',
      'truncated',
    ]);
    assert.equal(body.stale, false);
    assert.equal(body.source, 'data-api');
    assert.ok(Number.isFinite(Date.parse(body.fetchedAt)));
    assert.equal(body.success, true);
    assert.equal(body.requestId, res.headers['x-request-id']);
    // The body is written as pre-rendered chunks (http/send-rendered.ts): the reply's and the hooks' headers still go with it.
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(Number(res.headers['content-length']), res.rawPayload.length);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.ok(res.headers.ratelimit, 'RateLimit header');
    assert.equal(body.itemCount, 120);
    assert.equal(body.data.shorts.length, 120);
    assert.equal(body.creditsCharged, 3);
    assert.equal(body.truncated, false);
    assert.equal(await balance(user), 97);
    // The demo channel carries every spec field but the four the generator leaves out for it.
    const channelMust = Object.keys(CHANNEL_FIELDS).filter(
      (f) =>
        f !== 'snippet.defaultLanguage' &&
        f !== 'brandingSettings.channel.defaultLanguage' &&
        f !== 'brandingSettings.channel.trackingAnalyticsAccountId' &&
        f !== 'brandingSettings.channel.unsubscribedTrailer',
    );
    assertSpecShape(body.data.channel, CHANNEL_FIELDS, channelMust, 'channel');
    for (const short of body.data.shorts) {
      assertSpecShape(
        short,
        SHORT_FIELDS,
        [
          'kind',
          'etag',
          'id',
          'snippet.publishedAt',
          'snippet.channelId',
          'snippet.title',
          'snippet.thumbnails',
          'snippet.channelHandle',
          'snippet.channelCustomUrl',
          'statistics.viewCount',
          'shortUrl',
        ],
        `short ${short.id}`,
      );
      assert.equal(short.shortUrl, `https://www.youtube.com/shorts/${short.id}`);
      assert.equal(short.snippet.channelId, body.data.channel.id);
      assert.equal(short.snippet.channelHandle, body.data.channel.snippet.customUrl);
      assert.equal(short.snippet.channelCustomUrl, `https://www.youtube.com/${body.data.channel.snippet.customUrl}`);
    }
    const times = body.data.shorts.map(
      (s: { snippet: { publishedAt: string } }) => parseTimestamp(s.snippet.publishedAt)!,
    );
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
      'newest first',
    );
    assert.equal(new Set(body.data.shorts.map((s: { id: string }) => s.id)).size, 120, 'no duplicates across pages');
    // 1 channels.list (forHandle returns the full channel) + 3 playlist pages + 3 videos batches.
    assert.equal(t.fake.quotaUsed(), 7);
    const ledger = (await t.app.inject({ method: 'GET', url: '/accounts/ledger', headers: bearer(user.key) })).json()
      .entries;
    assert.equal(ledger[0].amount, -3);
    assert.equal(ledger[0].requestId, body.requestId);
  });

  it('omits values the platform does not send, never null', async () => {
    const user = await createUser(t);
    const res = await call(user, { channelUrl: channel('@sparse') });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.itemCount, 5);
    assert.ok(!res.body.includes('null'));
    assertSpecShape(body.data.channel, CHANNEL_FIELDS, ['kind', 'etag', 'id'], 'sparse channel');
    assert.equal(body.data.channel.snippet.country, undefined);
    assert.equal(body.data.channel.brandingSettings.image.bannerExternalUrl, undefined);
    for (const short of body.data.shorts) {
      assertSpecShape(short, SHORT_FIELDS, ['kind', 'etag', 'id', 'shortUrl'], 'sparse short');
      assert.equal(short.snippet.tags, undefined);
    }
  });

  it('resolves every accepted URL form to the same channel', async () => {
    const user = await createUser(t, 1000);
    const custom = (await call(user, { channelUrl: channel('@democustom') })).json().data.channel.id as string;
    const demoId = (await call(user, { channelUrl: channel('@demo') })).json().data.channel.id as string;
    const forms: Array<[string, string]> = [
      [channel('@demo/shorts'), demoId],
      [`https://m.youtube.com/@DEMO/videos?view=0`, demoId],
      [`https://youtube.com/@demo?si=abc#x`, demoId],
      [channel(`channel/${demoId}`), demoId],
      [channel(`channel/${demoId}/shorts`), demoId],
      [channel('user/DemoUser'), custom],
      [channel('c/democustom'), custom],
      [channel('democustom/videos'), custom],
    ];
    for (const [url, id] of forms) {
      const res = await call(user, { channelUrl: url });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      assert.equal(res.json().data.channel.id, id, url);
    }
  });

  it('resolves a /c/ name that is not a handle through search, matching customUrl', async () => {
    const user = await createUser(t);
    const added = t.fake.addChannel({
      handle: 'renamedhandle',
      customUrl: 'oldvanityname',
      title: 'Old Vanity',
      shortsCount: 3,
    });
    t.fake.resetStats();
    const res = await call(user, { channelUrl: channel('c/oldvanityname') });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.channel.id, added.id);
    assert.ok(t.fake.calls().some((c) => c.endpoint === 'search'));
  });

  it('answers 404 for an unknown channel and 400 for unusable addresses, charging nothing', async () => {
    const user = await createUser(t, 10);
    for (const url of [
      channel('@nobody-here-xyz'),
      channel('channel/UC0000000000000000000000'),
      channel('user/nobodyxyz'),
    ]) {
      const res = await call(user, { channelUrl: url });
      assert.equal(res.statusCode, 404, url);
      assert.deepEqual(Object.keys(res.json()).sort(), ['error', 'message', 'requestId', 'success']);
      assert.equal(res.json().success, false);
      assert.equal(res.json().error, 'CHANNEL_NOT_FOUND');
    }
    const bad = await call(user, { channelUrl: 'https://www.youtube.com/watch?v=abcdefghijk' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error, 'INVALID_CHANNEL_URL');
    assert.match(bad.json().message, /Accepted forms/);
    assert.equal(await balance(user), 10);
  });

  it('returns zero shorts for a channel without a Shorts playlist, at the minimum price', async () => {
    const user = await createUser(t, 5);
    const res = await call(user, { channelUrl: channel('@empty') });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().itemCount, 0);
    assert.deepEqual(res.json().data.shorts, []);
    assert.equal(res.json().creditsCharged, 1);
    assert.equal(await balance(user), 4);
  });

  it('filters by oldestDate inclusively and stops paging early', async () => {
    const user = await createUser(t, 1000);
    const all = (await call(user, { channelUrl: channel('@demo') })).json().data.shorts as Array<{
      id: string;
      snippet: { publishedAt: string };
    }>;
    const at = (i: number) => parseTimestamp(all[i]!.snippet.publishedAt)!;
    // Equal to the 10th short's time: shorts 0..9 are kept.
    t.fake.resetStats();
    const equal = (await call(user, { channelUrl: channel('@demo'), oldestDate: at(9) })).json();
    assert.equal(equal.itemCount, 10);
    assert.deepEqual(
      equal.data.shorts.map((s: { id: string }) => s.id),
      all.slice(0, 10).map((s) => s.id),
    );
    // The first page holds the window; the second (all older) is the safety margin; no third page.
    assert.equal(t.fake.calls().filter((c) => c.endpoint === 'playlistItems').length, 2);
    // One millisecond later excludes the 10th.
    assert.equal((await call(user, { channelUrl: channel('@demo'), oldestDate: at(9) + 1 })).json().itemCount, 9);
    // Before all: everything.
    assert.equal((await call(user, { channelUrl: channel('@demo'), oldestDate: 0 })).json().itemCount, 120);
    // After all: nothing, after reading one page only.
    t.fake.resetStats();
    const none = (await call(user, { channelUrl: channel('@demo'), oldestDate: at(0) + 1 })).json();
    assert.equal(none.itemCount, 0);
    assert.equal(none.creditsCharged, 1);
    assert.equal(t.fake.calls().filter((c) => c.endpoint === 'playlistItems').length, 1);
    assert.equal(t.fake.calls().filter((c) => c.endpoint === 'videos').length, 0);
  });

  it('serves a 3,000-short channel completely with the minimum quota', async () => {
    const user = await createUser(t, 100);
    t.fake.resetStats();
    const res = await call(user, { channelUrl: channel('@fake-3000') });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.itemCount, 3000);
    assert.equal(new Set(body.data.shorts.map((s: { id: string }) => s.id)).size, 3000);
    assert.equal(body.creditsCharged, 60);
    assert.equal(t.fake.quotaUsed(), 1 + 60 + 60);
    assert.equal(await balance(user), 40);
  });

  it('every /api/youtube/shorts… failure is the failure body, with success: false', async () => {
    const user = await createUser(t, 1);
    const failures = [
      ['GET', '/api/youtube/shorts?limit=0', 400],
      ['GET', '/api/youtube/shorts/req_nosuchrequest', 404],
      ['POST', '/api/youtube/shorts/req_nosuchrequest/redeliver', 404],
      ['GET', '/api/youtube/shorts/rejections?days=0', 400],
      ['GET', '/api/youtube/shorts/batch/bat_nosuchbatch', 404],
    ] as const;
    for (const [method, url, status] of failures) {
      const res = await t.app.inject({ method, url, headers: bearer(user.key) });
      assert.equal(res.statusCode, status, `${method} ${url}: ${res.body}`);
      assert.deepEqual(
        Object.keys(res.json()).sort(),
        ['error', 'message', 'requestId', 'success'],
        `${method} ${url}`,
      );
      assert.equal(res.json().success, false);
    }
  });

  it('refuses a body that is not JSON with 415, plain text included', async () => {
    const user = await createUser(t, 1);
    for (const [type, payload] of [
      ['text/plain', '{"channelUrl":"https://www.youtube.com/@demo"}'],
      ['application/x-www-form-urlencoded', 'channelUrl=x'],
      ['application/xml', '<a/>'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/youtube/shorts',
        headers: { ...bearer(user.key), 'content-type': type },
        payload,
      });
      assert.equal(res.statusCode, 415, `${type}: ${res.body}`);
      assert.deepEqual([res.json().error, res.json().success], ['UNSUPPORTED_MEDIA_TYPE', false]);
    }
  });

  it('answers 402 when the balance cannot cover the minimum or the result, and charges nothing', async () => {
    const broke = await createUser(t, 0);
    const res = await call(broke, { channelUrl: channel('@demo') });
    assert.equal(res.statusCode, 402);
    assert.equal(res.json().error, 'INSUFFICIENT_CREDITS');
    const short = await createUser(t, 2);
    const tooBig = await call(short, { channelUrl: channel('@demo') });
    assert.equal(tooBig.statusCode, 402);
    assert.match(tooBig.json().message, /has 120 shorts; reading all of them costs 3 credits; 2 available/);
    assert.equal(await balance(short), 2);
  });

  const faults: Array<[Parameters<FakePlatform['injectFault']>[0], number, string]> = [
    [{ kind: 'quotaExceeded', endpoint: '*', times: Infinity }, 503, 'UPSTREAM_QUOTA_EXHAUSTED'],
    [{ kind: 'keyInvalid', endpoint: '*', times: Infinity }, 502, 'UPSTREAM_ERROR'],
    [{ kind: 'backendError', endpoint: 'videos', times: Infinity }, 502, 'UPSTREAM_ERROR'],
    [{ kind: 'malformed', endpoint: 'playlistItems', times: Infinity }, 502, 'UPSTREAM_ERROR'],
    [{ kind: 'reset', endpoint: 'channels', times: Infinity }, 502, 'UPSTREAM_ERROR'],
    [{ kind: 'hang', endpoint: 'playlistItems', times: Infinity }, 504, 'UPSTREAM_TIMEOUT'],
  ];
  for (const [fault, status, code] of faults) {
    it(`maps upstream ${fault.kind} on ${fault.endpoint} to ${status} ${code}, charging nothing`, async (ctx) => {
      // Key trouble takes the key out of the pool: such a fault gets an app of its own.
      const own =
        fault.kind === 'quotaExceeded' || fault.kind === 'keyInvalid'
          ? await harness(ctx, { fake: t.fake, env: { CACHE_TTL_SECONDS: '0' } })
          : undefined;
      const app = own ?? t;
      const user = await createUser(app, 10);
      t.fake.injectFault(fault);
      ctx.after(() => t.fake.clearFaults());
      const res = await app.app.inject({
        method: 'POST',
        url: SHORTS,
        headers: bearer(user.key),
        payload: { channelUrl: channel('@demo') },
      });
      assert.equal(res.statusCode, status, res.body);
      assert.equal(res.json().success, false);
      assert.equal(res.json().error, code);
      assert.equal(res.json().requestId, res.headers['x-request-id']);
      if (code === 'UPSTREAM_QUOTA_EXHAUSTED')
        assert.ok(Number(res.headers['retry-after']) > 0, 'Retry-After: the next quota day');
      t.fake.clearFaults();
      assert.equal(
        (await app.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json().credits.balance,
        10,
      );
      const recorded = (await app.app.inject({ method: 'GET', url: SHORTS, headers: bearer(user.key) })).json()
        .requests[0];
      assert.equal(recorded.status, 'failed');
      assert.equal(recorded.error, code);
    });
  }

  it('retries a single transient 5xx and succeeds', async () => {
    const user = await createUser(t, 10);
    t.fake.injectFault({ kind: 'backendError', endpoint: 'videos', times: 1 });
    const res = await call(user, { channelUrl: channel('@sparse') });
    t.fake.clearFaults();
    assert.equal(res.statusCode, 200, res.body);
  });

  it("lists requests for their owner only and shows one request's detail", async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const done = (await call(alice, { channelUrl: channel('@sparse') })).json();
    const list = (await t.app.inject({ method: 'GET', url: SHORTS, headers: bearer(alice.token) })).json().requests;
    assert.equal(list[0].requestId, done.requestId);
    assert.equal(list[0].itemCount, 5);
    assert.equal(list[0].creditsCharged, 1);
    assert.equal(list[0].mode, 'sync');
    const detail = await t.app.inject({
      method: 'GET',
      url: `${SHORTS}/${done.requestId}`,
      headers: bearer(alice.key),
    });
    assert.equal(detail.statusCode, 200);
    assert.equal(detail.json().status, 'completed');
    assert.equal(detail.json().result.itemCount, 5);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: `${SHORTS}/${done.requestId}`, headers: bearer(bob.key) })).statusCode,
      404,
    );
    assert.equal(
      (await t.app.inject({ method: 'GET', url: SHORTS, headers: bearer(bob.key) })).json().requests.length,
      0,
    );
  });
});

describe('POST /api/youtube/shorts: truncation, cache, single-flight and rate limits', () => {
  const t = useHarness({
    env: { MAX_SHORTS_PER_REQUEST: '100', CACHE_TTL_SECONDS: '300', RATE_LIMIT_PER_MINUTE: '5' },
  });
  const call = (user: TestUser, payload: object) =>
    t.app.inject({ method: 'POST', url: SHORTS, headers: bearer(user.key), payload });

  it('says so in the body when it returns fewer shorts than exist', async () => {
    const user = await createUser(t);
    const body = (await call(user, { channelUrl: channel('@fake-250') })).json();
    assert.equal(body.itemCount, 100);
    assert.equal(body.truncated, true);
    assert.match(body.message, /more matching shorts than the 100/);
    const exact = (await call(user, { channelUrl: channel('@fake-100') })).json();
    assert.equal(exact.itemCount, 100);
    assert.equal(exact.truncated, false, 'exactly the maximum is not truncated');
  });

  it('serves repeats from the cache without upstream quota, still charging and counting', async () => {
    const user = await createUser(t, 50);
    t.fake.resetStats();
    const first = (await call(user, { channelUrl: channel('@fake-60') })).json();
    const used = t.fake.quotaUsed();
    assert.equal(used, 1 + 2 + 2);
    const second = await call(user, { channelUrl: channel('@fake-60') });
    assert.equal(second.statusCode, 200);
    assert.equal(t.fake.quotaUsed(), used, 'no upstream call for the cached result');
    assert.deepEqual(second.json().data, first.data);
    assert.equal(second.json().creditsCharged, 2);
    const filtered = await call(user, {
      channelUrl: channel('@fake-60'),
      oldestDate: parseTimestamp(first.data.shorts[4].snippet.publishedAt),
    });
    assert.equal(filtered.json().itemCount, 5, 'a cached full result answers an oldestDate');
    assert.equal(t.fake.quotaUsed(), used);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json().credits.balance,
      50 - 2 - 2 - 1,
    );
  });

  it('shares one upstream fetch among concurrent identical requests', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => createUser(t)));
    t.fake.resetStats();
    t.fake.setLatency(30);
    const results = await Promise.all(
      users.flatMap((u) => [
        call(u, { channelUrl: channel('@fake-77') }),
        call(u, { channelUrl: channel('@fake-77') }),
      ]),
    );
    t.fake.setLatency(0);
    assert.ok(results.every((r) => r.statusCode === 200 && r.json().itemCount === 77));
    assert.equal(t.fake.quotaUsed(), 1 + 2 + 2, 'eight requests, one fetch');
  });

  it('a request for an address arriving while another reads it joins that read', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => createUser(t)));
    t.fake.resetStats();
    t.fake.setLatency(30);
    try {
      const first = call(users[0]!, { channelUrl: channel('@fake-140') });
      // The address is resolved and its listing is being read.
      await until(async () => t.fake.calls().some((c) => c.endpoint === 'playlistItems'));
      const later = await Promise.all(users.slice(1).map((u) => call(u, { channelUrl: channel('@fake-140') })));
      assert.ok([await first, ...later].every((r) => r.statusCode === 200 && r.json().itemCount === 100));
    } finally {
      t.fake.setLatency(0);
    }
    assert.equal(t.fake.calls().filter((c) => c.endpoint === 'channels').length, 1);
    assert.equal(t.fake.quotaUsed(), 1 + 2 + 2, 'five requests, one read');
  });

  it('instances sharing Redis read a new address once between them', { skip: skipWithout('redis') }, async (ctx) => {
    const env = {
      MAX_SHORTS_PER_REQUEST: '100',
      CACHE_TTL_SECONDS: '300',
      REDIS_URL: REDIS_TEST_URL,
      REDIS_KEY_PREFIX: `sf-${process.pid}-${Date.now()}:`,
    };
    const instances = await Promise.all([1, 2, 3].map(() => harness(ctx, { fake: t.fake, env })));
    ctx.after(() => t.fake.setLatency(0));
    const users = await Promise.all(instances.map((i) => createUser(i)));
    t.fake.resetStats();
    t.fake.setLatency(30);
    const answers = await Promise.all(
      instances.map((i, n) =>
        i.app.inject({
          method: 'POST',
          url: SHORTS,
          headers: bearer(users[n]!.key),
          payload: { channelUrl: channel('@fake-90') },
        }),
      ),
    );
    t.fake.setLatency(0);
    assert.ok(
      answers.every((r) => r.statusCode === 200 && r.json().itemCount === 90),
      answers.map((r) => r.body.slice(0, 200)).join('\n'),
    );
    assert.equal(new Set(answers.map((r) => r.json().fetchedAt)).size, 1, 'one read, shared');
    assert.equal(t.fake.calls().filter((c) => c.endpoint === 'channels').length, 1);
    assert.equal(t.fake.quotaUsed(), 1 + 2 + 2);
  });

  it('limits per account with 429, Retry-After and RateLimit headers; other accounts are unaffected', async (context) => {
    // The windows are aligned to the clock: once the app and its users exist, the service's clock
    // moves to 30 s into a minute, which keeps the seven calls in one minute window (with the real
    // clock, a run that crossed a minute saw seven 200s).
    let skew = 0;
    const own = await harness(context, {
      fake: t.fake,
      env: { MAX_SHORTS_PER_REQUEST: '100', CACHE_TTL_SECONDS: '300', RATE_LIMIT_PER_MINUTE: '5' },
      now: () => Date.now() + skew,
    });
    const call = (user: TestUser, payload: object) =>
      own.app.inject({ method: 'POST', url: SHORTS, headers: bearer(user.key), payload });
    const user = await createUser(own, 100);
    const other = await createUser(own, 100);
    skew = toMidMinute(Date.now());
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 7; i++) {
      last = await call(user, { channelUrl: channel('@sparse') });
      statuses.push(last.statusCode);
      assert.match(
        String(last.headers['ratelimit-policy']),
        /"minute";q=5;w=60, "hour";q=1000;w=3600, "day";q=10000;w=86400/,
      );
      assert.match(String(last.headers.ratelimit), /"minute";r=\d+;t=\d+/);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
    assert.equal(last!.json().error, 'RATE_LIMITED');
    assert.equal(last!.json().success, false);
    assert.ok(Number(last!.headers['retry-after']) >= 1 && Number(last!.headers['retry-after']) <= 60);
    assert.equal((await call(other, { channelUrl: channel('@sparse') })).statusCode, 200);
    const account = (await own.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json();
    assert.equal(account.usage.minute, 5, 'rejected requests were not counted');
    assert.equal(account.credits.balance, 95);
  });
});

describe('shared fetches that fail for their leader', () => {
  it("never answer a request with another account's error", async () => {
    const cache = createMemoryCache();
    let flights = 0;
    // Every fetch this request joins is led by another account whose balance stops it.
    const othersFlight: Cache = {
      ...cache,
      singleFlight: async () => {
        flights++;
        throw new AppError('INSUFFICIENT_CREDITS', 'This result costs 3 credits; the balance is 1.');
      },
    };
    const service = createShortsService({
      client: {} as YoutubeClient,
      cache: othersFlight,
      staleCache: createMemoryCache(),
      cacheTtlMs: 60_000,
      negativeTtlMs: 60_000,
      staleTtlMs: 60_000,
      maxShorts: 3000,
      now: Date.now,
      source: 'data-api',
      playerCallsPerHour: 300,
    });
    const failure = await service
      .fetch(
        { ref: { type: 'id', value: 'UCaaaaaaaaaaaaaaaaaaaaaa' } },
        { openMeter: () => assert.fail('this request never leads') },
      )
      .then(
        () => assert.fail('no result'),
        (e: unknown) => e as FlightFailure,
      );
    const error = failure.error as AppError;
    assert.equal(error.code, 'SERVICE_UNAVAILABLE');
    assert.doesNotMatch(error.message, /balance/);
    assert.equal(flights, 5, 'it joined (or tried to lead) a few times first');
  });
});

describe('reading the Shorts playlist page by page', () => {
  it('a short already read that comes again on the next page (the list shifted meanwhile) is read once', async () => {
    const item = (id: string) => ({ contentDetails: { videoId: id, videoPublishedAt: '2026-01-01T00:00:00Z' } });
    // Page tokens are positions: a short published between the two reads pushes 'c' onto page 2 as well.
    const pages: Record<string, YtListResponse<YtPlaylistItem>> = {
      first: {
        kind: 'youtube#playlistItemListResponse',
        nextPageToken: 'p2',
        pageInfo: { totalResults: 5 },
        items: [item('a'), item('b'), item('c')],
      },
      p2: { kind: 'youtube#playlistItemListResponse', pageInfo: { totalResults: 5 }, items: [item('c'), item('d')] },
    };
    const asked: string[][] = [];
    const calls = {
      playlistItems: async (_playlist: string, token?: string) => pages[token ?? 'first']!,
      videos: async (ids: string[]) => {
        asked.push(ids);
        return {
          kind: 'youtube#videoListResponse',
          items: ids.map((id) => ({ kind: 'youtube#video', id, snippet: { publishedAt: '2026-01-01T00:00:00Z' } })),
        };
      },
    } as unknown as YoutubeCalls;
    const collected = await collectShorts(calls, 'UCaaaaaaaaaaaaaaaaaaaaaa', {
      cap: 100,
      capIsServiceMax: true,
      budget: { onFirstPage: async () => {}, allowItems: async () => true },
    });
    assert.deepEqual(
      collected.videos.map((v) => v.id),
      ['a', 'b', 'c', 'd'],
    );
    assert.deepEqual(asked, [['a', 'b', 'c'], ['d']], 'its details are not asked for twice');
  });
});
