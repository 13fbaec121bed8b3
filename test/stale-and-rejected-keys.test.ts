// When the Data API cannot serve: a stale copy is priced as the cache hit it is (docs/quota.md),
// and a key the platform rejected once is re-checked with one cheap call within minutes.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { harness } from './helpers/harness.ts';
import { bearer, createUser, type TestApp, type TestUser } from './helpers/test-app.ts';
import type { Account } from '../src/contract/accounts.ts';

const post = (t: TestApp, user: TestUser, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/youtube/shorts', headers: bearer(user.key), payload });
const account = async (t: TestApp, user: TestUser) =>
  (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json() as Account;

it('a stale copy costs what a cache hit costs: its item price, and nothing of the allowance', async (ctx) => {
  let clock = Date.parse('2026-11-23T18:00:00Z');
  const t = await harness(ctx, {
    env: { YOUTUBE_SOURCE: 'data-api', CACHE_TTL_SECONDS: '300', RATE_LIMIT_PER_MINUTE: '1000' },
    now: () => clock,
  });
  const user = await createUser(t, 100);
  const channelUrl = 'https://www.youtube.com/@fake-150';
  assert.equal((await post(t, user, { channelUrl })).json().creditsCharged, 3);
  const hit = (await post(t, user, { channelUrl })).json();
  assert.equal(hit.creditsCharged, 3, 'a cache hit: the item price of 150 shorts');
  const before = await account(t, user);
  // The cache has expired; the one key answers quotaExceeded: the earlier copy is served.
  clock += 3600_000;
  t.fake.injectFault({ kind: 'quotaExceeded', endpoint: 'playlistItems', times: 1 });
  const res = await post(t, user, { channelUrl });
  assert.equal(res.statusCode, 200, res.body);
  const stale = res.json();
  assert.deepEqual([stale.stale, stale.itemCount, stale.creditsCharged], [true, 150, hit.creditsCharged]);
  const after = await account(t, user);
  assert.equal(after.credits.balance, before.credits.balance - hit.creditsCharged);
  // The failed read's units are paid from that price, not also from the allowance of unpaid work.
  assert.equal(after.upstreamQuota.allowance.used, before.upstreamQuota.allowance.used);
});

it('a key rejected once is re-checked with one cheap call after a minute, not an hour of 502s', async (ctx) => {
  let clock = Date.parse('2026-11-23T18:00:00Z');
  const t = await harness(ctx, {
    env: { YOUTUBE_SOURCE: 'data-api', CACHE_TTL_SECONDS: '0', RATE_LIMIT_PER_MINUTE: '1000' },
    now: () => clock,
  });
  const user = await createUser(t, 100);
  const channelUrl = 'https://www.youtube.com/@demo';
  // Revoked by mistake: the platform refuses the only key once, then takes it again.
  t.fake.injectFault({ kind: 'keyInvalid', endpoint: '*', times: 1 });
  const refused = await post(t, user, { channelUrl });
  assert.equal(refused.statusCode, 502, refused.body);
  // Within the minute the key stays out: no call is made with it.
  clock += 30_000;
  t.fake.resetStats();
  assert.equal((await post(t, user, { channelUrl })).statusCode, 502);
  assert.equal(t.fake.calls().length, 0);
  // After it: one cheap re-check (channels.list, part=id), then the request's own calls.
  clock += 31_000;
  const [a, b] = await Promise.all([post(t, user, { channelUrl }), post(t, user, { channelUrl })]);
  assert.equal(a.statusCode, 200, a.body);
  assert.equal(b.statusCode, 200, b.body);
  const checks = t.fake.calls().filter((c) => c.endpoint === 'channels' && c.params.part === 'id');
  assert.equal(checks.length, 1, 'concurrent requests wait for one re-check');
  assert.equal(checks[0]!.units, 1);
});

it('a key still rejected when re-checked stays out twice as long, one check each time', async (ctx) => {
  let clock = Date.parse('2026-11-23T18:00:00Z');
  const t = await harness(ctx, {
    env: { YOUTUBE_SOURCE: 'data-api', CACHE_TTL_SECONDS: '0', RATE_LIMIT_PER_MINUTE: '1000' },
    now: () => clock,
  });
  const user = await createUser(t, 100);
  const channelUrl = 'https://www.youtube.com/@demo';
  t.fake.injectFault({ kind: 'keyInvalid', endpoint: '*', times: Infinity });
  assert.equal((await post(t, user, { channelUrl })).statusCode, 502);
  const checksAfter = async (ms: number) => {
    clock += ms;
    t.fake.resetStats();
    assert.equal((await post(t, user, { channelUrl })).statusCode, 502);
    return t.fake.calls().length;
  };
  assert.equal(await checksAfter(61_000), 1, 'checked after a minute');
  assert.equal(await checksAfter(60_000), 0, 'then out for twice as long as it has been out');
  assert.equal(await checksAfter(62_000), 1);
  t.fake.clearFaults();
  assert.equal(await checksAfter(30_000), 0);
  clock += 4 * 60_000;
  assert.equal((await post(t, user, { channelUrl })).statusCode, 200);
});
