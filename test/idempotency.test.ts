// Idempotent retries: a POST that charges or creates, sent again with the same Idempotency-Key and body,
// answers what the first call answered and charges nothing more — on one instance and across two.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createUser, type TestUser } from './helpers/test-app.ts';
import { harness, useHarness } from './helpers/harness.ts';
import type { TestApp } from './helpers/test-app.ts';
import { until } from '../support/webhook-receiver.ts';
import { purgeExpiredKeys } from '../src/domain/idempotency/idempotency-keys.ts';

const SHORTS = '/api/youtube/shorts';
const OPERATOR_TOKEN = 'op-token-0123456789abcdef0123456789abcdef';
const channel = (handle: string) => `https://www.youtube.com/${handle}`;

const post = (app: TestApp, credential: string, url: string, payload: object | undefined, key?: string) =>
  app.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(credential), ...(key ? { 'idempotency-key': key } : {}) },
    ...(payload ? { payload } : {}),
  });

async function balanceOf(app: TestApp, user: TestUser): Promise<number> {
  const [row] = await app.services.db.query<{ credit_balance: number }>(
    'SELECT credit_balance FROM accounts WHERE id = $1',
    [user.id],
  );
  return row!.credit_balance;
}

async function requestsOf(app: TestApp, user: TestUser): Promise<number> {
  const [row] = await app.services.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM shorts_requests WHERE account_id = $1',
    [user.id],
  );
  return row!.n;
}

describe('Idempotency-Key on the embedded database', () => {
  const t = useHarness({ env: { CACHE_TTL_SECONDS: '0', OPERATOR_TOKEN } });

  it('replays a synchronous request: same status, body and request id, charged once', async () => {
    const user = await createUser(t, 10);
    const body = { channelUrl: channel('@demo') };
    const first = await post(t, user.key, SHORTS, body, 'retry-sync-1');
    assert.equal(first.statusCode, 200, first.body);
    const afterFirst = await balanceOf(t, user);
    assert.ok(afterFirst < 10);
    const again = await post(t, user.key, SHORTS, body, 'retry-sync-1');
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, first.body, 'the same bytes');
    assert.equal(again.json().requestId, first.json().requestId);
    assert.equal(again.headers['x-request-id'], first.json().requestId);
    assert.match(String(again.headers['content-type']), /^application\/json/);
    assert.equal(await balanceOf(t, user), afterFirst, 'nothing charged by the retry');
    assert.equal(await requestsOf(t, user), 1);
    // Without the header every call is a call of its own.
    const fresh = await post(t, user.key, SHORTS, body);
    assert.equal(fresh.headers['idempotent-replayed'], undefined);
    assert.notEqual(fresh.json().requestId, first.json().requestId);
  });

  it('replays a webhook request: one request, one job, the same 202', async () => {
    const receiver = await t.receiver();
    const user = await createUser(t, 10);
    const body = { channelUrl: channel('@demo'), webhookUrl: receiver.url() };
    const first = await post(t, user.key, SHORTS, body, 'retry-webhook-1');
    assert.equal(first.statusCode, 202, first.body);
    const again = await post(t, user.key, SHORTS, body, 'retry-webhook-1');
    assert.equal(again.statusCode, 202, again.body);
    assert.equal(again.body, first.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(await requestsOf(t, user), 1, 'one request recorded, so one job and one delivery');
  });

  it('refuses the same key with another body (422) and keeps keys per account', async () => {
    const user = await createUser(t, 10);
    const other = await createUser(t, 10);
    const first = await post(t, user.key, SHORTS, { channelUrl: channel('@demo'), limit: 5 }, 'shared-key');
    assert.equal(first.statusCode, 200, first.body);
    const changed = await post(t, user.key, SHORTS, { channelUrl: channel('@demo'), limit: 6 }, 'shared-key');
    assert.equal(changed.statusCode, 422, changed.body);
    assert.equal(changed.json().error, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal(changed.json().success, false);
    // Another account's key of the same name is its own.
    const theirs = await post(t, other.key, SHORTS, { channelUrl: channel('@demo'), limit: 6 }, 'shared-key');
    assert.equal(theirs.statusCode, 200, theirs.body);
    assert.equal(theirs.headers['idempotent-replayed'], undefined);
  });

  it('answers 409 IDEMPOTENCY_IN_PROGRESS with Retry-After while the first call runs, then its answer', async () => {
    const user = await createUser(t, 10);
    const body = { channelUrl: channel('@demo'), limit: 3 };
    t.fake.setLatency(400);
    const running = post(t, user.key, SHORTS, body, 'slow-1');
    await until(
      async () => {
        const rows = await t.services.db.query("SELECT 1 FROM idempotency_keys WHERE key = 'slow-1'");
        return rows.length > 0;
      },
      10_000,
      10,
    );
    const during = await post(t, user.key, SHORTS, body, 'slow-1');
    t.fake.setLatency(0);
    assert.equal(during.statusCode, 409, during.body);
    assert.equal(during.json().error, 'IDEMPOTENCY_IN_PROGRESS');
    assert.ok(Number(during.headers['retry-after']) >= 1);
    const first = await running;
    assert.equal(first.statusCode, 200, first.body);
    const after = await post(t, user.key, SHORTS, body, 'slow-1');
    assert.equal(after.headers['idempotent-replayed'], 'true');
    assert.equal(after.json().requestId, first.json().requestId);
  });

  it('does not keep a 5xx answer: the retry runs again', async (ctx) => {
    const user = await createUser(t, 10);
    const body = { channelUrl: channel('@demo'), limit: 4 };
    t.fake.injectFault({ kind: 'backendError', endpoint: 'videos', times: Infinity });
    ctx.after(() => t.fake.clearFaults());
    const failed = await post(t, user.key, SHORTS, body, 'flaky-1');
    assert.equal(failed.statusCode, 502, failed.body);
    t.fake.clearFaults();
    const retried = await post(t, user.key, SHORTS, body, 'flaky-1');
    assert.equal(retried.statusCode, 200, retried.body);
    assert.equal(retried.headers['idempotent-replayed'], undefined);
    assert.notEqual(retried.json().requestId, failed.json().requestId);
  });

  it('replays key creation (its secret, kept sealed), watch creation (its Location) and a manual check', async () => {
    const user = await createUser(t, 50);
    const key = await post(t, user.token, '/keys', { name: 'ci' }, 'make-key-1');
    assert.equal(key.statusCode, 201, key.body);
    const keyAgain = await post(t, user.token, '/keys', { name: 'ci' }, 'make-key-1');
    assert.equal(keyAgain.statusCode, 201);
    assert.equal(keyAgain.body, key.body);
    assert.equal(keyAgain.headers['cache-control'], 'no-store');
    const [kept] = await t.services.db.query<{ body: string }>(
      "SELECT body FROM idempotency_keys WHERE key = 'make-key-1'",
    );
    assert.ok(!kept!.body.includes(key.json().key), 'the new key is not kept in clear');
    const [keys] = await t.services.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1',
      [user.id],
    );
    assert.equal(keys!.n, 2, 'the one made with the user and one more');

    const receiver = await t.receiver();
    const watch = { channelUrl: channel('@demo'), webhookUrl: receiver.url() };
    const created = await post(t, user.key, '/api/youtube/watches', watch, 'watch-1');
    assert.equal(created.statusCode, 201, created.body);
    const createdAgain = await post(t, user.key, '/api/youtube/watches', watch, 'watch-1');
    assert.equal(createdAgain.statusCode, 201);
    assert.equal(createdAgain.headers.location, created.headers.location);
    assert.equal(createdAgain.body, created.body);
    const [watches] = await t.services.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM watches WHERE account_id = $1',
      [user.id],
    );
    assert.equal(watches!.n, 1);

    const check = `/api/youtube/watches/${created.json().id}/check`;
    const queued = await post(t, user.key, check, undefined, 'check-1');
    assert.equal(queued.statusCode, 202, queued.body);
    const queuedAgain = await post(t, user.key, check, undefined, 'check-1');
    assert.equal(queuedAgain.statusCode, 202, queuedAgain.body);
    assert.equal(queuedAgain.headers['idempotent-replayed'], 'true');
    assert.equal(queuedAgain.json().checkId, queued.json().checkId, 'one manual check queued');
  });

  it('replays an operator grant made with the operator token', async () => {
    const user = await createUser(t, 0);
    const grant = { direction: 'grant', amount: 7, reason: 'Goodwill.' };
    const url = `/operator/users/${user.id}/credits`;
    const first = await post(t, OPERATOR_TOKEN, url, grant, 'grant-1');
    assert.equal(first.statusCode, 200, first.body);
    const again = await post(t, OPERATOR_TOKEN, url, grant, 'grant-1');
    assert.equal(again.statusCode, 200);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(await balanceOf(t, user), 7, 'granted once');
  });

  it('refuses an unusable key with a clear 400', async () => {
    const user = await createUser(t, 10);
    const res = await post(t, user.key, SHORTS, { channelUrl: channel('@demo') }, 'x'.repeat(300));
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().error, 'VALIDATION_FAILED');
    assert.match(res.json().message, /idempotency-key/);
  });

  it('runs again after 24 h, and the purge drops what is older', async (ctx) => {
    let now = Date.parse('2026-03-01T12:00:00Z');
    const h = await harness(ctx, { fake: t.fake, now: () => now, env: { CACHE_TTL_SECONDS: '0' } });
    const user = await h.user(10);
    const body = { channelUrl: channel('@demo'), limit: 2 };
    const first = await post(h, user.key, SHORTS, body, 'daily');
    assert.equal(first.statusCode, 200, first.body);
    now += 23 * 3600_000;
    const replayed = await post(h, user.key, SHORTS, body, 'daily');
    assert.equal(replayed.headers['idempotent-replayed'], 'true');
    now += 3600_000;
    const later = await post(h, user.key, SHORTS, body, 'daily');
    assert.equal(later.statusCode, 200, later.body);
    assert.equal(later.headers['idempotent-replayed'], undefined, 'past 24 h the key is a new call');
    assert.notEqual(later.json().requestId, first.json().requestId);
    assert.equal(await purgeExpiredKeys(h.services.db, now), 0, 'the new claim is younger than 24 h');
    assert.equal(await purgeExpiredKeys(h.services.db, now + 24 * 3600_000), 1);
  });
});

describe('Idempotency-Key across two instances on PostgreSQL', () => {
  const t = useHarness({ mode: 'postgres', env: { CACHE_TTL_SECONDS: '0' } });

  it('a retry on the other instance gets the first answer and charges nothing', async () => {
    const peer = await t.peer();
    const user = await createUser(t, 10);
    const body = { channelUrl: channel('@demo') };
    const first = await post(t, user.key, SHORTS, body, 'cross-1');
    assert.equal(first.statusCode, 200, first.body);
    const charged = await balanceOf(t, user);
    const again = await post(peer, user.key, SHORTS, body, 'cross-1');
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, first.body);
    assert.equal(await balanceOf(t, user), charged);
    const reused = await post(peer, user.key, SHORTS, { channelUrl: channel('@demo'), limit: 1 }, 'cross-1');
    assert.equal(reused.statusCode, 422, reused.body);
  });

  it('two instances racing with one key run the call once', async () => {
    const peer = await t.peer();
    const user = await createUser(t, 10);
    const body = { channelUrl: channel('@demo'), limit: 3 };
    const answers = await Promise.all([
      post(t, user.key, SHORTS, body, 'race-1'),
      post(peer, user.key, SHORTS, body, 'race-1'),
    ]);
    const statuses = answers.map((a) => a.statusCode).sort();
    assert.ok(statuses.includes(200), statuses.join());
    assert.ok(
      statuses.every((s) => s === 200 || s === 409),
      statuses.join(),
    );
    assert.equal(await requestsOf(t, user), 1);
  });
});
