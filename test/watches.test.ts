// Watches: creation and validation, the baseline, checks (units, seen-set, shorts.created
// oldest first, never twice), price and pausing/resuming for credits, the sweep's exactly-once
// claim across two instances on one PostgreSQL.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipWithout } from '../support/databases.ts';
import { Webhook } from 'standardwebhooks';
import { createUser, bearer, type TestUser } from './helpers/test-app.ts';
import { harness, useHarness, type Harness } from './helpers/harness.ts';
import type { Account } from '../src/contract/accounts.ts';
import { until, type Delivery } from '../support/webhook-receiver.ts';
import { checkReservation, MAX_CHECK_UNITS, runWatchCheck, splitUnseen } from '../src/domain/watches/watch-check.ts';
import { newCheckId } from '../src/domain/watches/watch-store.ts';
import { checkChannelNow, resumePaidWatches, sweepDueWatches } from '../src/domain/watches/scheduler.ts';
import { reserveCredits } from '../src/domain/credits/reservations.ts';
import { grantCredits } from '../src/domain/credits/ledger.ts';
import { writeShortPoints } from '../src/domain/stats/snapshots.ts';
import pg from 'pg';
import { ownLockStatus, runDoctor } from '../src/domain/operators/doctor.ts';

const WATCHES = '/api/youtube/watches';
const DAY = 86_400_000;
const verify = (secret: string, d: Delivery) =>
  new Webhook(secret.replace(/^whsec_/, '')).verify(d.body, d.headers as Record<string, string>) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  };

/** A clock the test moves by hand. */
function manualClock(start = Date.parse('2026-07-01T12:00:00Z')) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/**
 * A short the watch has reported is taken down upstream, then restored: the check while it is down
 * reports nothing, and the check after it is back reports only the short published meanwhile, once.
 */
async function takenDownAndRestored(t: Harness, user: TestUser, handle: string): Promise<void> {
  const { fake } = t;
  const receiver = await t.receiver();
  fake.addChannel({ handle, shortsCount: 8 });
  const res = await t.app.inject({
    method: 'POST',
    url: WATCHES,
    headers: bearer(user.key),
    payload: { channelUrl: `https://www.youtube.com/@${handle}`, webhookUrl: receiver.url() },
  });
  assert.equal(res.statusCode, 201, res.body);
  const watchId = res.json().id as string;
  const check = async () => {
    const result = await runWatchCheck(t.services.watches, watchId, newCheckId(), 'manual');
    if (result.outcome !== 'ok') assert.fail(`check failed: ${JSON.stringify(result)}`);
    return result;
  };
  const reported = async (n: number) => {
    await receiver.waitFor(n);
    return receiver.deliveries.map((d) =>
      (JSON.parse(d.body) as { data: { shorts: Array<{ id: string }> } }).data.shorts.map((s) => s.id),
    );
  };

  // The watch sees a short: it is reported.
  const { videoId: comeback } = await fake.publishShort(handle);
  assert.equal((await check()).newShorts, 1);
  assert.deepEqual(await reported(1), [[comeback]]);

  // Taken down upstream: gone from the listing; the check reports nothing.
  await fake.takeDownShort(handle, comeback);
  assert.equal((await check()).newShorts, 0);

  // Restored, and a new short published meanwhile: only the new one is reported, once.
  await fake.restoreShort(handle, comeback);
  const { videoId: fresh } = await fake.publishShort(handle);
  assert.equal((await check()).newShorts, 1);
  assert.deepEqual(await reported(2), [[comeback], [fresh]]);
  assert.equal((await check()).newShorts, 0, 'nothing new the next time either');

  const detail = (
    await t.app.inject({ method: 'GET', url: `${WATCHES}/${watchId}`, headers: bearer(user.key) })
  ).json();
  assert.equal(detail.watch.stats.shortsReported, 2);
  assert.equal(detail.events.length, 2);
  assert.deepEqual(
    detail.checks.map((c: { newShorts: number }) => c.newShorts),
    [0, 1, 0, 1, 0],
  );
  assert.equal(receiver.deliveries.length, 2);
}

describe('watches', () => {
  const clock = manualClock();
  const t = useHarness({
    env: { WATCH_SWEEP_SECONDS: '3600', WATCHES_PER_ACCOUNT: '2', WEBHOOK_RETRY_SCHEDULE: '0.2,0.2' },
    runWorker: true,
    now: clock.now,
  });
  const create = (user: TestUser, payload: object) =>
    t.app.inject({ method: 'POST', url: WATCHES, headers: bearer(user.key), payload });
  const balance = async (user: TestUser) => (await t.as(user).get<Account>('/accounts')).body.credits.balance;
  const secretOf = async (user: TestUser) =>
    (
      (await t.app.inject({ method: 'GET', url: '/accounts/webhook-secret', headers: bearer(user.token) })).json()
        .secrets[0] as { secret: string }
    ).secret;
  const check = (id: string) => runWatchCheck(t.services.watches, id, newCheckId(), 'manual');

  it('refuses bad input with the failure body, before any upstream work', async () => {
    const user = await createUser(t, 10);
    t.fake.resetStats();
    const cases: Array<[object, number, string]> = [
      [
        { channelUrl: 'https://www.youtube.com/@demo', webhookUrl: 'https://example.com/h', intervalSeconds: 60 },
        400,
        'VALIDATION_FAILED',
      ],
      [
        { channelUrl: 'https://example.com/not-a-channel', webhookUrl: 'https://example.com/h' },
        400,
        'INVALID_CHANNEL_URL',
      ],
      [{ channelUrl: 'https://www.youtube.com/@demo', webhookUrl: 'ftp://example.com/h' }, 400, 'UNSAFE_WEBHOOK_URL'],
      [{ channelUrl: 'https://www.youtube.com/@demo' }, 400, 'VALIDATION_FAILED'],
      [
        { channelUrl: 'https://www.youtube.com/@demo', webhookUrl: 'https://example.com/h', extra: 1 },
        400,
        'VALIDATION_FAILED',
      ],
    ];
    for (const [payload, status, code] of cases) {
      const res = await create(user, payload);
      assert.equal(res.statusCode, status, res.body);
      const body = res.json();
      assert.equal(body.success, false);
      assert.equal(body.error, code, res.body);
      assert.ok(body.message.length > 10);
      assert.equal(body.requestId, res.headers['x-request-id']);
    }
    assert.equal(t.fake.calls().length, 0);
    const unknown = await t.app.inject({ method: 'GET', url: `${WATCHES}/wch_nope`, headers: bearer(user.key) });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().error, 'NOT_FOUND');
  });

  it('creates a watch with a baseline (nothing reported), then reports each new short once, oldest first', async () => {
    const receiver = await t.receiver();
    const user = await createUser(t, 10);
    t.fake.addChannel({ handle: 'watched-a', shortsCount: 30 });
    t.fake.resetStats();
    const res = await create(user, { channelUrl: 'https://www.youtube.com/@watched-a', webhookUrl: receiver.url() });
    assert.equal(res.statusCode, 201, res.body);
    const watch = res.json();
    assert.match(watch.id, /^wch_/);
    assert.equal(watch.channel.title, 'watched-a');
    assert.match(watch.channel.id, /^UC/);
    assert.equal(watch.intervalSeconds, 900);
    assert.equal(watch.status, 'active');
    assert.equal(watch.nextCheckAt, new Date(clock.now() + 900_000).toISOString());
    assert.ok(watch.lastSeenShort?.id);
    // channels.list (resolution) + the newest playlist page: 2 units, paid with 1 credit (4 units).
    assert.equal(t.fake.quotaUsed(), 2);
    assert.deepEqual(
      t.fake.calls().map((c) => c.endpoint),
      ['channels', 'playlistItems'],
    );
    assert.equal(await balance(user), 9);
    assert.equal(watch.stats.prepaidUnits, 2);

    // Nothing new: one unit (the newest page), no event, no credit (prepaid).
    t.fake.resetStats();
    assert.deepEqual(await check(watch.id), { outcome: 'ok', newShorts: 0, units: 1, credits: 0 });
    assert.equal(t.fake.quotaUsed(), 1);

    // Two new shorts: page + details of only the new ids = 2 units; one shorts.created, oldest first.
    const first = await t.fake.publishShort('watched-a');
    clock.advance(1000);
    const second = await t.fake.publishShort('watched-a');
    t.fake.resetStats();
    const result = await check(watch.id);
    assert.equal(result.outcome, 'ok');
    assert.equal(t.fake.quotaUsed(), 2);
    const videosCall = t.fake.calls().find((c) => c.endpoint === 'videos');
    assert.deepEqual(videosCall?.params.id?.split(',').sort(), [first.videoId, second.videoId].sort());
    await receiver.waitFor(1);
    const payload = verify(await secretOf(user), receiver.deliveries[0]!);
    assert.equal(payload.type, 'shorts.created');
    const shorts = payload.data.shorts as Array<{
      id: string;
      shortUrl: string;
      snippet: { channelId: string; channelHandle: string };
    }>;
    assert.deepEqual(
      shorts.map((s) => s.id),
      [first.videoId, second.videoId],
    );
    assert.equal(shorts[0]!.shortUrl, `https://www.youtube.com/shorts/${first.videoId}`);
    assert.equal(shorts[0]!.snippet.channelHandle, '@watched-a');
    assert.equal(payload.data.watchId, watch.id);
    assert.match(receiver.deliveries[0]!.headers['webhook-id'] as string, /^msg_evt_/);
    // Units 1 (prepaid 1 left after the empty check) + 2 = 1 more credit; 2 shorts = 1 block = 1 credit.
    assert.deepEqual(result, { outcome: 'ok', newShorts: 2, units: 2, credits: 2 });
    assert.equal(await balance(user), 7);

    // Never the same short twice.
    assert.equal((await check(watch.id)).outcome, 'ok');
    const detail = (
      await t.app.inject({ method: 'GET', url: `${WATCHES}/${watch.id}`, headers: bearer(user.key) })
    ).json();
    assert.equal(detail.watch.stats.shortsReported, 2);
    assert.equal(detail.watch.lastSeenShort.id, second.videoId);
    assert.deepEqual(
      detail.checks.map((c: { trigger: string; newShorts: number }) => [c.trigger, c.newShorts]),
      [
        ['manual', 0],
        ['manual', 2],
        ['manual', 0],
        ['create', 0],
      ],
    );
    const events = await until(async () => {
      const d = (
        await t.app.inject({ method: 'GET', url: `${WATCHES}/${watch.id}`, headers: bearer(user.key) })
      ).json();
      return d.events[0]?.delivery.outcome === 'delivered' && d.events;
    });
    assert.equal(events.length, 1);
    assert.equal(events[0].type, 'shorts.created');
    assert.equal(receiver.deliveries.length, 1);
    // The checks' charges are accounted for: the doctor finds every ledger charge's check.
    const report = await runDoctor(t.services.db, { lock: ownLockStatus(t.services.db) });
    const ledger = report.findings.filter((f) => f.check.startsWith('ledger entry') || f.check.startsWith('balance'));
    assert.deepEqual(
      ledger.map((f) => f.severity),
      ['ok', 'ok'],
      JSON.stringify(ledger),
    );
    await receiver.close();
  });

  it('a channel gone from YouTube: its checks are paid, not taken from the allowance, and the third in a row pauses the watch', async () => {
    const receiver = await t.receiver();
    const user = await createUser(t, 10);
    const channel = t.fake.addChannel({ handle: 'to-suspend', shortsCount: 5 });
    const made = await create(user, { channelUrl: 'https://www.youtube.com/@to-suspend', webhookUrl: receiver.url() });
    assert.equal(made.statusCode, 201, made.body);
    const id = made.json().id as string;
    t.fake.addChannel({ handle: 'to-suspend', id: channel.id, shortsCount: 5, status: 'suspended' });
    const account = async () =>
      (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json();
    const before = await account();
    t.fake.resetStats();
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await check(id));
    assert.deepEqual(
      results.map((r) => r.outcome),
      ['failed', 'failed', 'failed', 'skipped', 'skipped'],
      JSON.stringify(results),
    );
    const after = await account();
    assert.equal(
      after.upstreamQuota.allowance.used,
      before.upstreamQuota.allowance.used,
      'nothing taken from the allowance',
    );
    assert.equal(t.fake.quotaUsed(), 3, 'three checks of 1 unit, then none');
    assert.equal(after.upstreamQuota.unitsToday - before.upstreamQuota.unitsToday, 3);
    // 3 units: within what the creation prepaid (1 credit bought 4, 2 spent) and 1 more credit.
    assert.equal(before.credits.balance - after.credits.balance, 1);
    const detail = (await t.app.inject({ method: 'GET', url: `${WATCHES}/${id}`, headers: bearer(user.key) })).json();
    assert.deepEqual([detail.watch.status, detail.watch.pausedReason], ['paused', 'channel']);
    await receiver.waitFor(1);
    const event = JSON.parse(receiver.deliveries[0]!.body) as {
      type: string;
      data: { reason: string; message: string };
    };
    assert.deepEqual([event.type, event.data.reason], ['watch.paused', 'channel']);
    assert.match(event.data.message, /has not had this channel for 3 checks in a row/);
    await receiver.close();
  });

  it('concurrent creations past the maximum are refused before any upstream work', async () => {
    const user = await createUser(t, 10);
    assert.equal(
      (await create(user, { channelUrl: 'https://www.youtube.com/@demo', webhookUrl: 'http://127.0.0.1:9/h' }))
        .statusCode,
      201,
    );
    const unpaidBefore = (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json()
      .upstreamQuota.allowance.used as number;
    t.fake.resetStats();
    const answers = await Promise.all(
      ['@fake-3', '@fake-4', '@fake-5', '@fake-6', '@fake-7'].map((handle) =>
        create(user, { channelUrl: `https://www.youtube.com/${handle}`, webhookUrl: 'http://127.0.0.1:9/h' }),
      ),
    );
    assert.deepEqual(
      answers.map((a) => a.statusCode).sort(),
      [201, 409, 409, 409, 409],
      answers.map((a) => a.body).join('\n'),
    );
    const made = answers.find((a) => a.statusCode === 201)!.json();
    const spent = t.fake.calls().reduce((sum, c) => sum + c.units, 0);
    const [check] = await t.services.db.query<{ units: number }>('SELECT units FROM watch_checks WHERE watch_id = $1', [
      made.id,
    ]);
    assert.equal(spent, check!.units, 'only the creation that got its place read the platform');
    const after = (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json();
    assert.equal(after.upstreamQuota.allowance.used, unpaidBefore, 'nothing counted as unpaid');
    assert.equal(after.credits.reserved, 0);
    for (const w of [
      made.id,
      ...(await t.services.db.query<{ id: string }>('SELECT id FROM watches WHERE account_id = $1', [user.id])).map(
        (r) => r.id,
      ),
    ]) {
      await t.app.inject({ method: 'DELETE', url: `${WATCHES}/${w}`, headers: bearer(user.key) });
    }
  });

  it('keeps to the per-account maximum, lists, changes, pauses and deletes watches', async () => {
    const user = await createUser(t, 10);
    const other = await createUser(t, 10);
    const a = await create(user, { channelUrl: 'https://www.youtube.com/@demo', webhookUrl: 'http://127.0.0.1:9/h' });
    clock.advance(1000); // listed oldest first
    const b = await create(user, {
      channelUrl: 'https://www.youtube.com/@sparse',
      webhookUrl: 'http://127.0.0.1:9/h',
      intervalSeconds: 3600,
    });
    assert.equal(a.statusCode, 201, a.body);
    assert.equal(b.statusCode, 201, b.body);
    const third = await create(user, {
      channelUrl: 'https://www.youtube.com/@empty',
      webhookUrl: 'http://127.0.0.1:9/h',
    });
    assert.equal(third.statusCode, 409);
    assert.match(third.json().message, /maximum of 2 watches/);
    const list = (await t.app.inject({ method: 'GET', url: WATCHES, headers: bearer(user.key) })).json();
    assert.deepEqual(
      list.watches.map((w: { id: string }) => w.id),
      [a.json().id, b.json().id],
    );
    // Someone else's watch does not exist for this caller.
    assert.equal(
      (await t.app.inject({ method: 'GET', url: `${WATCHES}/${a.json().id}`, headers: bearer(other.key) })).statusCode,
      404,
    );
    assert.equal(
      (await t.app.inject({ method: 'DELETE', url: `${WATCHES}/${a.json().id}`, headers: bearer(other.key) }))
        .statusCode,
      404,
    );

    const low = await t.app.inject({
      method: 'PATCH',
      url: `${WATCHES}/${b.json().id}`,
      headers: bearer(user.key),
      payload: { intervalSeconds: 5 },
    });
    assert.equal(low.statusCode, 400);
    const paused = await t.app.inject({
      method: 'PATCH',
      url: `${WATCHES}/${b.json().id}`,
      headers: bearer(user.key),
      payload: { status: 'paused', intervalSeconds: 1800 },
    });
    assert.equal(paused.statusCode, 200, paused.body);
    assert.equal(paused.json().status, 'paused');
    assert.equal(paused.json().pausedReason, 'user');
    assert.equal(paused.json().nextCheckAt, null);
    assert.equal(paused.json().intervalSeconds, 1800);
    // A paused watch is not checked, by the schedule or otherwise.
    assert.deepEqual(await check(b.json().id), { outcome: 'skipped', why: 'paused' });
    const resumed = await t.app.inject({
      method: 'PATCH',
      url: `${WATCHES}/${b.json().id}`,
      headers: bearer(user.key),
      payload: { status: 'active' },
    });
    assert.equal(resumed.json().status, 'active');
    assert.equal(resumed.json().nextCheckAt, new Date(clock.now()).toISOString());

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${WATCHES}/${a.json().id}`,
      headers: bearer(user.key),
    });
    assert.equal(deleted.statusCode, 200);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: `${WATCHES}/${a.json().id}`, headers: bearer(user.key) })).statusCode,
      404,
    );
    assert.equal(
      (await create(user, { channelUrl: 'https://www.youtube.com/@empty', webhookUrl: 'http://127.0.0.1:9/h' }))
        .statusCode,
      201,
    );
  });

  it('does not report older shorts that move into the page (a short above them deleted upstream)', async () => {
    const receiver = await t.receiver();
    const user = await createUser(t, 10);
    t.fake.addChannel({ handle: 'watched-d', shortsCount: 70 });
    const watch = (
      await create(user, { channelUrl: 'https://www.youtube.com/@watched-d', webhookUrl: receiver.url() })
    ).json();
    // As if the baseline's page had ended one short earlier: after the publish below, the last short
    // of the page shows up unseen below seen ones (it is the 49th now, the 50th then).
    const page = (await (
      await fetch(
        `${t.fake.baseUrl}/playlistItems?part=contentDetails&maxResults=50&key=fake-api-key&playlistId=UUSH${watch.channel.id.slice(2)}`,
      )
    ).json()) as { items: Array<{ contentDetails: { videoId: string } }> };
    const oldest = { video_id: page.items.at(-2)!.contentDetails.videoId };
    await t.services.db.query('DELETE FROM watch_seen_shorts WHERE watch_id = $1 AND video_id = $2', [
      watch.id,
      oldest.video_id,
    ]);
    const { videoId } = await t.fake.publishShort('watched-d');
    t.fake.resetStats();
    const result = await check(watch.id);
    assert.deepEqual([result.outcome, result.outcome === 'ok' && result.newShorts], ['ok', 1]);
    // Details only for the new short.
    assert.equal(t.fake.calls().find((c) => c.endpoint === 'videos')?.params.id, videoId);
    await receiver.waitFor(1);
    assert.deepEqual(
      (JSON.parse(receiver.deliveries[0]!.body) as { data: { shorts: Array<{ id: string }> } }).data.shorts.map(
        (s) => s.id,
      ),
      [videoId],
    );
    // The moved-in short is seen now (a later page shift does not bring it back as new).
    assert.equal(
      (
        await t.services.db.query('SELECT 1 FROM watch_seen_shorts WHERE watch_id = $1 AND video_id = $2', [
          watch.id,
          oldest.video_id,
        ])
      ).length,
      1,
    );
    // Unseen between seen ones may be a short videos.list did not return yet: new; below the last seen: old.
    assert.deepEqual(splitUnseen(['n1', 'n2', 's1', 'o1', 's2', 'o2'], new Set(['s1', 's2'])), {
      fresh: ['n1', 'n2', 'o1'],
      older: ['o2'],
    });
    assert.deepEqual(splitUnseen(['n1', 'n2'], new Set()), { fresh: ['n1', 'n2'], older: [] });
    await receiver.close();
  });

  it('does not report the back-catalogue when every seen short has left the page', async () => {
    const receiver = await t.receiver();
    const user = await createUser(t, 10);
    t.fake.addChannel({ handle: 'watched-mass', shortsCount: 70 });
    const watch = (
      await create(user, { channelUrl: 'https://www.youtube.com/@watched-mass', webhookUrl: receiver.url() })
    ).json();
    const page = (await (
      await fetch(
        `${t.fake.baseUrl}/playlistItems?part=contentDetails&maxResults=50&key=fake-api-key&playlistId=UUSH${watch.channel.id.slice(2)}`,
      )
    ).json()) as { items: Array<{ contentDetails: { videoId: string } }> };
    for (const item of page.items) await t.fake.takeDownShort('watched-mass', item.contentDetails.videoId);
    const quiet = await check(watch.id);
    assert.deepEqual([quiet.outcome, quiet.outcome === 'ok' && quiet.newShorts], ['ok', 0], JSON.stringify(quiet));
    // A short published now is still reported, alone.
    const { videoId } = await t.fake.publishShort('watched-mass');
    const next = await check(watch.id);
    assert.deepEqual([next.outcome, next.outcome === 'ok' && next.newShorts], ['ok', 1], JSON.stringify(next));
    await receiver.waitFor(1);
    assert.deepEqual(
      (JSON.parse(receiver.deliveries[0]!.body) as { data: { shorts: Array<{ id: string }> } }).data.shorts.map(
        (s) => s.id,
      ),
      [videoId],
    );
    await receiver.close();
  });

  it('a watch deleted during its check leaves no check behind, and the units spent are counted', async () => {
    const user = await createUser(t, 10);
    t.fake.addChannel({ handle: 'watched-gone-mid', shortsCount: 3 });
    const watch = (
      await create(user, {
        channelUrl: 'https://www.youtube.com/@watched-gone-mid',
        webhookUrl: 'http://127.0.0.1:9/h',
      })
    ).json();
    const real = t.services.watches.youtube;
    const deps = {
      ...t.services.watches,
      youtube: {
        ...real,
        metered: (spend: Parameters<typeof real.metered>[0]) => {
          const calls = real.metered(spend);
          return {
            ...calls,
            playlistItems: async (...args: Parameters<typeof calls.playlistItems>) => {
              const page = await calls.playlistItems(...args);
              await t.app.inject({ method: 'DELETE', url: `${WATCHES}/${watch.id}`, headers: bearer(user.key) });
              return page;
            },
          };
        },
      },
    };
    const unitsBefore = (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json()
      .upstreamQuota.unitsToday as number;
    const servedBefore = t.fake.quotaUsed();
    const checkId = newCheckId();
    assert.deepEqual(await runWatchCheck(deps, watch.id, checkId, 'manual'), { outcome: 'skipped', why: 'deleted' });
    assert.equal((await t.services.db.query('SELECT 1 FROM watch_checks WHERE id = $1', [checkId])).length, 0);
    const after = (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json();
    assert.ok(t.fake.quotaUsed() > servedBefore);
    assert.equal(
      after.upstreamQuota.unitsToday - unitsBefore,
      t.fake.quotaUsed() - servedBefore,
      'the units the check spent are counted',
    );
    assert.equal(after.credits.reserved, 0);
  });

  it('a watch deleted during a check that finds its channel gone leaves no check behind, and the units spent are counted', async () => {
    const user = await createUser(t, 10);
    const channel = t.fake.addChannel({ handle: 'gone-and-deleted', shortsCount: 3 });
    const watch = (
      await create(user, {
        channelUrl: 'https://www.youtube.com/@gone-and-deleted',
        webhookUrl: 'http://127.0.0.1:9/h',
      })
    ).json();
    t.fake.addChannel({ handle: 'gone-and-deleted', id: channel.id, shortsCount: 3, status: 'suspended' });
    const real = t.services.watches.youtube;
    let deleted = false;
    const deleteOnce = async () => {
      if (deleted) return;
      deleted = true;
      assert.equal(
        (await t.app.inject({ method: 'DELETE', url: `${WATCHES}/${watch.id}`, headers: bearer(user.key) })).statusCode,
        200,
      );
    };
    // Every upstream call of the check deletes the watch as it returns, whatever it answers.
    const deps = {
      ...t.services.watches,
      youtube: {
        ...real,
        metered: (spend: Parameters<typeof real.metered>[0]) => {
          const calls = real.metered(spend) as unknown as Record<string, unknown>;
          const wrapped = Object.fromEntries(
            Object.entries(calls).map(([name, call]) => [
              name,
              typeof call !== 'function'
                ? call
                : async (...args: unknown[]) => {
                    try {
                      return await (call as (...a: unknown[]) => Promise<unknown>).apply(calls, args);
                    } finally {
                      await deleteOnce();
                    }
                  },
            ]),
          );
          return wrapped as unknown as ReturnType<typeof real.metered>;
        },
      },
    };
    const unitsBefore = (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json()
      .upstreamQuota.unitsToday as number;
    const servedBefore = t.fake.quotaUsed();
    const checkId = newCheckId();
    assert.deepEqual(await runWatchCheck(deps, watch.id, checkId, 'manual'), { outcome: 'skipped', why: 'deleted' });
    assert.ok(deleted, 'the check read the platform');
    assert.equal(
      (await t.services.db.query('SELECT 1 FROM watch_checks WHERE id = $1', [checkId])).length,
      0,
      'no check left behind',
    );
    const after = (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json();
    assert.ok(t.fake.quotaUsed() > servedBefore);
    assert.equal(
      after.upstreamQuota.unitsToday - unitsBefore,
      t.fake.quotaUsed() - servedBefore,
      'the units the check spent are counted',
    );
    assert.equal(after.credits.reserved, 0);
  });

  it('reports new shorts with the channel as it is now: a renamed handle and title', async () => {
    const receiver = await t.receiver();
    const user = await createUser(t, 10);
    const channel = t.fake.addChannel({ handle: 'rename-before', shortsCount: 5 });
    const watch = (
      await create(user, { channelUrl: 'https://www.youtube.com/@rename-before', webhookUrl: receiver.url() })
    ).json();
    t.fake.addChannel({ handle: 'rename-after', id: channel.id, shortsCount: 5 });
    const { videoId } = await t.fake.publishShort('rename-after');
    const result = await check(watch.id);
    assert.deepEqual([result.outcome, result.outcome === 'ok' && result.newShorts], ['ok', 1], JSON.stringify(result));
    await receiver.waitFor(1);
    const event = JSON.parse(receiver.deliveries[0]!.body) as {
      data: {
        channel: { title: string };
        shorts: Array<{ id: string; snippet: { channelHandle?: string; channelTitle?: string } }>;
      };
    };
    const short = event.data.shorts[0]!;
    assert.equal(short.id, videoId);
    assert.equal(short.snippet.channelHandle, '@rename-after');
    assert.equal(event.data.channel.title, short.snippet.channelTitle, 'the event names the channel as its shorts do');
    const now = (
      await t.app.inject({ method: 'GET', url: `${WATCHES}/${watch.id}`, headers: bearer(user.key) })
    ).json();
    assert.equal(now.watch.channel.title, short.snippet.channelTitle);
    await receiver.close();
  });

  it('does not report a short again when it reappears after being taken down upstream', async () => {
    await takenDownAndRestored(t, await createUser(t, 10), 'watched-reappear');
  });

  it('records a failed check (platform error) without charging it; the next check catches up', async () => {
    const user = await createUser(t, 10);
    t.fake.addChannel({ handle: 'watched-f', shortsCount: 3 });
    const watch = (
      await create(user, { channelUrl: 'https://www.youtube.com/@watched-f', webhookUrl: 'http://127.0.0.1:9/h' })
    ).json();
    const before = await balance(user);
    const { videoId } = await t.fake.publishShort('watched-f');
    t.fake.injectFault({ endpoint: 'playlistItems', kind: 'backendError', times: 2 });
    const failed = await check(watch.id);
    assert.equal(failed.outcome, 'failed');
    assert.equal(await balance(user), before);
    const state = (
      await t.app.inject({ method: 'GET', url: `${WATCHES}/${watch.id}`, headers: bearer(user.key) })
    ).json();
    assert.match(state.watch.lastError, /UPSTREAM_ERROR/);
    assert.equal(state.checks[0].outcome, 'failed');
    assert.equal(state.checks[0].creditsCharged, 0);
    const next = await check(watch.id);
    assert.deepEqual([next.outcome, next.outcome === 'ok' && next.newShorts], ['ok', 1]);
    const after = (
      await t.app.inject({ method: 'GET', url: `${WATCHES}/${watch.id}`, headers: bearer(user.key) })
    ).json();
    assert.equal(after.watch.lastError, null);
    assert.equal(after.watch.lastSeenShort.id, videoId);
  });

  it('pauses a watch whose account cannot pay (watch.paused), and resumes it when credits return (watch.resumed)', async () => {
    const receiver = await t.receiver();
    const user = await createUser(t, 1);
    t.fake.addChannel({ handle: 'watched-b', shortsCount: 3 });
    const res = await create(user, { channelUrl: 'https://www.youtube.com/@watched-b', webhookUrl: receiver.url() });
    assert.equal(res.statusCode, 201, res.body);
    const watch = res.json();
    assert.equal(await balance(user), 0);
    await t.fake.publishShort('watched-b');
    t.fake.resetStats();
    // A check may need a credit for the new shorts it finds: none is available, so nothing is spent.
    assert.deepEqual(await check(watch.id), { outcome: 'paused' });
    assert.equal(t.fake.quotaUsed(), 0);
    await receiver.waitFor(1);
    const paused = verify(await secretOf(user), receiver.deliveries[0]!);
    assert.equal(paused.type, 'watch.paused');
    assert.equal(paused.data.reason, 'credits');
    const state = (
      await t.app.inject({ method: 'GET', url: `${WATCHES}/${watch.id}`, headers: bearer(user.key) })
    ).json().watch;
    assert.equal(state.status, 'paused');
    assert.equal(state.pausedReason, 'credits');
    // No credits yet: the sweep leaves it paused.
    assert.ok(!(await resumePaidWatches(t.services.watches)).includes(watch.id));
    await t.services.db.transaction((tx) => grantCredits(tx, user.id, 5, 'test'));
    assert.ok((await resumePaidWatches(t.services.watches)).includes(watch.id));
    await receiver.waitFor(2);
    assert.equal(verify(await secretOf(user), receiver.deliveries[1]!).type, 'watch.resumed');
    // Due at once: the sweep queues its check, which reports the short published meanwhile.
    const jobs = await sweepDueWatches(t.services.watches);
    assert.ok(jobs.some((j) => j.watchId === watch.id));
    await receiver.waitFor(3);
    const created = verify(await secretOf(user), receiver.deliveries[2]!);
    assert.equal(created.type, 'shorts.created');
    assert.equal((created.data.shorts as unknown[]).length, 1);
    await receiver.close();
  });

  it("a disabled account's watches are not claimed, checked, pushed or resumed; enabled again, they are due at once", async () => {
    const receiver = await t.receiver();
    const user = await createUser(t, 20);
    t.fake.addChannel({ handle: 'watched-disabled', shortsCount: 3 });
    const [a, b] = (await Promise.all(
      [1, 2].map(async () => {
        const res = await create(user, {
          channelUrl: 'https://www.youtube.com/@watched-disabled',
          webhookUrl: receiver.url(),
        });
        assert.equal(res.statusCode, 201, res.body);
        return res.json() as { id: string; channel: { id: string } };
      }),
    )) as [{ id: string; channel: { id: string } }, { id: string; channel: { id: string } }];
    const db = t.services.db;
    await db.query(`UPDATE watches SET next_check_at = '2000-01-01' WHERE id = $1`, [a.id]);
    await db.query(`UPDATE watches SET status = 'paused', paused_reason = 'credits' WHERE id = $1`, [b.id]);
    await db.query('UPDATE accounts SET disabled_at = now() WHERE id = $1', [user.id]);
    const { videoId } = await t.fake.publishShort('watched-disabled');
    t.fake.resetStats();
    assert.ok(!(await sweepDueWatches(t.services.watches)).some((j) => j.watchId === a.id), 'not claimed');
    assert.deepEqual(
      await check(a.id),
      { outcome: 'skipped', why: 'account disabled' },
      'a check queued before is not run',
    );
    assert.deepEqual(
      await checkChannelNow(t.services.watches, a.channel.id, [videoId]),
      [],
      'a push checks none of its watches',
    );
    assert.ok(
      !(await resumePaidWatches(t.services.watches)).includes(b.id),
      'not resumed, though the account could pay',
    );
    assert.equal(t.fake.quotaUsed(), 0);
    await db.query('UPDATE accounts SET disabled_at = NULL WHERE id = $1', [user.id]);
    assert.ok((await resumePaidWatches(t.services.watches)).includes(b.id));
    const due = (await sweepDueWatches(t.services.watches)).map((j) => j.watchId);
    assert.ok(due.includes(a.id) && due.includes(b.id), JSON.stringify(due));
  });

  it('a paused watch resumes when what its own check reserves is available: less for one holding prepaid units', async () => {
    const user = await createUser(t, 20);
    t.fake.addChannel({ handle: 'watched-prepaid', shortsCount: 3 });
    const ids = await Promise.all(
      [1, 2].map(async () => {
        const res = await create(user, {
          channelUrl: 'https://www.youtube.com/@watched-prepaid',
          webhookUrl: 'https://example.com/hook',
        });
        assert.equal(res.statusCode, 201, res.body);
        return res.json().id as string;
      }),
    );
    const [prepaid, none] = ids as [string, string];
    const { quota, pricing } = t.services.watches;
    const db = t.services.db;
    await db.query(
      `UPDATE watches SET status = 'paused', paused_reason = 'credits', prepaid_units = CASE WHEN id = $1 THEN $3::int ELSE 0 END WHERE id IN ($1, $2)`,
      [prepaid, none, MAX_CHECK_UNITS],
    );
    const cheap = checkReservation(MAX_CHECK_UNITS, quota, pricing);
    assert.ok(cheap < checkReservation(0, quota, pricing), 'the settings make the two differ');
    await db.query('UPDATE accounts SET credit_balance = $2, credits_reserved = 0 WHERE id = $1', [user.id, cheap]);
    const resumed = await resumePaidWatches(t.services.watches);
    assert.ok(resumed.includes(prepaid), 'the watch its credits pay for');
    assert.ok(!resumed.includes(none));
  });

  it("a paused tracked watch resumes only when its check's tracking units are paid for too, and its check then reserves", async () => {
    t.fake.addChannel({ handle: 'watched-tracked', shortsCount: 3 });
    const db = t.services.db;
    const { quota, pricing } = t.services.watches;
    const paused = async (trackStats?: { days: number }) => {
      const user = await createUser(t, 20);
      const res = await create(user, {
        channelUrl: 'https://www.youtube.com/@watched-tracked',
        webhookUrl: 'https://example.com/hook',
        trackStats,
      });
      assert.equal(res.statusCode, 201, res.body);
      const watch = res.json() as { id: string; channel: { id: string } };
      return { user, id: watch.id, channelId: watch.channel.id };
    };
    const setAvailable = (user: TestUser, credits: number) =>
      db.query('UPDATE accounts SET credit_balance = $2, credits_reserved = 0 WHERE id = $1', [user.id, credits]);
    const prepaidOf = async (id: string) =>
      (await db.query<{ prepaid_units: number }>('SELECT prepaid_units FROM watches WHERE id = $1', [id]))[0]!
        .prepaid_units;

    const tracked = await paused({ days: 3 });
    // The channel's Shorts with history: 400 published within the 3 days (9 videos.list calls with
    // the listing page's), 100 before them (not tracked).
    const now = clock.now();
    const point = (i: number, publishedAt: number) => ({
      videoId: `trk${String(i).padStart(8, '0')}`,
      channelId: tracked.channelId,
      at: new Date(now),
      views: '10',
      likes: null,
      comments: null,
      exact: true,
      publishedAt: new Date(publishedAt).toISOString(),
    });
    await writeShortPoints(
      db,
      Array.from({ length: 500 }, (_, i) => point(i, i < 400 ? now - (i + 1) * 60_000 : now - 4 * DAY - i * 60_000)),
      0,
    );
    // The check itself says what it reserves: it cannot, and pauses the watch for credits.
    await setAvailable(tracked.user, 0);
    assert.deepEqual(await check(tracked.id), { outcome: 'paused' });
    const [pause] = await db.query<{ error: string }>(
      "SELECT error FROM watch_checks WHERE watch_id = $1 AND outcome = 'paused'",
      [tracked.id],
    );
    const needed = Number(/up to (\d+) credit/.exec(pause!.error)?.[1]);
    const untracked = checkReservation(await prepaidOf(tracked.id), quota, pricing);
    assert.ok(needed - 1 >= untracked, `the tracking units make the check reserve more (${needed} vs ${untracked})`);

    // Enough for the check without its tracking, not with it: left paused (its check would pause it again).
    await setAvailable(tracked.user, needed - 1);
    assert.ok(!(await resumePaidWatches(t.services.watches)).includes(tracked.id));
    await setAvailable(tracked.user, needed);
    assert.ok((await resumePaidWatches(t.services.watches)).includes(tracked.id));
    const resumedCheck = await check(tracked.id);
    assert.equal(resumedCheck.outcome, 'ok', JSON.stringify(resumedCheck));
    const [state] = await db.query<{ status: string }>('SELECT status FROM watches WHERE id = $1', [tracked.id]);
    assert.equal(state!.status, 'active');

    // A watch without tracking of the same channel needs what an untracked check reserves, as before.
    const plain = await paused();
    await db.query(`UPDATE watches SET status = 'paused', paused_reason = 'credits' WHERE id = $1`, [plain.id]);
    const plainNeeded = checkReservation(await prepaidOf(plain.id), quota, pricing);
    await setAvailable(plain.user, plainNeeded - 1);
    assert.ok(!(await resumePaidWatches(t.services.watches)).includes(plain.id));
    await setAvailable(plain.user, plainNeeded);
    assert.ok((await resumePaidWatches(t.services.watches)).includes(plain.id));
    const plainCheck = await check(plain.id);
    assert.equal(plainCheck.outcome, 'ok', JSON.stringify(plainCheck));
  });

  it("an account's paused watches resume as far as its credits cover them together, not each against the whole balance", async () => {
    const user = await createUser(t, 20);
    t.fake.addChannel({ handle: 'watched-three', shortsCount: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await create(user, {
        channelUrl: 'https://www.youtube.com/@watched-three',
        webhookUrl: 'https://example.com/hook',
      });
      assert.equal(res.statusCode, 201, res.body);
      ids.push(res.json().id);
    }
    const db = t.services.db;
    await db.query(
      `UPDATE watches SET status = 'paused', paused_reason = 'credits', prepaid_units = 0 WHERE id = ANY($1)`,
      [ids],
    );
    const one = checkReservation(0, t.services.watches.quota, t.services.watches.pricing);
    await db.query('UPDATE accounts SET credit_balance = $2, credits_reserved = 0 WHERE id = $1', [user.id, one]);
    const first = await resumePaidWatches(t.services.watches);
    assert.equal(first.length, 1, 'one check paid for: one watch');
    await db.query('UPDATE accounts SET credit_balance = $2 WHERE id = $1', [user.id, 3 * one]);
    assert.deepEqual(
      await resumePaidWatches(t.services.watches),
      ids.filter((id) => id !== first[0]),
    );
  });

  it('a retried check replaces the hold its dead run left instead of adding to it', async () => {
    const user = await createUser(t, 20);
    t.fake.addChannel({ handle: 'watched-retried', shortsCount: 3 });
    const res = await create(user, {
      channelUrl: 'https://www.youtube.com/@watched-retried',
      webhookUrl: 'https://example.com/hook',
    });
    assert.equal(res.statusCode, 201, res.body);
    const watchId = res.json().id as string;
    const db = t.services.db;
    const [watch] = await db.query<{ prepaid_units: number }>('SELECT prepaid_units FROM watches WHERE id = $1', [
      watchId,
    ]);
    const hold = checkReservation(watch!.prepaid_units, t.services.watches.quota, t.services.watches.pricing);
    // The dead run reserved what a check needs, and the account has exactly that.
    await db.query('UPDATE accounts SET credit_balance = $2, credits_reserved = 0 WHERE id = $1', [user.id, hold]);
    const checkId = newCheckId();
    assert.ok(
      await reserveCredits(db, {
        accountId: user.id,
        requestId: checkId,
        credits: hold,
        expiresAt: new Date(Date.now() + 600_000),
        now: new Date(),
      }),
    );
    const result = await runWatchCheck(t.services.watches, watchId, checkId, 'schedule');
    assert.equal(result.outcome, 'ok', JSON.stringify(result));
    const [account] = await db.query<{ credits_reserved: number }>(
      'SELECT credits_reserved FROM accounts WHERE id = $1',
      [user.id],
    );
    assert.equal(account!.credits_reserved, 0, 'no hold left behind');
    // Every check names its channel itself, so the statement outlives the watch.
    const checks = await db.query<{ trigger: string; channel_url: string; channel_title: string }>(
      'SELECT trigger, channel_url, channel_title FROM watch_checks WHERE watch_id = $1 ORDER BY trigger',
      [watchId],
    );
    assert.deepEqual(
      checks.map((c) => [c.trigger, c.channel_url, c.channel_title]),
      [
        ['create', 'https://www.youtube.com/@watched-retried', res.json().channel.title],
        ['schedule', 'https://www.youtube.com/@watched-retried', res.json().channel.title],
      ],
    );
  });
});

describe('watch scheduling across two instances on one PostgreSQL', { skip: skipWithout('postgres') }, () => {
  it('claims every due watch exactly once however many sweeps race', async (ctx) => {
    const clock = manualClock();
    // Two instances, sharing only the database (no workers: the jobs stay queued to be counted).
    const one = await harness(ctx, {
      mode: 'postgres',
      env: { WATCH_SWEEP_SECONDS: '3600', WATCH_MIN_INTERVAL_SECONDS: '60' },
      now: clock.now,
    });
    const two = await one.peer({ now: clock.now });
    const user = await createUser(one, 100);
    const ids: string[] = [];
    for (const handle of ['demo', 'sparse', 'democustom', 'empty']) {
      const res = await one.app.inject({
        method: 'POST',
        url: WATCHES,
        headers: bearer(user.key),
        payload: {
          channelUrl: `https://www.youtube.com/@${handle}`,
          webhookUrl: 'http://127.0.0.1:9/h',
          intervalSeconds: 60,
        },
      });
      assert.equal(res.statusCode, 201, res.body);
      ids.push(res.json().id);
    }
    // Nothing is due yet.
    assert.deepEqual(await sweepDueWatches(two.services.watches), []);
    clock.advance(60_000);
    const sweeps = await Promise.all(
      [one, two, one, two, one, two].map((app) => sweepDueWatches(app.services.watches)),
    );
    const claimed = sweeps
      .flat()
      .map((j) => j.watchId)
      .sort();
    assert.deepEqual(claimed, [...ids].sort());
    const queued = await one.services.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'watch-check'",
    );
    assert.equal(queued[0]!.n, 4);
    // Each came due again one interval later, not before.
    assert.deepEqual(await sweepDueWatches(one.services.watches), []);
    clock.advance(60_000);
    assert.equal(
      (await Promise.all([sweepDueWatches(one.services.watches), sweepDueWatches(two.services.watches)])).flat().length,
      4,
    );
  });
});

describe('resuming paused watches across two instances on one PostgreSQL', { skip: skipWithout('postgres') }, () => {
  it("resumes a watch once however many sweeps race, and never undoes its owner's pause made meanwhile", async (ctx) => {
    const one = await harness(ctx, { mode: 'postgres', env: { WATCH_SWEEP_SECONDS: '3600' } });
    const two = await one.peer();
    const owner = new pg.Client({ connectionString: one.config.DATABASE_URL });
    await owner.connect();
    one.defer(() => owner.end().catch(() => {}));
    const user = await createUser(one, 100);
    const res = await one.app.inject({
      method: 'POST',
      url: WATCHES,
      headers: bearer(user.key),
      payload: { channelUrl: 'https://www.youtube.com/@demo', webhookUrl: 'http://127.0.0.1:9/h' },
    });
    assert.equal(res.statusCode, 201, res.body);
    const watchId = res.json().id as string;
    const pause = () =>
      one.services.db.query("UPDATE watches SET status = 'paused', paused_reason = 'credits' WHERE id = $1", [watchId]);
    const resumedEvents = async () =>
      (
        await one.services.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM webhook_events WHERE type = 'watch.resumed' AND subject_id = $1",
          [watchId],
        )
      )[0]!.n;

    // Racing sweeps: one resumes it, one watch.resumed.
    await pause();
    const sweeps = await Promise.all([one, two, one, two].map((app) => resumePaidWatches(app.services.watches)));
    assert.deepEqual(sweeps.flat(), [watchId]);
    assert.equal(await resumedEvents(), 1);

    // Its owner pauses it while a sweep waits for the row: the sweep must not resume it.
    await pause();
    await owner.query('BEGIN');
    await owner.query("UPDATE watches SET paused_reason = 'user' WHERE id = $1", [watchId]);
    const sweep = resumePaidWatches(two.services.watches);
    await until(
      async () =>
        (
          await one.services.db.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          )
        )[0]!.n > 0,
      10_000,
      10,
    );
    await owner.query('COMMIT');
    assert.deepEqual(await sweep, []);
    const row = (
      await one.services.db.query<{ status: string; paused_reason: string }>(
        'SELECT status, paused_reason FROM watches WHERE id = $1',
        [watchId],
      )
    )[0]!;
    assert.deepEqual({ ...row }, { status: 'paused', paused_reason: 'user' });
    assert.equal(await resumedEvents(), 1, 'no second watch.resumed');
  });
});

describe('watch checks on the InnerTube Shorts tab', () => {
  for (const source of ['hybrid', 'innertube'] as const) {
    it(`${source}: lists the tab's first page (0 units) and details only the new ids`, async (ctx) => {
      const clock = manualClock();
      const t = await harness(ctx, {
        env: { YOUTUBE_SOURCE: source, WATCH_SWEEP_SECONDS: '3600' },
        runWorker: true,
        now: clock.now,
      });
      const { fake } = t;
      const receiver = await t.receiver();
      const user = await createUser(t, 10);
      fake.addChannel({ handle: `tab-${source}`, shortsCount: 60 });
      fake.resetStats();
      const res = await t.app.inject({
        method: 'POST',
        url: WATCHES,
        headers: bearer(user.key),
        payload: { channelUrl: `https://www.youtube.com/@tab-${source}`, webhookUrl: receiver.url() },
      });
      assert.equal(res.statusCode, 201, res.body);
      const watch = res.json();
      // hybrid resolves with channels.list (1 unit), lists the tab and dates its newest short (1 unit); keyless spends nothing.
      assert.equal(fake.quotaUsed(), source === 'hybrid' ? 2 : 0);
      if (source === 'hybrid')
        assert.ok(
          (
            await t.services.db.query<{ at: Date | null }>(
              'SELECT last_seen_published_at AS at FROM watches WHERE id = $1',
              [watch.id],
            )
          )[0]!.at,
          'the baseline has a date',
        );
      assert.ok(fake.innertubeCalls().some((c) => c.endpoint === 'browse'));
      fake.resetStats();
      assert.deepEqual(await runWatchCheck(t.services.watches, watch.id, newCheckId(), 'manual'), {
        outcome: 'ok',
        newShorts: 0,
        units: 0,
        credits: 0,
      });
      const { videoId } = await fake.publishShort(`tab-${source}`);
      const result = await runWatchCheck(t.services.watches, watch.id, newCheckId(), 'manual');
      assert.equal(result.outcome, 'ok');
      assert.equal(fake.quotaUsed(), source === 'hybrid' ? 1 : 0);
      if (source === 'hybrid') assert.equal(fake.calls().find((c) => c.endpoint === 'videos')?.params.id, videoId);
      await receiver.waitFor(1);
      const body = JSON.parse(receiver.deliveries[0]!.body) as {
        data: { shorts: Array<{ id: string; shortUrl: string }> };
      };
      assert.deepEqual(
        body.data.shorts.map((s) => s.id),
        [videoId],
      );
    });

    it(`${source}: does not report a short again when it reappears after being taken down`, async (ctx) => {
      const t = await harness(ctx, {
        env: { YOUTUBE_SOURCE: source, WATCH_SWEEP_SECONDS: '3600' },
        runWorker: true,
        now: manualClock().now,
      });
      await takenDownAndRestored(t, await createUser(t, 10), `reappear-${source}`);
    });
  }
});

describe('two instances running watches on one PostgreSQL', { skip: skipWithout('postgres') }, () => {
  it('report every new short exactly once while both sweep and check', async (ctx) => {
    const one = await harness(ctx, {
      mode: 'postgres',
      env: { WATCH_SWEEP_SECONDS: '0.2', WATCH_MIN_INTERVAL_SECONDS: '1' },
      runWorker: true,
    });
    await one.peer({ runWorker: true });
    const { fake } = one;
    fake.addChannel({ handle: 'two-instances', shortsCount: 5 });
    const receiver = await one.receiver();
    const user = await createUser(one, 100);
    const res = await one.app.inject({
      method: 'POST',
      url: WATCHES,
      headers: bearer(user.key),
      payload: {
        channelUrl: 'https://www.youtube.com/@two-instances',
        webhookUrl: receiver.url(),
        intervalSeconds: 1,
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const published: string[] = [];
    for (let i = 0; i < 3; i++) {
      published.push((await fake.publishShort('two-instances')).videoId);
      await until(async () => receiver.deliveries.some((d) => d.body.includes(published.at(-1)!)), 30_000, 50);
    }
    const watchId = res.json().id as string;
    const checks = async () =>
      (
        await one.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM watch_checks WHERE watch_id = $1', [
          watchId,
        ])
      )[0]!.n;
    const seen = await checks();
    await until(async () => (await checks()) >= seen + 3, 30_000, 100);
    const events = new Map<string, string[]>();
    for (const d of receiver.deliveries)
      events.set(
        String(d.headers['webhook-id']),
        (JSON.parse(d.body) as { data: { shorts: Array<{ id: string }> } }).data.shorts.map((s) => s.id),
      );
    const reported = [...events.values()].flat();
    assert.deepEqual([...reported].sort(), [...published].sort());
  });
});
