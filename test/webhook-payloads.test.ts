// shorts.completed in its full and thin forms: asked for by the request, by the account's default, by
// a batch, and chosen by size when the full body would be over WEBHOOK_MAX_BODY_BYTES. The thin form's
// resultUrl pages the stored result with the account's credentials.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { createUser, bearer, type TestUser } from './helpers/test-app.ts';
import { useHarness } from './helpers/harness.ts';
import type { Delivery } from '../support/webhook-receiver.ts';
import type { ItemsPage } from '../src/contract/batches.ts';
import type { ThinResult } from '../src/contract/shorts.ts';

const SHORTS = '/api/youtube/shorts';
type Event = { type: string; timestamp: string; data: Record<string, unknown> };

describe('thin and full shorts.completed webhooks', () => {
  const t = useHarness({
    env: { CACHE_TTL_SECONDS: '0', CREDENTIAL_CACHE_MS: '0', WEBHOOK_MAX_BODY_BYTES: '20000' },
    runWorker: true,
  });
  const submit = (user: TestUser, payload: object, url = SHORTS) =>
    t.app.inject({ method: 'POST', url, headers: bearer(user.key), payload });
  const verified = async (user: TestUser, delivery: Delivery): Promise<Event> => {
    const res = await t.app.inject({ method: 'GET', url: '/accounts/webhook-secret', headers: bearer(user.token) });
    const secret = (res.json().secrets[0].secret as string).replace(/^whsec_/, '');
    return new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>) as Event;
  };

  /** Every short of a stored result, read page by page from a thin event's resultUrl with the account's key. */
  async function pageAll(user: TestUser, resultUrl: string): Promise<string[]> {
    const path = new URL(resultUrl).pathname;
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { statusCode: number; body: string; json(): unknown } = await t.app.inject({
        method: 'GET',
        url: `${path}?pageSize=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        headers: bearer(user.key),
      });
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json() as ItemsPage;
      ids.push(...page.data.shorts.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    return ids;
  }

  it('webhookPayload thin sends the counts and a resultUrl that pages the whole stored result', async () => {
    const receiver = await t.receiver();
    const user = await createUser(t, 10);
    const res = await submit(user, {
      channelUrl: 'https://www.youtube.com/@demo',
      webhookUrl: receiver.url(),
      webhookPayload: 'thin',
    });
    assert.equal(res.statusCode, 202, res.body);
    const { requestId } = res.json();
    await receiver.waitFor(1);
    const event = await verified(user, receiver.deliveries[0]!);
    assert.equal(event.type, 'shorts.completed');
    const data = event.data as ThinResult;
    assert.deepEqual(Object.keys(data).sort(), [
      'creditsCharged',
      'itemCount',
      'reason',
      'requestId',
      'resultUrl',
      'thin',
      'truncated',
    ]);
    assert.deepEqual(
      { ...data, resultUrl: undefined },
      {
        requestId,
        itemCount: 120,
        creditsCharged: 3,
        truncated: false,
        resultUrl: undefined,
        thin: true,
        reason: 'requested',
      },
    );
    assert.match(data.resultUrl, new RegExp(`^https?://[^/]+/api/youtube/shorts/${requestId}/items$`));
    assert.ok(
      receiver.deliveries[0]!.body.length < 600,
      `a thin body is small: ${receiver.deliveries[0]!.body.length}`,
    );
    const ids = await pageAll(user, data.resultUrl);
    assert.equal(ids.length, 120);
    assert.equal(new Set(ids).size, 120);
    await receiver.close();
  });

  it("the account's default applies to requests that do not say; a request's own choice wins", async () => {
    const receiver = await t.receiver();
    const user = await createUser(t, 20);
    const put = await t.app.inject({
      method: 'PUT',
      url: '/accounts/alerts',
      headers: bearer(user.token),
      payload: { webhookPayload: 'thin' },
    });
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(put.json().webhookPayload, 'thin');
    const got = await t.app.inject({ method: 'GET', url: '/accounts/alerts', headers: bearer(user.key) });
    assert.equal(got.json().webhookPayload, 'thin');
    const byDefault = await submit(user, {
      channelUrl: 'https://www.youtube.com/@fake-5',
      webhookUrl: receiver.url('/a'),
    });
    assert.equal(byDefault.statusCode, 202, byDefault.body);
    await receiver.waitFor(1);
    const full = await submit(user, {
      channelUrl: 'https://www.youtube.com/@fake-5',
      webhookUrl: receiver.url('/b'),
      webhookPayload: 'full',
    });
    assert.equal(full.statusCode, 202, full.body);
    await receiver.waitFor(2);
    const byPath = new Map(receiver.deliveries.map((d) => [d.path, JSON.parse(d.body) as Event]));
    assert.equal(byPath.get('/a')!.data.thin, true);
    assert.equal(byPath.get('/a')!.data.reason, 'requested');
    assert.equal(byPath.get('/b')!.data.thin, undefined);
    assert.equal((byPath.get('/b')!.data.data as { shorts: unknown[] }).shorts.length, 5);
    await receiver.close();
  });

  it("a batch's webhookPayload applies to each item's webhook; the batch summary is unchanged", async () => {
    const receiver = await t.receiver();
    const user = await createUser(t, 20);
    const res = await submit(
      user,
      {
        items: [{ channelUrl: 'https://www.youtube.com/@fake-5' }, { channelUrl: 'https://www.youtube.com/@fake-7' }],
        webhookUrl: receiver.url(),
        webhookPayload: 'thin',
      },
      `${SHORTS}/batch`,
    );
    assert.equal(res.statusCode, 202, res.body);
    await receiver.waitFor(3);
    const events = receiver.deliveries.map((d) => JSON.parse(d.body) as Event);
    const items = events.filter((e) => e.type === 'shorts.completed');
    assert.deepEqual(items.map((e) => e.data.itemCount).sort(), [5, 7]);
    assert.ok(items.every((e) => e.data.thin === true && e.data.reason === 'requested'));
    const summary = events.find((e) => e.type === 'batch.completed')!;
    assert.equal((summary.data.counts as { completed: number }).completed, 2);
    await receiver.close();
  });

  it('a full body over WEBHOOK_MAX_BODY_BYTES is sent thin with reason too_large; a smaller one stays full', async () => {
    const receiver = await t.receiver();
    const user = await createUser(t, 20);
    // 120 shorts are about 60 kB in full (over the 20,000 configured here); 5 shorts about 3 kB.
    for (const [path, channel] of [
      ['/big', '@demo'],
      ['/small', '@fake-5'],
    ] as const) {
      const res = await submit(user, {
        channelUrl: `https://www.youtube.com/${channel}`,
        webhookUrl: receiver.url(path),
      });
      assert.equal(res.statusCode, 202, res.body);
    }
    await receiver.waitFor(2);
    const big = receiver.deliveries.find((d) => d.path === '/big')!;
    const small = receiver.deliveries.find((d) => d.path === '/small')!;
    const bigEvent = await verified(user, big);
    assert.equal(bigEvent.type, 'shorts.completed');
    assert.equal(bigEvent.data.thin, true);
    assert.equal(bigEvent.data.reason, 'too_large');
    assert.equal(bigEvent.data.itemCount, 120);
    assert.ok(Buffer.byteLength(small.body) <= 20000);
    assert.equal((JSON.parse(small.body) as Event).data.success, true, 'a full body under the limit is sent full');
    await receiver.close();
  });

  it('a failed request is sent as shorts.failed whatever the form asked for', async () => {
    const receiver = await t.receiver();
    const user = await createUser(t, 10);
    const res = await submit(user, {
      channelUrl: 'https://www.youtube.com/@no-such-channel-zz',
      webhookUrl: receiver.url(),
      webhookPayload: 'thin',
    });
    assert.equal(res.statusCode, 202, res.body);
    await receiver.waitFor(1);
    const event = JSON.parse(receiver.deliveries[0]!.body) as Event;
    assert.equal(event.type, 'shorts.failed');
    assert.equal(event.data.error, 'CHANNEL_NOT_FOUND');
    await receiver.close();
  });
});
