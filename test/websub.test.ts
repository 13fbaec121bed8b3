// WebSub push for watches against the fake hub: subscription with verification of intent,
// signed Atom notifications that trigger a check at once, HMAC failures ignored, lease renewal.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { createUser, bearer, type TestUser } from './helpers/test-app.ts';
import { harness, useHarness } from './helpers/harness.ts';
import { until } from '../support/webhook-receiver.ts';
import type { Watch } from '../src/contract/watches.ts';
import type { CreateWatchBody } from '../src/http/schemas/watches.ts';
import {
  callbackToken,
  MAX_LEASE_SECONDS,
  subscribe,
  subscriptionsDue,
  parseNotification,
  readNotification,
  topicFor,
} from '../src/domain/watches/websub.ts';
import { feedTopic } from '../src/fake-platform/websub-hub.ts';

const WATCHES = '/api/youtube/watches';

describe('WebSub push for watches', () => {
  let user: TestUser;
  let receiver: Awaited<ReturnType<typeof t.receiver>>;
  let watch: { id: string; channel: { id: string } };
  let now = Date.parse('2026-07-01T12:00:00Z');
  const clock = () => now;
  const LEASE = 3600;
  // Listening at PUBLIC_BASE_URL, subscribed at the fake's hub (the harness wires both).
  const t = useHarness({
    public: true,
    env: { WEBSUB_LEASE_SECONDS: String(LEASE), WATCH_SWEEP_SECONDS: '3600' },
    runWorker: true,
    now: clock,
  });
  const subscription = async (channelId: string) =>
    (
      await t.services.db.query<{
        state: string;
        secret: string;
        lease_expires_at: Date | null;
        verified_at: Date | null;
        requested_at: Date;
      }>('SELECT * FROM websub_subscriptions WHERE channel_id = $1', [channelId])
    )[0];
  // The test's clock stands still, so checks share a time: the creating one comes first.
  const checksOf = async (id: string) =>
    (
      await t.services.db.query<{ trigger: string }>(
        `SELECT trigger FROM watch_checks WHERE watch_id = $1 ORDER BY created_at, trigger <> 'create', id`,
        [id],
      )
    ).map((r) => r.trigger);

  before(async () => {
    t.fake.addChannel({ handle: 'pushed', shortsCount: 4 });
    user = await createUser(t, 50);
    receiver = await t.receiver();
  });

  it("subscribes a new watch's channel feed and answers the hub's verification of intent", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: WATCHES,
      headers: bearer(user.key),
      payload: { channelUrl: 'https://www.youtube.com/@pushed', webhookUrl: receiver.url() },
    });
    assert.equal(res.statusCode, 201, res.body);
    watch = res.json();
    const topic = feedTopic(t.fake.innertubeBaseUrl, watch.channel.id);
    assert.equal(topicFor(t.services.websub!.settings, watch.channel.id), topic);
    const sub = await until(async () => t.fake.hub.subscriptions().find((s) => s.topic === topic));
    assert.equal(sub.leaseSeconds, LEASE);
    const row = await until(async () => {
      const r = await subscription(watch.channel.id);
      return r?.state === 'verified' && r;
    });
    assert.equal(sub.secret, row.secret);
    assert.equal(
      sub.callback,
      `${t.config.PUBLIC_BASE_URL}/websub/youtube/${watch.channel.id}/${callbackToken(row.secret, watch.channel.id)}`,
    );
    assert.equal(row.lease_expires_at?.getTime(), now + LEASE * 1000);
  });

  it('refuses to verify a subscription it did not ask for', async () => {
    const stranger = t.fake.addChannel({ handle: 'not-watched', shortsCount: 1 });
    const form = new URLSearchParams({
      'hub.mode': 'subscribe',
      'hub.topic': feedTopic(t.fake.innertubeBaseUrl, stranger.id),
      'hub.callback': `${t.config.PUBLIC_BASE_URL}/websub/youtube/${stranger.id}`,
    });
    assert.equal((await fetch(`${t.fake.innertubeBaseUrl}/subscribe`, { method: 'POST', body: form })).status, 202);
    await t.fake.hub.settled();
    const attempt = t.fake.hub.verifications().find((v) => v.topic.endsWith(stranger.id));
    assert.deepEqual([attempt?.status, attempt?.confirmed], [404, false]);
    // A topic that is not the channel's feed is refused too.
    const wrong = await t.app.inject({
      method: 'GET',
      url: `/websub/youtube/${watch.channel.id}?hub.mode=subscribe&hub.topic=${encodeURIComponent('https://evil.example/feed')}&hub.challenge=abc`,
    });
    assert.equal(wrong.statusCode, 404);
    assert.equal(wrong.json().error, 'NOT_FOUND');
  });

  it('believes a verification only at the callback it gave the hub: nobody else can verify, deny or stretch a subscription', async () => {
    const row = (await subscription(watch.channel.id))!;
    const topic = encodeURIComponent(feedTopic(t.fake.innertubeBaseUrl, watch.channel.id));
    const base = `/websub/youtube/${watch.channel.id}`;
    const forged = [
      `${base}?hub.mode=subscribe&hub.topic=${topic}&hub.challenge=x&hub.lease_seconds=3000000000`,
      `${base}?hub.mode=denied&hub.topic=${topic}&hub.reason=forged`,
      `${base}/${'A'.repeat(32)}?hub.mode=denied&hub.topic=${topic}&hub.reason=forged`,
    ];
    for (const url of forged) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().error, 'NOT_FOUND');
    }
    assert.deepEqual(await subscription(watch.channel.id), row, 'unchanged');
    // The hub's own, at the callback: a lease beyond any hub's is recorded as the longest one kept.
    const token = callbackToken(row.secret, watch.channel.id);
    const res = await t.app.inject({
      method: 'GET',
      url: `${base}/${token}?hub.mode=subscribe&hub.topic=${topic}&hub.challenge=ok&hub.lease_seconds=99999999999999`,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.body, 'ok');
    assert.equal((await subscription(watch.channel.id))!.lease_expires_at!.getTime(), now + MAX_LEASE_SECONDS * 1000);
    // A lease no hub grants, recorded before callbacks had a token: the subscription is asked for again.
    const db = t.services.db;
    await db.query(
      `UPDATE websub_subscriptions SET lease_expires_at = '2121-07-25', requested_at = $2 WHERE channel_id = $1`,
      [watch.channel.id, new Date(now - 600_000)],
    );
    assert.deepEqual(await subscriptionsDue(t.services.websub!), [watch.channel.id]);
    // Back to the hub's lease for the tests that follow.
    await db.query('UPDATE websub_subscriptions SET requested_at = $2 WHERE channel_id = $1', [
      watch.channel.id,
      row.requested_at,
    ]);
    await t.app.inject({
      method: 'GET',
      url: `${base}/${token}?hub.mode=subscribe&hub.topic=${topic}&hub.challenge=ok&hub.lease_seconds=${LEASE}`,
    });
    assert.deepEqual(await subscriptionsDue(t.services.websub!), []);
  });

  it('checks at once on a signed notification and reports the new short', async () => {
    const published = await t.fake.publishShort('pushed');
    await receiver.waitFor(1);
    const body = JSON.parse(receiver.deliveries[0]!.body) as { type: string; data: { shorts: Array<{ id: string }> } };
    assert.equal(body.type, 'shorts.created');
    assert.deepEqual(
      body.data.shorts.map((s) => s.id),
      [published.videoId],
    );
    assert.deepEqual(await checksOf(watch.id), ['create', 'push']);
    const notified = t.fake.hub.notifications().find((n) => n.videoId === published.videoId);
    assert.equal(notified?.status, 202);
  });

  it('ignores a notification whose HMAC does not match (and one about a video already seen)', async () => {
    // Its own watch, and a short a push has reported to it: a video that watch has seen.
    t.fake.addChannel({ handle: 'pushed-forged', shortsCount: 2 });
    const hooks = await t.receiver();
    const created = await t.as(user).post<CreateWatchBody, Watch>(WATCHES, {
      channelUrl: 'https://www.youtube.com/@pushed-forged',
      webhookUrl: hooks.url(),
    });
    assert.equal(created.status, 201, created.text);
    const watch = created.body;
    const row = await until(async () => {
      const r = await subscription(watch.channel.id);
      return r?.state === 'verified' && r;
    });
    const { videoId: seenId } = await t.fake.publishShort('pushed-forged');
    await hooks.waitFor(1);
    assert.deepEqual(await checksOf(watch.id), ['create', 'push']);
    const atom = `<?xml version='1.0' encoding='UTF-8'?><feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns="http://www.w3.org/2005/Atom"><entry><id>yt:video:AAAAAAAAAAA</id><yt:videoId>AAAAAAAAAAA</yt:videoId><yt:channelId>${watch.channel.id}</yt:channelId></entry></feed>`;
    assert.deepEqual(parseNotification(atom), [{ videoId: 'AAAAAAAAAAA', channelId: watch.channel.id, updated: '' }]);
    const post = (signature: string) =>
      t.app.inject({
        method: 'POST',
        url: `/websub/youtube/${watch.channel.id}`,
        headers: { 'content-type': 'application/atom+xml', 'x-hub-signature': signature },
        payload: atom,
      });
    const wrongKey = `sha1=${createHmac('sha1', 'not-the-secret').update(atom).digest('hex')}`;
    for (const signature of [wrongKey, 'sha1=', 'md5=abcd', '']) {
      const res = await post(signature);
      assert.equal(res.statusCode, 202, signature);
    }
    assert.deepEqual(await checksOf(watch.id), ['create', 'push'], 'no check for a forged notification');
    const metrics = await t.services.metrics.registry.getSingleMetricAsString('websub_notifications_total');
    assert.match(metrics, /outcome="bad-signature"} 4/);
    // Correctly signed, about a video every watch has already seen: no check either.
    const again = atom.replaceAll('AAAAAAAAAAA', seenId);
    const res = await t.app.inject({
      method: 'POST',
      url: `/websub/youtube/${watch.channel.id}`,
      headers: {
        'content-type': 'application/atom+xml',
        'x-hub-signature': `sha256=${createHmac('sha256', row.secret).update(again).digest('hex')}`,
      },
      payload: again,
    });
    assert.equal(res.statusCode, 202);
    assert.deepEqual(await checksOf(watch.id), ['create', 'push']);
    // A channel nobody here watches answers the same as a watched one: the callback tells no one what is watched.
    for (const url of [
      `/websub/youtube/UCaaaaaaaaaaaaaaaaaaaaaa`,
      `/websub/youtube/UCaaaaaaaaaaaaaaaaaaaaaa/${'A'.repeat(32)}`,
      `/websub/youtube/${watch.channel.id}/${'A'.repeat(32)}`,
    ]) {
      const other = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/atom+xml', 'x-hub-signature': 'sha1=00' },
        payload: atom,
      });
      assert.deepEqual([other.statusCode, other.body], [202, res.body], url);
    }
    assert.match(
      await t.services.metrics.registry.getSingleMetricAsString('websub_notifications_total'),
      /outcome="unknown-topic"} 3/,
    );
    // Its watch goes, so the suite's own watch is again the only one whose lease the tests follow.
    assert.equal((await t.as(user).delete(`${WATCHES}/${watch.id}`)).status, 200);
  });

  it('refuses a notification body past 16 KiB with 413, the same for a watched and an unwatched channel', async () => {
    const stranger = 'UC' + 'x'.repeat(22);
    const body = `<feed>${'<entry></entry>'.repeat(80_000)}</feed>`; // about 1 MiB
    const answers = [];
    for (const channelId of [watch.channel.id, stranger]) {
      const res = await fetch(`${t.config.PUBLIC_BASE_URL}/websub/youtube/${channelId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/atom+xml', 'x-hub-signature': 'sha1=00' },
        body,
      });
      answers.push([res.status, (await res.json()).error]);
    }
    assert.deepEqual(answers, [
      [413, 'PAYLOAD_TOO_LARGE'],
      [413, 'PAYLOAD_TOO_LARGE'],
    ]);
  });

  it('renews the lease when a tenth of it is left', async () => {
    const websub = t.services.websub!;
    const before = (await subscription(watch.channel.id))!.lease_expires_at!.getTime();
    assert.deepEqual(await subscriptionsDue(websub), []);
    now += LEASE * 1000 * 0.85; // 15 % of the lease left: not yet
    assert.deepEqual(await subscriptionsDue(websub), []);
    now += LEASE * 1000 * 0.1; // 5 % left
    assert.deepEqual(await subscriptionsDue(websub), [watch.channel.id]);
    const verificationsBefore = t.fake.hub.verifications().length;
    await subscribe(websub, watch.channel.id);
    const renewed = await until(async () => {
      const r = await subscription(watch.channel.id);
      return r!.lease_expires_at!.getTime() > before && r;
    });
    assert.equal(renewed.lease_expires_at!.getTime(), now + LEASE * 1000);
    assert.equal(renewed.state, 'verified');
    assert.equal(t.fake.hub.verifications().length, verificationsBefore + 1);
    assert.deepEqual(await subscriptionsDue(websub), []);
  });
});

describe('WebSub: a hub that never answers', () => {
  it('holds up no sweep: due watches are still checked while subscription requests wait', async (ctx) => {
    const { createServer } = await import('node:net');
    // Accepts connections and never answers.
    const sockets: Array<import('node:net').Socket> = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    ctx.after(() => {
      for (const socket of sockets) socket.destroy();
      silent.close();
    });
    let now = Date.parse('2026-07-01T12:00:00Z');
    const t = await harness(ctx, {
      env: {
        PUBLIC_BASE_URL: 'http://127.0.0.1:9',
        WEBSUB_HUB_URL: `http://127.0.0.1:${(silent.address() as { port: number }).port}/subscribe`,
        WATCH_SWEEP_SECONDS: '3600',
        WATCH_MIN_INTERVAL_SECONDS: '60',
        YOUTUBE_TIMEOUT_MS: '600000',
      },
      runWorker: true,
      now: () => now,
    });
    for (let i = 0; i < 6; i++) t.fake.addChannel({ handle: `silent-hub-${i}`, shortsCount: 2 });
    const user = await createUser(t, 50);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: WATCHES,
        headers: bearer(user.key),
        payload: {
          channelUrl: `https://www.youtube.com/@silent-hub-${i}`,
          webhookUrl: 'https://example.com/h',
          intervalSeconds: 60,
        },
      });
      assert.equal(res.statusCode, 201, res.body);
      ids.push(res.json().id);
    }
    // Every subscription is due again (asked for long ago, never verified), and every watch is due.
    await t.services.db.query("UPDATE websub_subscriptions SET requested_at = now() - interval '1 day'");
    now += 120_000;
    // The sweep is done while the hub still has every request hanging (they wait up to 10 minutes).
    await t.services.sweepOnce();
    const [{ due }] = (await t.services.db.query<{ due: number }>(
      'SELECT count(*)::int AS due FROM watches WHERE next_check_at <= $1',
      [new Date(now)],
    )) as [{ due: number }];
    assert.equal(due, 0, 'every due watch was claimed by the sweep');
  });
});

describe('WebSub with push off', () => {
  it('answers a notification 404 before reading its body', async (ctx) => {
    const t = await harness(ctx, { fake: false, listen: true });
    const { port } = t.app.server.address() as { port: number };
    // Headers announce 1 MiB but only 1 KiB is sent: the answer must come without the rest.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `/websub/youtube/UC${'a'.repeat(22)}`,
          headers: { 'content-type': 'application/atom+xml', 'content-length': String(1024 * 1024) },
        },
        (res) => {
          let body = '';
          res
            .setEncoding('utf8')
            .on('data', (chunk) => {
              body += chunk;
            })
            .on('end', () => {
              req.destroy();
              resolve({ status: res.statusCode ?? 0, body });
            });
        },
      );
      req.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
      req.write('x'.repeat(1024));
    });
    assert.equal(answer.status, 404);
    assert.equal(JSON.parse(answer.body).error, 'NOT_FOUND');
  });
});

describe('WebSub: replayed notifications', () => {
  const LEASE = 3600;
  const now = Date.parse('2026-07-01T12:00:20Z');
  const entry = (channelId: string, videoId: string, updated: string) =>
    `<?xml version='1.0' encoding='UTF-8'?><feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns="http://www.w3.org/2005/Atom"><entry><id>yt:video:${videoId}</id><yt:videoId>${videoId}</yt:videoId><yt:channelId>${channelId}</yt:channelId><updated>${updated}</updated></entry></feed>`;

  async function watched(t: Awaited<ReturnType<typeof harness>>, handle: string) {
    t.fake.addChannel({ handle, shortsCount: 2 });
    const user = await createUser(t, 50);
    const created = await t.as(user).post<CreateWatchBody, Watch>('/api/youtube/watches', {
      channelUrl: `https://www.youtube.com/@${handle}`,
      webhookUrl: 'https://example.com/hook',
    });
    assert.equal(created.status, 201, created.text);
    const channelId = created.body.channel.id;
    const [row] = await until(async () => {
      const rows = await t.services.db.query<{ secret: string; state: string }>(
        'SELECT secret, state FROM websub_subscriptions WHERE channel_id = $1',
        [channelId],
      );
      return rows[0]?.state === 'verified' && rows;
    });
    const sign = (atom: string) => `sha256=${createHmac('sha256', row!.secret).update(atom).digest('hex')}`;
    return { user, watch: created.body, channelId, sign };
  }

  it('acts on a signed notification once per (video, updated), and never on one older than the lease', async (ctx) => {
    const t = await harness(ctx, { public: true, now: () => now, env: { WEBSUB_LEASE_SECONDS: String(LEASE) } });
    const { channelId, sign } = await watched(t, 'replayed');
    const websub = t.services.websub!;
    // A video that is not a Short: a check never marks it seen, so only remembering the notification stops replays.
    const atom = entry(channelId, 'BBBBBBBBBBB', new Date(now - 60_000).toISOString());
    const reads = [];
    for (let i = 0; i < 5; i++)
      reads.push(await readNotification(websub, channelId, undefined, sign(atom), Buffer.from(atom)));
    assert.deepEqual(
      reads.map((r) => (r.outcome === 'accepted' ? r.videoIds : r.outcome)),
      [['BBBBBBBBBBB'], [], [], [], []],
    );
    // The same video updated later (an edited title) is news again.
    const edited = entry(channelId, 'BBBBBBBBBBB', new Date(now).toISOString());
    const again = await readNotification(websub, channelId, undefined, sign(edited), Buffer.from(edited));
    assert.deepEqual(again.outcome === 'accepted' && again.videoIds, ['BBBBBBBBBBB']);
    const stale = entry(channelId, 'CCCCCCCCCCC', new Date(now - (LEASE + 60) * 1000).toISOString());
    const old = await readNotification(websub, channelId, undefined, sign(stale), Buffer.from(stale));
    assert.deepEqual(old.outcome === 'accepted' && old.videoIds, []);
  });

  it("counts each push-triggered check in its account's metered windows", async (ctx) => {
    const t = await harness(ctx, {
      public: true,
      now: () => now,
      env: { WEBSUB_LEASE_SECONDS: String(LEASE), RATE_LIMIT_PER_MINUTE: '3' },
    });
    const { user, watch, channelId, sign } = await watched(t, 'pushed-metered');
    // The creation counted once; two notifications of new videos count two more: the minute is spent.
    for (const videoId of ['DDDDDDDDDDD', 'EEEEEEEEEEE']) {
      const atom = entry(channelId, videoId, new Date(now).toISOString());
      const res = await t.inject({
        method: 'POST',
        url: `/websub/youtube/${channelId}`,
        headers: { 'content-type': 'application/atom+xml', 'x-hub-signature': sign(atom) },
        payload: atom,
      });
      assert.equal(res.statusCode, 202);
    }
    const check = await t.as(user).post(`/api/youtube/watches/${watch.id}/check`, {});
    assert.equal(check.status, 429, check.text);
  });
});
