// Sort, durations, batches, paged results — on the real service, fake platform, both stores.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { harness, useHarness } from './helpers/harness.ts';
import { createUser, bearer, STORAGE_MODES, type TestUser, skipWithout } from './helpers/test-app.ts';
import { startReceiver, until } from '../support/webhook-receiver.ts';
import { parseIsoDuration } from '../src/domain/shorts/duration.ts';
import { sortShorts, filterByDuration } from '../src/domain/shorts/sorting.ts';
import { purgeExpiredResults } from '../src/domain/requests/stored-results.ts';
import { processQueuedRequest } from '../src/domain/requests/shorts-requests.ts';
import type { Short } from '../src/contract/shorts.ts';
import { parseTimestamp } from '../src/domain/shorts/mapping.ts';
import { verifyWebhook } from '../clients/typescript/src/index.ts';

const SHORTS = '/api/youtube/shorts';
const channel = (path: string) => `https://www.youtube.com/${path}`;
const DAY = 86_400_000;

type S = {
  id: string;
  snippet: { publishedAt: string };
  statistics: { viewCount?: string };
  contentDetails?: { duration: string };
  durationSeconds?: number;
};

describe('ISO 8601 durations', () => {
  it('parses the forms the Data API writes, and refuses what is not a duration', () => {
    const cases: Array<[string, number | undefined]> = [
      ['PT59S', 59],
      ['PT1M5S', 65],
      ['PT1M', 60],
      ['PT3M', 180],
      ['P0D', 0],
      ['PT0S', 0],
      ['PT1H2M3S', 3723],
      ['PT2H', 7200],
      ['P1DT1S', 86_401],
      ['P1W', 604_800],
      ['PT1.6S', 2],
      ['pt10s', 10],
      ['P', undefined],
      ['PT', undefined],
      ['P1DT', undefined],
      ['P1Y', undefined],
      ['P1M', undefined],
      ['1M5S', undefined],
      ['', undefined],
      ['PTXS', undefined],
    ];
    for (const [text, seconds] of cases) assert.equal(parseIsoDuration(text), seconds, text);
    assert.equal(parseIsoDuration(undefined), undefined);
  });
});

describe('sorting and duration filtering', () => {
  const short = (
    id: string,
    publishedAt: string | undefined,
    viewCount: string | undefined,
    durationSeconds?: number,
  ): Short => ({
    kind: 'youtube#video',
    etag: 'e',
    id,
    snippet: publishedAt ? { publishedAt } : {},
    statistics: viewCount === undefined ? {} : { viewCount },
    shortUrl: `https://www.youtube.com/shorts/${id}`,
    ...(durationSeconds !== undefined ? { durationSeconds } : {}),
  });
  const shorts = [
    short('a', '2026-01-03T00:00:00Z', '10', 30),
    short('b', '2026-01-01T00:00:00Z', '900', 60),
    short('c', '2026-01-02T00:00:00.500Z', '10', 61),
    short('d', undefined, '5'),
    short('e', '2026-01-04T00:00:00Z', undefined, 180),
    short('f', '2026-01-05T00:00:00Z', '9007199254740993', 0),
  ];
  it('popular: exact counts (beyond 2^53 too), ties newest first, no count last', () => {
    assert.deepEqual(
      sortShorts(shorts, 'popular').map((s) => s.id),
      ['f', 'b', 'a', 'c', 'd', 'e'],
    );
  });
  it('oldest and newest by publication time, undated last', () => {
    assert.deepEqual(
      sortShorts(shorts, 'oldest').map((s) => s.id),
      ['b', 'c', 'a', 'e', 'f', 'd'],
    );
    assert.deepEqual(
      sortShorts(shorts, 'newest').map((s) => s.id),
      ['f', 'e', 'a', 'c', 'b', 'd'],
    );
  });
  it("a keyless listing's undated shorts keep its order (newest first), reversed for oldest", () => {
    // As the Shorts tab lists them, newest first, none dated; ids in no particular order.
    const listing = ['q', 'z', 'a', 'm'].map((id) => short(id, undefined, '1'));
    assert.deepEqual(
      sortShorts(listing, 'newest').map((s) => s.id),
      ['q', 'z', 'a', 'm'],
    );
    assert.deepEqual(
      sortShorts(listing, 'oldest').map((s) => s.id),
      ['m', 'a', 'z', 'q'],
    );
    assert.deepEqual(
      sortShorts(listing, 'popular').map((s) => s.id),
      ['q', 'z', 'a', 'm'],
      'equal counts: newest first',
    );
  });
  it('duration bounds are inclusive; a short without a duration matches no bound', () => {
    assert.deepEqual(
      filterByDuration(shorts, { minDurationSeconds: 30, maxDurationSeconds: 60 }).map((s) => s.id),
      ['a', 'b'],
    );
    assert.deepEqual(
      filterByDuration(shorts, { maxDurationSeconds: 0 }).map((s) => s.id),
      ['f'],
    );
    assert.equal(filterByDuration(shorts, {}).length, 6);
  });
});

describe('sort, durations and stored results (synchronous requests)', () => {
  let shift = 0;
  const t = useHarness({
    env: { RATE_LIMIT_PER_MINUTE: '1000', RESULT_RETENTION_DAYS: '7' },
    now: () => Date.now() + shift,
  });
  const call = (user: TestUser, payload: object) =>
    t.app.inject({ method: 'POST', url: SHORTS, headers: bearer(user.key), payload });
  const balance = async (user: TestUser) =>
    (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json().credits;

  it('every short carries contentDetails.duration and durationSeconds; a platform without durations sends neither', async () => {
    const user = await createUser(t, 100);
    const res = await call(user, { channelUrl: channel('@demo') });
    assert.equal(res.statusCode, 200, res.body);
    const shorts = res.json().data.shorts as S[];
    assert.equal(shorts.length, 120);
    for (const s of shorts) {
      assert.match(s.contentDetails!.duration, /^PT(\d+M)?(\d+S)?$/);
      assert.deepEqual(Object.keys(s.contentDetails!), ['duration']);
      assert.equal(s.durationSeconds, parseIsoDuration(s.contentDetails!.duration));
      assert.ok(s.durationSeconds! >= 1 && s.durationSeconds! <= 180);
    }
    assert.ok(
      shorts.some((s) => s.durationSeconds! > 60),
      'Shorts longer than a minute exist',
    );
    const sparse = await call(user, { channelUrl: channel('@sparse') });
    for (const s of sparse.json().data.shorts as S[]) {
      assert.equal(s.contentDetails, undefined);
      assert.equal(s.durationSeconds, undefined);
    }
    assert.ok(!sparse.body.includes('null'));
  });

  it('sort=popular with limit reads (and charges for) the whole channel, then returns the most viewed', async () => {
    const user = await createUser(t, 100);
    t.fake.resetStats();
    const res = await call(user, { channelUrl: channel('@fake-140'), sort: 'popular', limit: 10 });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    const views = (body.data.shorts as S[]).map((s) => BigInt(s.statistics.viewCount!));
    assert.equal(views.length, 10);
    assert.deepEqual(
      views,
      [...views].sort((a, b) => (b > a ? 1 : b < a ? -1 : 0)),
    );
    // 1 channel + 3 playlist pages + 3 details batches: the whole channel was read.
    assert.equal(t.fake.quotaUsed(), 7);
    assert.equal(body.itemCount, 10);
    assert.equal(body.creditsCharged, 3, 'priced by the 140 shorts read, not the 10 returned');
    assert.equal((await balance(user)).balance, 97);

    // The same channel read whole answers every sort from the cache: no upstream calls, same price.
    const whole = await call(user, { channelUrl: channel('@fake-140') });
    const all = whole.json().data.shorts as S[];
    const ranked = [...all].sort((a, b) => {
      const d = BigInt(b.statistics.viewCount!) - BigInt(a.statistics.viewCount!);
      return d !== 0n
        ? d > 0n
          ? 1
          : -1
        : parseTimestamp(b.snippet.publishedAt)! - parseTimestamp(a.snippet.publishedAt)!;
    });
    assert.deepEqual(
      (body.data.shorts as S[]).map((s) => s.id),
      ranked.slice(0, 10).map((s) => s.id),
    );
    t.fake.resetStats();
    const oldest = await call(user, { channelUrl: channel('@fake-140'), sort: 'oldest', limit: 5 });
    assert.equal(oldest.statusCode, 200);
    assert.equal(t.fake.quotaUsed(), 0);
    assert.deepEqual(
      (oldest.json().data.shorts as S[]).map((s) => s.id),
      all
        .slice(-5)
        .reverse()
        .map((s) => s.id),
    );
    assert.equal(oldest.json().creditsCharged, 3);
    const newest = await call(user, { channelUrl: channel('@fake-140'), sort: 'newest', limit: 5 });
    assert.deepEqual(
      (newest.json().data.shorts as S[]).map((s) => s.id),
      all.slice(0, 5).map((s) => s.id),
    );
    assert.equal(newest.json().creditsCharged, 1, 'newest with a limit is priced by what it returns');
    assert.equal(t.fake.quotaUsed(), 0);
  });

  it('reserves for the whole read: a balance that covers the limit but not the channel gets 402 quoting the price', async () => {
    const user = await createUser(t, 2);
    const res = await call(user, { channelUrl: channel('@fake-141'), sort: 'oldest', limit: 1 });
    assert.equal(res.statusCode, 402, res.body);
    assert.match(res.json().message, /141 shorts; reading all of them costs 3 credits/);
    assert.deepEqual(await balance(user), { balance: 2, reserved: 0, available: 2 });
  });

  it('duration filters apply after the read: bounds inclusive, price unchanged', async () => {
    const user = await createUser(t, 100);
    const whole = (await call(user, { channelUrl: channel('@fake-142') })).json().data.shorts as S[];
    const res = await call(user, { channelUrl: channel('@fake-142'), minDurationSeconds: 30, maxDurationSeconds: 90 });
    assert.equal(res.statusCode, 200, res.body);
    const kept = res.json().data.shorts as S[];
    assert.deepEqual(
      kept.map((s) => s.id),
      whole.filter((s) => s.durationSeconds! >= 30 && s.durationSeconds! <= 90).map((s) => s.id),
    );
    assert.ok(kept.length > 0 && kept.length < whole.length);
    assert.equal(res.json().creditsCharged, 3);
    const exact = whole[0]!.durationSeconds!;
    const pinned = await call(user, {
      channelUrl: channel('@fake-142'),
      minDurationSeconds: exact,
      maxDurationSeconds: exact,
      limit: 1,
      sort: 'newest',
    });
    assert.equal((pinned.json().data.shorts as S[])[0]!.id, whole[0]!.id);
  });

  it('refuses bad input with a message that says what is accepted', async () => {
    const user = await createUser(t, 100);
    const cases: Array<[object, RegExp]> = [
      [{ sort: 'views' }, /sort must be one of newest, oldest, popular/],
      [{ minDurationSeconds: -1 }, /minDurationSeconds must be >= 0/],
      [{ maxDurationSeconds: 1.5 }, /maxDurationSeconds/],
      [
        { minDurationSeconds: 61, maxDurationSeconds: 60 },
        /minDurationSeconds \(61\) must not be greater than maxDurationSeconds \(60\)/,
      ],
    ];
    for (const [extra, message] of cases) {
      const res = await call(user, { channelUrl: channel('@demo'), ...extra });
      assert.equal(res.statusCode, 400, JSON.stringify(extra));
      assert.equal(res.json().success, false);
      assert.equal(res.json().error, 'VALIDATION_FAILED');
      assert.match(res.json().message, message);
      assert.ok(res.json().requestId);
    }
    assert.equal((await balance(user)).balance, 100);
  });

  it('store: true keeps a synchronous result, readable page by page until retention ends (then 410)', async (ctx) => {
    const user = await createUser(t, 100);
    const res = await call(user, { channelUrl: channel('@demo'), store: true });
    assert.equal(res.statusCode, 200);
    const { requestId, data } = res.json();
    const page = (query: string, who = user) =>
      t.app.inject({ method: 'GET', url: `${SHORTS}/${requestId}/items${query}`, headers: bearer(who.key) });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await page(`?pageSize=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(r.statusCode, 200, r.body);
      const body = r.json();
      assert.equal(body.totalItems, 120);
      assert.equal(body.retentionDays, 7);
      assert.equal(body.data.channel.id, data.channel.id);
      assert.ok(Date.parse(body.expiresAt) > Date.now() + 6 * DAY);
      seen.push(...body.data.shorts.map((s: S) => s.id));
      assert.equal(body.itemCount, body.data.shorts.length);
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(
      seen,
      data.shorts.map((s: S) => s.id),
    );
    const first = (await page('')).json();
    assert.equal(first.itemCount, 100, 'default page size');

    // Bad cursors and page sizes say what is accepted.
    for (const [query, message] of [
      ['?cursor=bm9wZQ', /cursor is not valid for this request/],
      ['?cursor=%%%', /cursor/],
      ['?pageSize=501', /pageSize must be <= 500/],
      ['?pageSize=0', /pageSize must be >= 1/],
      // Only a whole number written in decimal (before: 1.5, true and 0x10 were taken as 1, 1 and 16).
      ['?pageSize=1.5', /pageSize must be integer/],
      ['?pageSize=true', /pageSize must be integer/],
      ['?pageSize=0x10', /pageSize must be integer/],
    ] as const) {
      const r = await page(query);
      assert.equal(r.statusCode, 400, query);
      assert.match(r.json().message, message);
      assert.equal(r.json().success, false);
    }
    // A cursor of another request is refused.
    const other = (await call(user, { channelUrl: channel('@sparse'), store: true })).json().requestId;
    const foreignCursor = (
      await t.app.inject({ method: 'GET', url: `${SHORTS}/${other}/items?pageSize=1`, headers: bearer(user.key) })
    ).json().nextCursor;
    assert.equal((await page(`?cursor=${foreignCursor}`)).statusCode, 400);
    // Someone else's request does not exist for this caller.
    assert.equal((await page('', await createUser(t, 1))).statusCode, 404);

    // Without store: the result was not kept.
    const plain = (await call(user, { channelUrl: channel('@demo') })).json().requestId;
    const notKept = await t.app.inject({ method: 'GET', url: `${SHORTS}/${plain}/items`, headers: bearer(user.key) });
    assert.equal(notKept.statusCode, 409);
    assert.match(notKept.json().message, /without store: true/);

    // A webhook request (settled here by calling the worker's use case directly: this app runs no worker).
    const hook = (
      await call(user, { channelUrl: channel('@sparse'), webhookUrl: 'http://127.0.0.1:9/h', sort: 'oldest' })
    ).json().requestId;
    assert.equal((await processQueuedRequest(t.services.shortsRequests, hook, async () => {})).state, 'settled');
    const hookPage = await t.app.inject({ method: 'GET', url: `${SHORTS}/${hook}/items`, headers: bearer(user.key) });
    assert.equal(hookPage.json().totalItems, 5);
    const times = hookPage.json().data.shorts.map((s: S) => parseTimestamp(s.snippet.publishedAt)!);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
      'the stored result keeps the order asked for',
    );

    // Eight days later (injected clock): 410, and the hourly purge drops the data.
    shift = 8 * DAY;
    ctx.after(() => {
      shift = 0;
    });
    const redeliver = await t.app.inject({
      method: 'POST',
      url: `${SHORTS}/${hook}/redeliver`,
      headers: bearer(user.key),
    });
    assert.equal(redeliver.statusCode, 410);
    assert.match(redeliver.json().message, /can no longer be redelivered/);
    const gone = await page('');
    assert.equal(gone.statusCode, 410);
    assert.equal(gone.json().error, 'RESULT_EXPIRED');
    assert.match(gone.json().message, /kept for 7 days \(RESULT_RETENTION_DAYS\)/);
    assert.ok((await purgeExpiredResults(t.services.db, 7, Date.now() + shift)) >= 2);
    const [row] = await t.services.db.query<{ result: Record<string, unknown> }>(
      'SELECT result FROM shorts_requests WHERE id = $1',
      [requestId],
    );
    assert.equal(row!.result.data, undefined);
    assert.equal(row!.result.channelId, data.channel.id);
    assert.equal((await page('')).statusCode, 410);
  });
});

for (const mode of STORAGE_MODES) {
  describe(`batches and stored webhook results (${mode})`, { skip: skipWithout(mode) }, () => {
    const t = useHarness({
      mode,
      env: {
        WEBHOOK_RETRY_SCHEDULE: '0.3,0.3',
        WEBHOOK_TIMEOUT_MS: '2000',
        CACHE_TTL_SECONDS: '0',
        RATE_LIMIT_PER_MINUTE: '1000',
      },
      runWorker: true,
    });
    const batch = (user: TestUser, payload: object) =>
      t.app.inject({ method: 'POST', url: `${SHORTS}/batch`, headers: bearer(user.key), payload });

    it('accepts items as ordinary webhook requests and sends one signed batch.completed summary when all have settled', async (context) => {
      const receiver = await startReceiver();
      context.after(() => receiver.close());
      const user = await createUser(t, 20);
      const res = await batch(user, {
        webhookUrl: receiver.url('/batch'),
        items: [
          { channelUrl: channel('@demo'), sort: 'popular', limit: 5 },
          { channelUrl: channel('@sparse'), maxDurationSeconds: 60 },
          { channelUrl: channel('@nobody-at-all-zzz') },
        ],
      });
      assert.equal(res.statusCode, 202, res.body);
      const accepted = res.json();
      assert.match(accepted.batchId, /^bat_/);
      assert.deepEqual(
        accepted.items.map((i: { channelUrl: string }) => i.channelUrl),
        [channel('@demo'), channel('@sparse'), channel('@nobody-at-all-zzz')],
      );
      const ids = accepted.items.map((i: { requestId: string }) => i.requestId) as string[];
      assert.equal(new Set(ids).size, 3);
      await receiver.waitFor(4, 60_000);
      const secrets = (
        await t.app.inject({ method: 'GET', url: '/accounts/webhook-secret', headers: bearer(user.token) })
      )
        .json()
        .secrets.map((s: { secret: string }) => s.secret) as string[];
      const events = receiver.deliveries.map((d) => verifyWebhook(d.body, d.headers, secrets));
      assert.deepEqual(events.map((e) => e.type).sort(), [
        'batch.completed',
        'shorts.completed',
        'shorts.completed',
        'shorts.failed',
      ]);
      // Deliveries run in parallel: the summary may overtake the last item's own webhook, never its settlement.
      const at = events.findIndex((e) => e.type === 'batch.completed');
      assert.equal(receiver.deliveries[at]!.headers['webhook-id'], `msg_${accepted.batchId}`);
      const summary = events[at]!;
      assert.ok(summary.type === 'batch.completed');
      for (const id of ids) {
        const settled = (
          await t.app.inject({ method: 'GET', url: `${SHORTS}/${id}`, headers: bearer(user.key) })
        ).json().completedAt;
        assert.ok(
          Date.parse(settled) <= Date.parse(summary.data.completedAt!),
          'the batch completes after every item settled',
        );
      }
      assert.equal(summary.data.batchId, accepted.batchId);
      assert.equal(summary.data.status, 'completed');
      assert.deepEqual(summary.data.counts, { total: 3, processing: 0, completed: 2, failed: 1 });
      assert.deepEqual(
        summary.data.items.map((i) => i.requestId),
        ids,
        'in the order sent',
      );
      assert.deepEqual(
        summary.data.items.map((i) => [i.status, i.itemCount, i.creditsCharged, i.error]),
        [
          ['completed', 5, 3, null],
          ['completed', 0, 1, null],
          ['failed', null, 0, 'CHANNEL_NOT_FOUND'],
        ],
      );
      assert.equal(summary.data.creditsCharged, 4);
      const account = (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json()
        .credits;
      assert.deepEqual(account, { balance: 16, reserved: 0, available: 16 });

      // Progress view, with the summary's delivery attempt.
      const status = await until(async () => {
        const r = (
          await t.app.inject({ method: 'GET', url: `${SHORTS}/batch/${accepted.batchId}`, headers: bearer(user.key) })
        ).json();
        return r.deliveries?.length === 1 && r;
      });
      assert.equal(status.status, 'completed');
      assert.equal(status.deliveries[0].webhookId, `msg_${accepted.batchId}`);
      assert.equal(status.deliveries[0].outcome, 'delivered');
      assert.deepEqual(status.items, summary.data.items);
      // Each item is an ordinary request: its record, its stored result, readable page by page.
      const detail = (
        await t.app.inject({ method: 'GET', url: `${SHORTS}/${ids[0]}`, headers: bearer(user.key) })
      ).json();
      assert.equal(detail.batchId, accepted.batchId);
      assert.deepEqual(detail.options, { sort: 'popular' });
      assert.equal(detail.limit, 5);
      const items = (
        await t.app.inject({ method: 'GET', url: `${SHORTS}/${ids[0]}/items?pageSize=2`, headers: bearer(user.key) })
      ).json();
      assert.equal(items.totalItems, 5);
      assert.deepEqual(
        items.data.shorts.map((s: S) => s.id),
        detail.result.data.shorts.slice(0, 2).map((s: S) => s.id),
      );
      const failed = await t.app.inject({ method: 'GET', url: `${SHORTS}/${ids[2]}/items`, headers: bearer(user.key) });
      assert.equal(failed.statusCode, 409);
      assert.equal(
        (
          await t.app.inject({
            method: 'GET',
            url: `${SHORTS}/batch/${accepted.batchId}`,
            headers: bearer((await createUser(t, 1)).key),
          })
        ).statusCode,
        404,
      );

      // The summary can be sent again, same webhook-id, by its owner only (before: it could not be).
      const stranger = await t.app.inject({
        method: 'POST',
        url: `${SHORTS}/batch/${accepted.batchId}/redeliver`,
        headers: bearer((await createUser(t, 1)).key),
      });
      assert.equal(stranger.statusCode, 404);
      const again = await t.app.inject({
        method: 'POST',
        url: `${SHORTS}/batch/${accepted.batchId}/redeliver`,
        headers: bearer(user.key),
      });
      assert.equal(again.statusCode, 202, again.body);
      assert.deepEqual(again.json(), { batchId: accepted.batchId, status: 'queued', attempt: 2 });
      await receiver.waitFor(5, 60_000);
      const resent = receiver.deliveries[4]!;
      assert.equal(resent.headers['webhook-id'], `msg_${accepted.batchId}`);
      assert.deepEqual(verifyWebhook(resent.body, resent.headers, secrets), summary);
      const attempts = await until(async () => {
        const r = (
          await t.app.inject({ method: 'GET', url: `${SHORTS}/batch/${accepted.batchId}`, headers: bearer(user.key) })
        ).json();
        return r.deliveries?.length === 2 && r.deliveries;
      });
      assert.deepEqual(
        attempts.map((d: { attempt: number; outcome: string }) => [d.attempt, d.outcome]),
        [
          [1, 'delivered'],
          [2, 'delivered'],
        ],
      );
    });

    it("lists the account's batches newest first with their progress, in pages", async () => {
      const user = await createUser(t, 20);
      const other = await createUser(t, 20);
      const ids: string[] = [];
      for (const items of [1, 2, 3]) {
        const res = await batch(user, {
          webhookUrl: 'http://127.0.0.1:9/hook',
          items: Array.from({ length: items }, () => ({ channelUrl: channel('@demo'), limit: 1 })),
        });
        assert.equal(res.statusCode, 202, res.body);
        ids.push(res.json().batchId);
      }
      assert.equal(
        (await batch(other, { webhookUrl: 'http://127.0.0.1:9/hook', items: [{ channelUrl: channel('@demo') }] }))
          .statusCode,
        202,
      );
      const list = async (query: string) =>
        t.app.inject({ method: 'GET', url: `${SHORTS}/batch?${query}`, headers: bearer(user.key) });
      const first = await list('limit=2');
      assert.equal(first.statusCode, 200, first.body);
      const page1 = first.json();
      assert.deepEqual(
        page1.batches.map((b: { batchId: string }) => b.batchId),
        [ids[2], ids[1]],
      );
      const newest = page1.batches[0];
      assert.equal(newest.webhookUrl, 'http://127.0.0.1:9/hook');
      assert.equal(newest.counts.total, 3);
      assert.equal(newest.counts.processing + newest.counts.completed + newest.counts.failed, 3);
      assert.equal('items' in newest, false, 'the list leaves the items to GET /batch/{batchId}');
      assert.equal(typeof page1.nextCursor, 'string');
      const page2 = (await list(`limit=2&cursor=${page1.nextCursor}`)).json();
      assert.deepEqual(
        page2.batches.map((b: { batchId: string }) => b.batchId),
        [ids[0]],
      );
      assert.equal(page2.nextCursor, null);
      const bad = await list('cursor=not-a-cursor');
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().message, /cursor is not one this endpoint returned/);
    });

    it('is all or nothing: a balance that cannot reserve every item refuses the batch with 402 and records nothing', async () => {
      const user = await createUser(t, 2);
      const res = await batch(user, {
        webhookUrl: 'http://127.0.0.1:9/hook',
        items: [
          { channelUrl: channel('@demo') },
          { channelUrl: channel('@sparse') },
          { channelUrl: channel('@demo'), limit: 1 },
        ],
      });
      assert.equal(res.statusCode, 402, res.body);
      assert.equal(res.json().success, false);
      assert.match(
        res.json().message,
        /each of its 3 items reserves at least 1 credit when accepted, 3 in all; 2 available\. Nothing was accepted/,
      );
      assert.deepEqual(
        (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json().credits,
        { balance: 2, reserved: 0, available: 2 },
      );
      assert.deepEqual(
        (await t.app.inject({ method: 'GET', url: SHORTS, headers: bearer(user.key) })).json().requests,
        [],
      );
      const [batches] = await t.services.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM shorts_batches WHERE account_id = $1',
        [user.id],
      );
      assert.equal(batches!.n, 0);
    });

    it('refuses empty, oversized and invalid batches with a message that says what is accepted', async () => {
      const user = await createUser(t, 100);
      const item = { channelUrl: channel('@demo') };
      const cases: Array<[object, RegExp]> = [
        [{ webhookUrl: 'http://127.0.0.1:9/h', items: [] }, /items must not have fewer than 1 items/],
        [
          { webhookUrl: 'http://127.0.0.1:9/h', items: Array.from({ length: 51 }, () => item) },
          /items must not have more than 50 items/,
        ],
        [{ items: [item] }, /webhookUrl is required/],
        [
          { webhookUrl: 'http://127.0.0.1:9/h', items: [item, { channelUrl: 'https://example.com/nope' }] },
          /^items\[1\]: /,
        ],
        [
          {
            webhookUrl: 'http://127.0.0.1:9/h',
            items: [item, { channelUrl: channel('@demo'), minDurationSeconds: 9, maxDurationSeconds: 1 }],
          },
          /^items\[1\]: minDurationSeconds \(9\) must not be greater/,
        ],
        [
          { webhookUrl: 'http://127.0.0.1:9/h', items: [{ ...item, sort: 'best' }] },
          /items\.0\.sort must be one of newest, oldest, popular/,
        ],
      ];
      for (const [payload, message] of cases) {
        const res = await batch(user, payload);
        assert.equal(res.statusCode, 400, JSON.stringify(payload).slice(0, 100));
        assert.match(res.json().message, message);
      }
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json().credits.reserved,
        0,
      );
    });
  });
}

describe('a sorted result cut at MAX_SHORTS_PER_REQUEST', () => {
  it('says the ranking covers the newest shorts read, not that it returned the newest', async (ctx) => {
    const t = await harness(ctx, { env: { MAX_SHORTS_PER_REQUEST: '50' } });
    const user = await createUser(t, 10);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(user.key),
      payload: { channelUrl: 'https://www.youtube.com/@demo', sort: 'popular', limit: 5 },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().itemCount, 5);
    assert.equal(res.json().truncated, true);
    assert.match(res.json().message, /sort and duration filters were applied to the newest 50/);
  });
});
