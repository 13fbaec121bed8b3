// maxCredits: a spending cap per call. The read is capped at the shorts the cap pays for, the answer
// is the newest of them with truncated:true and a message when the channel has more, never more is
// charged, and 402 when even the minimum price exceeds it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useHarness } from './helpers/harness.ts';
import type { TestUser } from './helpers/test-app.ts';
import type { SuccessBody } from '../src/contract/shorts.ts';

const SHORTS = '/api/youtube/shorts';
const channel = (handle: string) => `https://www.youtube.com/${handle}`;

interface Failure {
  success: false;
  error: string;
  message: string;
}
type Answer = Omit<SuccessBody, 'success'> & { error?: string };

describe('maxCredits caps what a request reads and costs', () => {
  const t = useHarness({ env: { CACHE_TTL_SECONDS: '0', RATE_LIMIT_PER_MINUTE: '1000' }, runWorker: true });
  const balance = async (user: TestUser) =>
    (await t.as(user).get<{ credits: { balance: number } }>('/accounts')).body.credits.balance;
  const shorts = (user: TestUser, body: object) => t.as(user).post<object, Answer>(SHORTS, body);

  it('answers the newest shorts the cap pays for, truncated with a message, charging no more than the cap', async () => {
    const user = await t.user(2);
    // Without a cap the 120-short channel costs 3 credits, more than the balance: 402.
    const refused = await shorts(user, { channelUrl: channel('@fake-120') });
    assert.equal(refused.status, 402, refused.text);
    const full = await t.as(await t.user(10)).post<object, SuccessBody>(SHORTS, { channelUrl: channel('@fake-120') });
    assert.equal(full.body.itemCount, 120);
    t.fake.resetStats();
    const res = await shorts(user, { channelUrl: channel('@fake-120'), maxCredits: 2 });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.itemCount, 100);
    assert.deepEqual(
      res.body.data.shorts.map((s) => s.id),
      full.body.data.shorts.slice(0, 100).map((s) => s.id),
      'the newest 100',
    );
    assert.equal(res.body.truncated, true);
    assert.match(
      res.body.message ?? '',
      /^maxCredits \(2\) pays for reading the newest 100 shorts; older ones were not read/,
    );
    assert.equal(res.body.creditsCharged, 2);
    assert.equal(await balance(user), 0);
    // channels.list, two playlist pages, two videos.list: the third page is never read.
    assert.equal(t.fake.quotaUsed(), 5);
  });

  it('is no cap when it covers the channel or the limit: nothing is truncated, the price is the usual one', async () => {
    const user = await t.user(10);
    const whole = await shorts(user, { channelUrl: channel('@fake-120'), maxCredits: 5 });
    assert.deepEqual(
      [whole.status, whole.body.itemCount, whole.body.truncated, whole.body.creditsCharged],
      [200, 120, false, 3],
    );
    assert.equal(whole.body.message, undefined);
    const limited = await shorts(user, { channelUrl: channel('@fake-120'), limit: 30, maxCredits: 1 });
    assert.deepEqual([limited.body.itemCount, limited.body.truncated, limited.body.creditsCharged], [30, false, 1]);
  });

  it('sorts and filters the newest shorts it paid for, and says so', async () => {
    const user = await t.user(10);
    const res = await shorts(user, { channelUrl: channel('@fake-120'), sort: 'popular', limit: 5, maxCredits: 1 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.itemCount, res.body.truncated, res.body.creditsCharged], [5, true, 1]);
    assert.match(
      res.body.message ?? '',
      /newest 50 shorts; older ones were not read, so the sort and duration filters were applied to those only/,
    );
    assert.equal(await balance(user), 9);
  });

  it('a cached whole channel answers a capped request: cut to what the cap pays for, truncated, no upstream call', async () => {
    const h = await t.sibling({ env: { CACHE_TTL_SECONDS: '300' } });
    const user = await h.user(10);
    const url = channel('@fake-90');
    const whole = await h.as(user).post<object, Answer>(SHORTS, { channelUrl: url });
    assert.equal(whole.body.itemCount, 90);
    t.fake.resetStats();
    const capped = await h.as(user).post<object, Answer>(SHORTS, { channelUrl: url, maxCredits: 1 });
    assert.deepEqual([capped.body.itemCount, capped.body.truncated, capped.body.creditsCharged], [50, true, 1]);
    assert.match(capped.body.message ?? '', /^maxCredits \(1\) pays for reading the newest 50 shorts/);
    assert.equal(t.fake.quotaUsed(), 0);
    // A caller's own limit of 50 is not truncated: the two are cached apart.
    const limited = await h.as(user).post<object, Answer>(SHORTS, { channelUrl: url, limit: 50 });
    assert.deepEqual([limited.body.itemCount, limited.body.truncated], [50, false]);
  });

  it('402 when the cap cannot pay the minimum price, before anything is read; 400 below 1', async () => {
    const h = await t.sibling({ env: { MIN_CREDITS_PER_REQUEST: '2', CACHE_TTL_SECONDS: '0' } });
    const user = await h.user(10);
    t.fake.resetStats();
    const res = await h.as(user).post<object, Failure>(SHORTS, { channelUrl: channel('@fake-120'), maxCredits: 1 });
    assert.equal(res.status, 402, res.text);
    assert.equal(res.body.error, 'INSUFFICIENT_CREDITS');
    assert.match(res.body.message, /maxCredits is 1, but a request costs at least 2 credits/);
    assert.equal(t.fake.quotaUsed(), 0);
    assert.equal(
      await h
        .as(user)
        .get<{ credits: { balance: number } }>('/accounts')
        .then((r) => r.body.credits.balance),
      10,
    );
    const zero = await h.as(user).post<object, Failure>(SHORTS, { channelUrl: channel('@fake-120'), maxCredits: 0 });
    assert.equal(zero.status, 400, zero.text);
  });

  it('caps a webhook request and each batch item the same way', async () => {
    const user = await t.user(10);
    const receiver = await t.receiver();
    const one = await shorts(user, {
      channelUrl: channel('@fake-120'),
      maxCredits: 1,
      webhookUrl: receiver.url('/one'),
    });
    assert.equal(one.status, 202, one.text);
    const batch = await t.as(user).post<object, { items: Array<{ requestId: string }> }>(`${SHORTS}/batch`, {
      webhookUrl: receiver.url('/batch'),
      items: [
        { channelUrl: channel('@fake-120'), maxCredits: 2 },
        { channelUrl: channel('@fake-30'), maxCredits: 1 },
      ],
    });
    assert.equal(batch.status, 202, batch.text);
    // One webhook each, and the batch's summary.
    await receiver.waitFor(4, 60_000);
    const bodies = receiver.deliveries
      .map((d) => JSON.parse(d.body) as { type: string; data: SuccessBody })
      .filter((e) => e.type === 'shorts.completed')
      .map((e) => [e.data.itemCount, e.data.truncated, e.data.creditsCharged])
      .sort();
    assert.deepEqual(bodies, [
      [100, true, 2],
      [30, false, 1],
      [50, true, 1],
    ]);
    assert.equal(await balance(user), 10 - 4);
    const refused = await shorts(user, {
      channelUrl: channel('@fake-120'),
      maxCredits: 0,
      webhookUrl: receiver.url('/x'),
    });
    assert.equal(refused.status, 400, refused.text);
  });
});
