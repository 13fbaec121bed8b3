// The quota economy (docs/quota.md): upstream units spent on behalf of an account never exceed what
// its credits pay for plus its daily allowance; the key pool; stale serving; the negative cache;
// `limit`; closed and suspended channels.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  createUser,
  bearer,
  clearOfQuotaDayEnd,
  STORAGE_MODES,
  type TestApp,
  type TestUser,
  skipWithout,
} from './helpers/test-app.ts';
import { harness, useHarness, type Harness } from './helpers/harness.ts';
import type { Account } from '../src/contract/accounts.ts';
import { until } from '../support/webhook-receiver.ts';
import { quotaDay, nextQuotaDayStart } from '../src/domain/quota/quota-day.ts';
import { chargeAndRecord } from '../src/domain/requests/charge-and-record.ts';

/**
 * A service clock two minutes or more from the end of the quota day (midnight in Los Angeles): the
 * daily allowance and the keys' budgets start again then, and a test whose calls straddled it would
 * see its units split over two days.
 */
const clearOfQuotaDay = (): (() => number) => {
  const skew = clearOfQuotaDayEnd(Date.now(), 120_000);
  return () => Date.now() + skew;
};

const SHORTS = '/api/youtube/shorts';
const channel = (path: string) => `https://www.youtube.com/${path}`;
const UNITS_PER_CREDIT = 4;
const ALLOWANCE = 50;

const post = (t: TestApp, user: TestUser, payload: object) =>
  t.app.inject({ method: 'POST', url: SHORTS, headers: bearer(user.key), payload });
const account = async (t: Harness, user: TestUser) => (await t.as(user).get<Account>('/accounts')).body;

for (const mode of STORAGE_MODES) {
  describe(`quota invariant under concurrency (${mode})`, { skip: skipWithout(mode) }, () => {
    const t = useHarness(() => ({
      mode,
      env: { RATE_LIMIT_PER_MINUTE: '10000', RATE_LIMIT_PER_HOUR: '10000' },
      runWorker: true,
      now: clearOfQuotaDay(),
    }));

    it('a 1-credit account firing at large channels spends at most what 1 credit pays for plus its allowance', async () => {
      const user = await createUser(t, 1);
      const receiver = await t.receiver();
      t.fake.resetStats();
      // 60 synchronous calls for distinct 1,000-short channels and 40 webhook requests, all at once.
      const sync = Array.from({ length: 60 }, (_, i) => post(t, user, { channelUrl: channel(`@fake-${1000 + i}`) }));
      const hooks = Array.from({ length: 40 }, (_, i) =>
        post(t, user, { channelUrl: channel(`@fake-${2000 + i}`), webhookUrl: receiver.url(`/h/${i}`) }),
      );
      const answers = await Promise.all([...sync, ...hooks]);
      const statuses = answers.map((r) => r.statusCode);
      assert.ok(
        statuses.every((s) => [202, 402, 429].includes(s)),
        `statuses: ${[...new Set(statuses)].join(',')}`,
      );
      // A webhook request holds its minimum price from acceptance until it settles, so two are never
      // held at once on a balance of 1. Workers start queued work at once, so one can settle
      // (refused for its 20-credit price, hold released) before the next arrives and that one is
      // accepted too: acceptances over time may exceed 1; completions may not.
      const accepted = statuses.filter((s) => s === 202).length;
      // Let every accepted webhook request settle.
      await until(async () => (await account(t, user)).credits.reserved === 0 || undefined);
      const after = await account(t, user);
      const paid = 1 - after.credits.balance;
      const webhookRequests = (
        await t.app.inject({ method: 'GET', url: `${SHORTS}?mode=webhook&limit=200`, headers: bearer(user.key) })
      ).json().requests as Array<{ status: string }>;
      assert.equal(webhookRequests.length, accepted, 'every accepted webhook request is recorded');
      assert.ok(
        webhookRequests.filter((r) => r.status === 'completed').length <= 1,
        'a balance of 1 pays for at most one webhook request',
      );
      assert.ok(
        t.fake.quotaUsed() <= paid * UNITS_PER_CREDIT + ALLOWANCE,
        `units ${t.fake.quotaUsed()} > ${paid} credits + allowance`,
      );
      assert.equal(after.upstreamQuota.unitsToday, t.fake.quotaUsed(), 'every unit is accounted to the account');
      assert.ok(after.upstreamQuota.allowance.used <= ALLOWANCE);
      // Each refused 1,000-short channel was refused after its 2-unit probe, with the price quoted.
      const refused = answers.find((r) => r.statusCode === 402 && /1000 shorts/.test(r.json().message));
      if (refused) assert.match(refused.json().message, /20 credits/);
    });

    it('paying accounts are unaffected by another account exhausting its allowance', async () => {
      const abuser = await createUser(t, 100);
      const payer = await createUser(t, 100);
      const lookups = await Promise.all(
        Array.from({ length: 50 }, (_, i) => post(t, abuser, { channelUrl: channel(`@nobody-${mode}-${i}`) })),
      );
      assert.ok(
        lookups.every((r) => r.statusCode === 404),
        JSON.stringify(lookups.filter((r) => r.statusCode !== 404).map((r) => r.body)),
      );
      const refused = await post(t, abuser, { channelUrl: channel('@nobody-else') });
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.json().error, 'QUOTA_ALLOWANCE_EXHAUSTED');
      assert.ok(Number(refused.headers['retry-after']) > 0);
      assert.equal((await account(t, abuser)).upstreamQuota.allowance.remaining, 0);
      t.fake.resetStats();
      const ok = await post(t, payer, { channelUrl: channel('@fake-120') });
      assert.equal(ok.statusCode, 200, ok.body);
      // Its units are counted on its quota day as paid (by the statement that charges it), none left unpaid.
      const quota = (await account(t, payer)).upstreamQuota;
      assert.equal(quota.unitsToday, t.fake.quotaUsed());
      assert.ok(quota.unitsToday > 0);
      assert.equal(quota.allowance.used, 0);
    });

    it("a paying account's burst of cold requests is not refused for the allowance its own probes hold in flight", async () => {
      // Before: 50 at once each took 1 unit of the 50-unit allowance for its first call, found none
      // for its second, and failed 429 — the allowance then spent for the day, the credits untouched.
      const payer = await createUser(t, 1000);
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => post(t, payer, { channelUrl: channel(`@fake-${300 + i}`) })),
      );
      assert.deepEqual(
        [...new Set(answers.map((r) => r.statusCode))],
        [200],
        JSON.stringify(answers.filter((r) => r.statusCode !== 200).map((r) => r.body)).slice(0, 500),
      );
      const { allowance } = (await account(t, payer)).upstreamQuota;
      assert.equal(allowance.used, 0, 'every probe paid: the allowance is whole');
      assert.equal((await post(t, payer, { channelUrl: channel('@fake-299') })).statusCode, 200);
    });

    it('the statement that charges a request counts its paid units, once, and nothing when the charge is refused', async () => {
      const user = await createUser(t, 2);
      const day = '2001-02-03';
      const settle = (credits: number, units: number, n: number) =>
        chargeAndRecord(
          t.services.db,
          {
            request: {
              id: `req_paidunits_${mode}_${n}`,
              accountId: user.id,
              apiKeyId: null,
              channelUrl: channel('@fake-10'),
              oldestDate: null,
              limit: null,
              freshness: null,
              webhookUrl: null,
              options: {},
            },
            credits,
            outcome: {
              status: 'completed',
              httpStatus: 200,
              itemCount: 10,
              creditsCharged: credits,
              errorCode: null,
              result: { success: true },
              quotaUnits: units,
            },
          },
          { paidUnits: { day, units } },
        );
      const counted = async () =>
        (
          await t.services.db.query<{ units: number; unpaid_units: number }>(
            'SELECT units, unpaid_units FROM account_quota_days WHERE account_id = $1 AND quota_day = $2',
            [user.id, day],
          )
        )[0];
      await assert.rejects(settle(3, 7, 1), { code: 'INSUFFICIENT_CREDITS' });
      assert.equal(await counted(), undefined, 'refused: nothing counted');
      assert.equal(await settle(1, 7, 2), 1);
      assert.deepEqual(await counted(), { units: 7, unpaid_units: 0 }, 'a new quota day');
      assert.equal(await settle(1, 3, 3), 0);
      assert.deepEqual(await counted(), { units: 10, unpaid_units: 0 }, 'added to the day');
    });

    it('a balance of 5 accepts exactly 5 webhook requests and refuses the rest at once with 402', async () => {
      const user = await createUser(t, 5);
      const receiver = await t.receiver();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          post(t, user, { channelUrl: channel('@fake-10'), webhookUrl: receiver.url(`/w/${i}`) }),
        ),
      );
      assert.equal(answers.filter((r) => r.statusCode === 202).length, 5);
      const refused = answers.filter((r) => r.statusCode === 402);
      assert.equal(refused.length, 15);
      assert.match(refused[0]!.json().message, /reserved when it is accepted/);
      await receiver.waitFor(5);
      await until(async () => (await account(t, user)).credits.reserved === 0 || undefined);
      const after = await account(t, user);
      assert.equal(after.credits.balance, 0);
      for (const delivery of receiver.deliveries) assert.equal(JSON.parse(delivery.body).type, 'shorts.completed');
    });

    it('stops reading a window at what the balance pays for, charging no more than it holds', async () => {
      const user = await createUser(t, 3);
      t.fake.resetStats();
      const res = await post(t, user, { channelUrl: channel('@fake-900'), oldestDate: 0 });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.truncated, true);
      assert.match(body.message, /available credits paid for reading the newest/);
      assert.ok(body.creditsCharged <= 3);
      assert.equal(body.itemCount, 150);
      assert.ok(t.fake.quotaUsed() <= 3 * UNITS_PER_CREDIT, `${t.fake.quotaUsed()} units for 3 credits`);
      assert.equal((await account(t, user)).credits.balance, 3 - body.creditsCharged);
    });

    it('a sorted read the balance stopped says how many shorts it ranked', async () => {
      const user = await createUser(t, 3);
      const res = await post(t, user, { channelUrl: channel('@fake-900'), oldestDate: 0, sort: 'oldest', limit: 3 });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.deepEqual([body.truncated, body.itemCount], [true, 3]);
      assert.match(
        body.message,
        /paid for reading the newest 150 shorts; older ones were not read, so the sort and duration filters were applied to those 150 only/,
      );
    });
  });
}

describe('price follows upstream work: limit', () => {
  const t = useHarness(() => ({
    env: { CACHE_TTL_SECONDS: '0', MAX_SHORTS_PER_REQUEST: '500' },
    now: clearOfQuotaDay(),
  }));

  const cases: Array<[number, number, number]> = [
    // limit, shorts returned, units (channel + pages + details batches)
    [1, 1, 3],
    [50, 50, 3],
    [51, 51, 5],
    [100, 100, 5],
    [500, 120, 7],
  ];
  for (const [limit, items, units] of cases) {
    it(`limit ${limit}: ${items} shorts, newest first, ${units} units`, async () => {
      const user = await createUser(t, 100);
      t.fake.resetStats();
      const res = await post(t, user, { channelUrl: channel('@demo'), limit });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().itemCount, items);
      assert.equal(res.json().truncated, false);
      assert.equal(res.json().creditsCharged, Math.ceil(items / 50));
      assert.equal(t.fake.quotaUsed(), units);
      assert.equal(res.json().data.shorts[0].snippet.title, 'Demo Channel short #120');
    });
  }

  it('refuses a limit outside 1..MAX_SHORTS_PER_REQUEST with 400 and a message that says what is accepted', async () => {
    const user = await createUser(t, 10);
    for (const limit of [0, -1, 501, 1.5, 'ten']) {
      const res = await post(t, user, { channelUrl: channel('@demo'), limit });
      assert.equal(res.statusCode, 400, `limit ${String(limit)}`);
      assert.equal(res.json().success, false);
      assert.equal(res.json().error, 'VALIDATION_FAILED');
    }
    assert.match((await post(t, user, { channelUrl: channel('@demo'), limit: 501 })).json().message, /1 to 500/);
    assert.equal((await account(t, user)).credits.balance, 10);
  });

  it('knows the price after the first page and refuses with 402 before reading the rest', async () => {
    const user = await createUser(t, 2);
    t.fake.resetStats();
    const res = await post(t, user, { channelUrl: channel('@fake-400') });
    assert.equal(res.statusCode, 402);
    assert.match(res.json().message, /has 400 shorts; reading all of them costs 8 credits; 2 available/);
    assert.equal(t.fake.quotaUsed(), 2, 'one channels.list and one playlist page');
    const after = await account(t, user);
    assert.equal(after.credits.balance, 2);
    assert.equal(after.upstreamQuota.allowance.used, 2);
    // The same channel with a limit the balance covers works.
    const limited = await post(t, user, { channelUrl: channel('@fake-400'), limit: 100 });
    assert.equal(limited.statusCode, 200, limited.body);
    assert.equal(limited.json().creditsCharged, 2);
  });
});

describe('resolution: negative cache, cheaper strategies, closed channels', () => {
  const t = useHarness(() => ({
    fake: {
      channels: [
        { handle: 'closedone', shortsCount: 5, status: 'closed' },
        { handle: 'suspendedone', shortsCount: 5, status: 'suspended' },
        { handle: 'modernhandle', username: 'LegacyName', customUrl: '@modernhandle', shortsCount: 4 },
        { handle: 'vanityrenamed', customUrl: 'someoldvanity', shortsCount: 2 },
      ],
    },
    now: clearOfQuotaDay(),
  }));

  it('remembers an address that resolved to nothing: the repeat costs no quota', async () => {
    const user = await createUser(t, 10);
    t.fake.resetStats();
    const first = await post(t, user, { channelUrl: channel('@no-such-channel-here') });
    assert.equal(first.statusCode, 404);
    assert.equal(t.fake.quotaUsed(), 1);
    const again = await Promise.all(
      Array.from({ length: 5 }, () => post(t, user, { channelUrl: channel('@no-such-channel-here') })),
    );
    assert.ok(again.every((r) => r.statusCode === 404 && r.json().error === 'CHANNEL_NOT_FOUND'));
    assert.equal(t.fake.quotaUsed(), 1, 'negative cache');
    assert.equal((await account(t, user)).upstreamQuota.allowance.used, 1);
  });

  it('a channel id differing only in case is another channel: its "not found" does not hide the real one', async () => {
    const user = await createUser(t, 10);
    const real = (await post(t, user, { channelUrl: channel('@demo'), limit: 1 })).json().data.channel.id as string;
    const flipped = real.replace(/[a-z]/, (c) => c.toUpperCase());
    assert.notEqual(flipped, real);
    assert.equal((await post(t, user, { channelUrl: channel(`channel/${flipped}`), limit: 1 })).statusCode, 404);
    const again = await post(t, user, { channelUrl: channel(`channel/${real}`), limit: 2 }); // not cached: read upstream
    assert.equal(again.statusCode, 200, again.body);
  });

  it('resolves concurrent lookups of one unknown address with one upstream call (single-flight)', async () => {
    const user = await createUser(t, 10);
    t.fake.resetStats();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post(t, user, { channelUrl: channel('@fake-7') })),
    );
    assert.ok(answers.every((r) => r.statusCode === 200));
    assert.equal(t.fake.calls().filter((c) => c.endpoint === 'channels').length, 1);
  });

  it('tries /c/ names as a handle, then as a legacy username, and skips the 101-unit search beyond the allowance', async () => {
    const user = await createUser(t, 10);
    t.fake.resetStats();
    const byUsername = await post(t, user, { channelUrl: channel('c/LegacyName') });
    assert.equal(byUsername.statusCode, 200, byUsername.body);
    assert.equal(byUsername.json().data.channel.snippet.customUrl, '@modernhandle');
    assert.deepEqual(
      t.fake.calls().map((c) => Object.keys(c.params).find((k) => k === 'forHandle' || k === 'forUsername')),
      ['forHandle', 'forUsername', undefined, undefined],
    );
    t.fake.resetStats();
    const vanity = await post(t, user, { channelUrl: channel('c/someoldvanity') });
    assert.equal(vanity.statusCode, 404);
    assert.match(vanity.json().message, /search \(101 units\)/);
    assert.ok(!t.fake.calls().some((c) => c.endpoint === 'search'), 'no search.list within a 50-unit allowance');
    assert.equal(t.fake.quotaUsed(), 2);
  });

  it('answers 404 CHANNEL_NOT_FOUND for closed and suspended channels (403 upstream)', async () => {
    const user = await createUser(t, 10);
    for (const [handle, why] of [
      ['closedone', /closed/],
      ['suspendedone', /suspended/],
    ] as const) {
      const res = await post(t, user, { channelUrl: channel(`@${handle}`) });
      assert.equal(res.statusCode, 404, res.body);
      assert.equal(res.json().error, 'CHANNEL_NOT_FOUND');
      assert.match(res.json().message, why);
    }
    assert.equal((await account(t, user)).credits.balance, 10);
  });
});

describe('key pool and quota day', () => {
  // 2026-11-23 10:00 in Los Angeles.
  let clock = Date.parse('2026-11-23T18:00:00Z');
  const t = useHarness({
    fake: { apiKeys: { 'key-small': 7, 'key-big': 100_000 } },
    env: {
      YOUTUBE_API_KEY: '',
      YOUTUBE_API_KEYS: 'key-bad,key-small,key-big',
      YOUTUBE_KEY_DAILY_UNITS: '10000',
      YOUTUBE_KEY_RESERVE_UNITS: '0',
      CACHE_TTL_SECONDS: '0',
      RATE_LIMIT_PER_MINUTE: '1000',
    },
    now: () => clock,
  });

  const keyMetrics = async () => {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    return Object.fromEntries(
      [...text.matchAll(/upstream_key_units_remaining\{key="(\d):[0-9a-f]{8}",state="(\w+)"\} (\d+)/g)].map((m) => [
        m[1],
        `${m[2]} ${m[3]}`,
      ]),
    );
  };

  it('takes a rejected key out, moves on when a key runs out, and reports both', async () => {
    const user = await createUser(t, 1000);
    for (let i = 0; i < 4; i++) assert.equal((await post(t, user, { channelUrl: channel('@demo') })).statusCode, 200);
    assert.equal(t.fake.quotaUsed('key-small'), 7, 'the first call of the second request found key-small out of quota');
    assert.ok(t.fake.quotaUsed('key-big') >= 21);
    const ready = (await t.app.inject({ method: 'GET', url: '/readyz' })).json();
    assert.deepEqual(ready.upstream, { status: 'degraded', keys: { active: 1, exhausted: 1, invalid: 1 } });
    const states = await keyMetrics();
    assert.match(states['1']!, /^invalid 0$/);
    assert.match(states['2']!, /^exhausted 0$/);
    assert.match(states['3']!, /^active \d+$/);
  });

  it('gives the resting key back at midnight America/Los_Angeles', async () => {
    const user = await createUser(t, 100);
    assert.equal(quotaDay(clock), '2026-11-23');
    clock = nextQuotaDayStart(clock) + 1000; // 2026-11-24 00:00:01 in Los Angeles = 08:00:01 UTC
    t.fake.resetStats();
    assert.equal((await post(t, user, { channelUrl: channel('@demo') })).statusCode, 200);
    assert.equal(t.fake.quotaUsed('key-small'), 7, 'key-small serves again on the new quota day');
    const states = await keyMetrics();
    assert.match(states['2']!, /^active 9993$/);
  });

  it("stops at each key's own budget without waiting for the platform to refuse", async (ctx) => {
    const app = await harness(ctx, {
      fake: { apiKeys: { a: 100_000, b: 100_000 } },
      env: {
        YOUTUBE_API_KEY: '',
        YOUTUBE_API_KEYS: 'a,b',
        YOUTUBE_KEY_DAILY_UNITS: '20',
        YOUTUBE_KEY_RESERVE_UNITS: '6',
        CACHE_TTL_SECONDS: '0',
      },
      now: clearOfQuotaDay(),
    });
    const local = app.fake;
    const user = await createUser(app, 100);
    for (let i = 0; i < 4; i++) assert.equal((await post(app, user, { channelUrl: channel('@demo') })).statusCode, 200);
    assert.equal(local.quotaUsed('a'), 14, 'a budget of 20 with 6 held back');
    assert.equal(local.quotaUsed('b'), 14);
    // A channel never read (nothing stale to serve).
    const spent = await post(app, user, { channelUrl: channel('@fake-11') });
    assert.equal(spent.statusCode, 503, spent.body);
    assert.equal(spent.json().error, 'UPSTREAM_QUOTA_EXHAUSTED');
    assert.ok(Number(spent.headers['retry-after']) > 0);
    assert.equal(local.quotaUsed(), 28, 'no call beyond the budgets');
  });
});

describe('stale serving when no key has quota left', () => {
  it('serves any earlier result marked stale with its fetchedAt; 503 with Retry-After for channels never read', async (ctx) => {
    let clock = Date.parse('2026-11-23T18:00:00Z');
    const t = await harness(ctx, { env: { CACHE_TTL_SECONDS: '300' }, now: () => clock });
    const { fake } = t;
    const user = await createUser(t, 100);
    const fresh = await post(t, user, { channelUrl: channel('@demo') });
    assert.equal(fresh.statusCode, 200);
    assert.equal(fresh.json().fetchedAt, '2026-11-23T18:00:00.000Z');
    assert.equal((await post(t, user, { channelUrl: channel('@fake-80'), limit: 5 })).statusCode, 200);
    clock += 3600_000;
    fake.injectFault({ kind: 'quotaExceeded', endpoint: '*', times: Infinity });
    // An hour later the 5-minute cache has expired: only the stale copy is left.
    const windowed = await post(t, user, { channelUrl: channel('@demo'), oldestDate: 0 });
    assert.equal(windowed.statusCode, 200, windowed.body);
    assert.equal(windowed.json().stale, true);
    assert.equal(windowed.json().itemCount, 120);
    const stale = await post(t, user, { channelUrl: channel('@demo'), limit: 10 });
    assert.equal(stale.statusCode, 200, stale.body);
    assert.equal(stale.json().stale, true);
    assert.equal(stale.json().itemCount, 10);
    assert.equal(stale.json().fetchedAt, '2026-11-23T18:00:00.000Z');
    assert.match(stale.json().message, /quota is spent for today/);
    // A copy serves only what it covers (before: the copy of a window answered a limit with
    // every short of the window; a copy of 5 answered the whole channel with 5, truncated false).
    const fewer = await post(t, user, { channelUrl: channel('@fake-80'), limit: 3 });
    assert.deepEqual([fewer.statusCode, fewer.json().stale, fewer.json().itemCount], [200, true, 3]);
    const more = await post(t, user, { channelUrl: channel('@fake-80') });
    assert.deepEqual(
      [more.statusCode, more.json().error],
      [503, 'UPSTREAM_QUOTA_EXHAUSTED'],
      'a copy of 5 cannot answer for all 80',
    );
    const same = await post(t, user, { channelUrl: channel('@fake-80'), limit: 5 });
    assert.deepEqual([same.statusCode, same.json().stale, same.json().itemCount], [200, true, 5]);
    const never = await post(t, user, { channelUrl: channel('@fake-33') });
    assert.equal(never.statusCode, 503);
    assert.equal(never.json().error, 'UPSTREAM_QUOTA_EXHAUSTED');
    assert.equal(Number(never.headers['retry-after']), Math.ceil((nextQuotaDayStart(clock) - clock) / 1000));
    assert.equal((await account(t, user)).credits.reserved, 0);
  });
});

describe('a call the request cannot pay for costs the key nothing', () => {
  it("an account refused for its spent allowance leaves the key's count at what the platform served", async (ctx) => {
    const t = await harness(ctx, {
      env: {
        YOUTUBE_SOURCE: 'data-api',
        CACHE_TTL_SECONDS: '0',
        RATE_LIMIT_PER_MINUTE: '1000',
        QUOTA_ALLOWANCE_UNITS: '6',
      },
      now: clearOfQuotaDay(),
    });
    const { fake } = t;
    const user = await createUser(t, 1);
    // Unknown channel ids: 1 unpaid unit each, until the allowance is spent.
    for (let i = 0; ; i++) {
      assert.ok(i < 20, 'the allowance runs out');
      const res = await post(t, user, { channelUrl: channel(`channel/UC${String(i).padStart(22, '0')}`) });
      if (res.statusCode === 429) break;
      assert.equal(res.json().error, 'CHANNEL_NOT_FOUND');
    }
    const served = fake.quotaUsed();
    // Uncached reads (each limit its own), all refused before their first call was sent.
    for (let n = 1; n <= 10; n++) {
      const res = await post(t, user, { channelUrl: channel('@fake-40'), limit: n });
      assert.deepEqual([res.statusCode, res.json().error], [429, 'QUOTA_ALLOWANCE_EXHAUSTED']);
    }
    assert.equal(fake.quotaUsed(), served, 'nothing was sent');
    const [key] = await t.services.keyPool.status();
    assert.equal(key!.unitsUsed, served, "the key's count is what the platform served");
  });
});

describe("a key Google's front end refuses for its restrictions", () => {
  it('gives way to the next key: API_KEY_HTTP_REFERRER_BLOCKED in the ErrorInfo marks the key invalid', async (ctx) => {
    const t = await harness(ctx, {
      fake: { apiKeys: { 'browser-key': 100_000, 'server-key': 100_000 } },
      env: {
        YOUTUBE_SOURCE: 'data-api',
        YOUTUBE_API_KEY: '',
        YOUTUBE_API_KEYS: 'browser-key,server-key',
        CACHE_TTL_SECONDS: '0',
      },
      now: clearOfQuotaDay(),
    });
    const { fake } = t;
    const user = await createUser(t, 10);
    fake.injectFault({ kind: 'keyRestricted', endpoint: '*', times: 1 });
    const res = await post(t, user, { channelUrl: channel('@demo'), limit: 5 });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(fake.quotaUsed('browser-key'), 0);
    assert.ok(fake.quotaUsed('server-key') > 0);
    const states = await t.services.keyPool.status();
    assert.deepEqual(
      states.map((k) => k.state),
      ['invalid', 'active'],
    );
    assert.match(states[0]!.invalidReason ?? '', /API_KEY_HTTP_REFERRER_BLOCKED/);
  });
});

describe("a committed request that fails on the service's own side", () => {
  it("counts its units as the service's loss, not against the account's allowance; a platform failure still counts as unpaid", async (ctx) => {
    const t = await harness(ctx, { fake: false, env: { OPERATOR_TOKEN: 'o'.repeat(40) }, now: clearOfQuotaDay() });
    const { QuotaMeter } = await import('../src/domain/quota/quota-meter.ts');
    const { AppError } = await import('../src/errors.ts');
    const user = await createUser(t, 100);
    const settings = {
      unitsPerCredit: 4,
      allowanceUnits: 50,
      pricing: { shortsPerBlock: 50, creditsPerBlock: 1, minimumCredits: 1 },
    };
    const run = async (requestId: string, cause: unknown) => {
      const meter = await QuotaMeter.open({
        db: t.services.db,
        accountId: user.id,
        requestId,
        settings,
        now: t.services.shortsRequests.now,
        reservationExpiresAt: new Date(Date.now() + 60_000),
      });
      await meter.take(2); // the probe
      await meter.commit(2, 'test');
      await meter.take(3); // paid
      await meter.finishUnpaid(cause);
    };
    const day = async () =>
      (
        await t.services.db.query<{ units: number; unpaid_units: number; lost_units: number }>(
          'SELECT units, unpaid_units, lost_units FROM account_quota_days WHERE account_id = $1',
          [user.id],
        )
      )[0];
    await run('req_own_failure', Object.assign(new Error('Connection terminated unexpectedly'), { code: '57P01' }));
    assert.deepEqual({ ...(await day()) }, { units: 5, unpaid_units: 0, lost_units: 5 });
    await run(
      'req_platform_failure',
      new AppError('UPSTREAM_ERROR', 'The video platform answered videos with HTTP 500'),
    );
    assert.deepEqual({ ...(await day()) }, { units: 10, unpaid_units: 5, lost_units: 5 });
    const operator = await t.app.inject({
      method: 'GET',
      url: '/operator/quota',
      headers: { authorization: `Bearer ${'o'.repeat(40)}` },
    });
    assert.equal(operator.json().lostUnits, 5, operator.body);
  });
});

describe('a synchronous request still running when a stopping server cuts its connections', () => {
  it("is not charged: it fails on the service's side, its units are the service's loss", async (ctx) => {
    const t = await harness(ctx, {
      fake: { latencyMs: 200 },
      env: { CACHE_TTL_SECONDS: '0', OPERATOR_TOKEN: 'o'.repeat(40), MAX_SHORTS_PER_REQUEST: '500' },
      now: clearOfQuotaDay(),
    });
    const { fake } = t;
    const user = await createUser(t, 100);
    const answer = t.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(user.key),
      payload: { channelUrl: 'https://www.youtube.com/@fake-400' },
    });
    // The cut comes while the platform is being read past the probe (each answer takes 200 ms),
    // and the stopping service closes its upstream client, as server.ts does: the next call fails
    // on our side (before: that failure was the platform's 502, against the allowance).
    await until(async () => fake.calls().length >= 4, 20_000, 5);
    t.services.connectionsCut.abort();
    await t.services.youtube.close();
    const res = await answer;
    assert.deepEqual([res.statusCode, res.json().error], [503, 'SERVICE_UNAVAILABLE'], res.body);
    assert.match(res.json().message, /nothing was charged/);
    const account = (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json();
    assert.deepEqual(account.credits, { balance: 100, reserved: 0, available: 100 });
    const listed = (
      await t.app.inject({ method: 'GET', url: '/api/youtube/shorts', headers: bearer(user.key) })
    ).json();
    assert.equal(listed.requests[0].status, 'failed');
    const quota = (
      await t.app.inject({ method: 'GET', url: '/operator/quota', headers: bearer('o'.repeat(40)) })
    ).json();
    assert.ok(
      quota.lostUnits >= fake.quotaUsed(),
      `the units it spent are the service's loss: ${JSON.stringify({ lost: quota.lostUnits, served: fake.quotaUsed(), account: account.upstreamQuota })}`,
    );
    assert.equal(quota.lostUnits, account.upstreamQuota.unitsToday);
    assert.equal(account.upstreamQuota.allowance.used, 0, "not the account's");
  });
});

describe('a stale copy of a window cut at the maximum', () => {
  it('answers the very request it was read for', async (ctx) => {
    let clock = Date.parse('2026-11-23T18:00:00Z');
    const t = await harness(ctx, {
      env: { CACHE_TTL_SECONDS: '300', MAX_SHORTS_PER_REQUEST: '100' },
      now: () => clock,
    });
    const { fake } = t;
    const user = await createUser(t, 100);
    const fresh = await post(t, user, { channelUrl: channel('@fake-140'), oldestDate: 0 });
    assert.deepEqual([fresh.statusCode, fresh.json().itemCount, fresh.json().truncated], [200, 100, true]);
    clock += 3600_000;
    fake.injectFault({ kind: 'quotaExceeded', endpoint: '*', times: Infinity });
    const stale = await post(t, user, { channelUrl: channel('@fake-140'), oldestDate: 0 });
    assert.deepEqual(
      [stale.statusCode, stale.json().stale, stale.json().itemCount, stale.json().truncated],
      [200, true, 100, true],
      stale.body,
    );
  });
});
