import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { createUser, bearer, type TestUser } from './helpers/test-app.ts';
import type { RequestDetail } from '../src/contract/shorts.ts';
import { harness, useHarness } from './helpers/harness.ts';
import { until, type Delivery, type startReceiver } from '../support/webhook-receiver.ts';
import { deliverOnce } from '../src/domain/webhooks/deliver-once.ts';
import { listAttempts, recordAttempt } from '../src/domain/webhooks/delivery-log.ts';
import { createWebhookAgent } from '../src/domain/webhooks/guarded-agent.ts';
import { processQueuedRequest } from '../src/domain/requests/shorts-requests.ts';
import { runShortsFetchJob } from '../src/jobs/shorts-fetch-job.ts';
import { ownLockStatus, runDoctor } from '../src/domain/operators/doctor.ts';
import { handOverStrandedRequests } from '../src/jobs/start-workers.ts';
import { AppError } from '../src/errors.ts';

const SHORTS = '/api/youtube/shorts';
const verify = (secret: string, d: Delivery) =>
  new Webhook(secret.replace(/^whsec_/, '')).verify(d.body, d.headers as Record<string, string>);

describe('asynchronous delivery by signed webhook', () => {
  const t = useHarness({
    env: { WEBHOOK_RETRY_SCHEDULE: '0.3,0.3,0.3', WEBHOOK_TIMEOUT_MS: '1500', CACHE_TTL_SECONDS: '0' },
    runWorker: true,
  });
  const secretsOf = async (user: TestUser) =>
    (await t.app.inject({ method: 'GET', url: '/accounts/webhook-secret', headers: bearer(user.token) })).json()
      .secrets as Array<{ secret: string }>;
  const detail = async (user: TestUser, id: string) => (await t.as(user).get<RequestDetail>(`${SHORTS}/${id}`)).body;
  const submit = (user: TestUser, payload: object) =>
    t.app.inject({ method: 'POST', url: SHORTS, headers: bearer(user.key), payload });

  it('accepts with 202 and delivers a signed shorts.completed with the synchronous body', async () => {
    const receiver = await t.receiver();
    const user = await createUser(t, 10);
    const res = await submit(user, { channelUrl: 'https://www.youtube.com/@demo', webhookUrl: receiver.url() });
    assert.equal(res.statusCode, 202, res.body);
    const accepted = res.json();
    assert.deepEqual(Object.keys(accepted).sort(), ['message', 'requestId', 'status', 'success']);
    assert.equal(accepted.status, 'processing');
    await receiver.waitFor(1);
    const [delivery] = receiver.deliveries;
    const [{ secret }] = (await secretsOf(user)) as [{ secret: string }];
    assert.match(secret, /^whsec_/);
    const payload = verify(secret, delivery!) as { type: string; timestamp: string; data: Record<string, unknown> };
    assert.equal(payload.type, 'shorts.completed');
    assert.ok(!Number.isNaN(Date.parse(payload.timestamp)));
    assert.equal(payload.data.requestId, accepted.requestId);
    assert.equal(payload.data.itemCount, 120);
    assert.equal(payload.data.creditsCharged, 3);
    assert.equal((payload.data.data as { shorts: unknown[] }).shorts.length, 120);
    assert.equal(delivery!.headers['webhook-id'], `msg_${accepted.requestId}`);
    const state = await until(async () => {
      const d = await detail(user, accepted.requestId);
      return d.deliveries.length > 0 && d;
    });
    assert.equal(state.status, 'completed');
    assert.equal(state.deliveries[0]!.outcome, 'delivered');
    assert.equal(state.deliveries[0]!.statusCode, 200);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json().credits.balance,
      7,
    );
    await receiver.close();
  });

  it('delivers shorts.failed with the failure body and charges nothing', async () => {
    const receiver = await t.receiver();
    const user = await createUser(t, 10);
    const res = await submit(user, {
      channelUrl: 'https://www.youtube.com/@no-such-channel-zz',
      webhookUrl: receiver.url(),
    });
    assert.equal(res.statusCode, 202);
    await receiver.waitFor(1);
    const payload = JSON.parse(receiver.deliveries[0]!.body);
    assert.equal(payload.type, 'shorts.failed');
    assert.deepEqual(payload.data, {
      success: false,
      error: 'CHANNEL_NOT_FOUND',
      message: payload.data.message,
      requestId: res.json().requestId,
    });
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json().credits.balance,
      10,
    );
    await receiver.close();
  });

  /**
   * A webhook request whose fetch keeps failing on our side (infrastructure trouble that outlasts every
   * retry, e.g. the shared cache down: not an AppError), handed to `then` once its job is retrying.
   */
  async function failingFetch(
    then: (c: {
      user: TestUser;
      requestId: string;
      receiver: Awaited<ReturnType<typeof startReceiver>>;
      job: string;
    }) => Promise<void>,
  ): Promise<void> {
    const receiver = await t.receiver();
    const user = await createUser(t, 10);
    const { shorts } = t.services.shortsRequests;
    const real = shorts.fetch;
    shorts.fetch = async () => {
      throw new Error('Connection is closed.');
    };
    try {
      const res = await submit(user, { channelUrl: 'https://www.youtube.com/@demo', webhookUrl: receiver.url() });
      assert.equal(res.statusCode, 202, res.body);
      const { requestId } = res.json();
      const job = `name = 'shorts-fetch' AND data->>'requestId' = $1`;
      await until(
        async () =>
          (await t.services.db.query(`SELECT 1 FROM pgboss.job WHERE ${job} AND state = 'retry'`, [requestId])).length >
          0,
      );
      await then({ user, requestId, receiver, job });
    } finally {
      shorts.fetch = real;
      await receiver.close();
    }
  }

  /** The request was settled as failed with INTERNAL_ERROR, its webhook told, nothing charged or held. */
  async function settledAsGaveUp(
    user: TestUser,
    requestId: string,
    receiver: Awaited<ReturnType<typeof startReceiver>>,
  ): Promise<void> {
    await receiver.waitFor(1);
    const payload = verify((await secretsOf(user))[0]!.secret, receiver.deliveries[0]!) as {
      type: string;
      data: Record<string, unknown>;
    };
    assert.deepEqual(
      [payload.type, payload.data.error, payload.data.requestId],
      ['shorts.failed', 'INTERNAL_ERROR', requestId],
    );
    assert.equal((await detail(user, requestId)).status, 'failed');
    const [account] = await t.services.db.query<{ credit_balance: number; credits_reserved: number }>(
      'SELECT credit_balance, credits_reserved FROM accounts WHERE id = $1',
      [user.id],
    );
    assert.deepEqual({ ...account }, { credit_balance: 10, credits_reserved: 0 }, 'nothing charged, nothing held');
  }

  it('a request whose fetch job used up its retries is settled as failed, its hold released and its webhook told', async () => {
    await failingFetch(async ({ user, requestId, receiver, job }) => {
      // As after an hour of failures: the next one is its last.
      await t.services.db.query(
        `UPDATE pgboss.job SET retry_count = retry_limit, start_after = now() WHERE ${job} AND state = 'retry'`,
        [requestId],
      );
      await settledAsGaveUp(user, requestId, receiver);
    });
  });

  it('a request stranded in processing (its fetch job failed for good before the dead-letter queue existed) is settled when a worker starts', async () => {
    await failingFetch(async ({ user, requestId, receiver, job }) => {
      const db = t.services.db;
      // As an older release left it: the job failed for good with no dead-letter queue to go on to.
      await db.query(`UPDATE pgboss.job SET state = 'failed', dead_letter = NULL, completed_on = now() WHERE ${job}`, [
        requestId,
      ]);
      const stuck = await runDoctor(db, { lock: ownLockStatus(db) });
      assert.ok(
        stuck.findings.some(
          (f) => f.check === 'processing request → job' && f.details.some((d) => d.startsWith(requestId)),
        ),
        'doctor reports it',
      );
      assert.equal(await handOverStrandedRequests(t.services.boss, db), 1);
      await settledAsGaveUp(user, requestId, receiver);
      assert.equal(await handOverStrandedRequests(t.services.boss, db), 0, 'settled: nothing left to hand over');
    });
  });

  it("a fetch job renews its request's hold as its work starts, so a job that runs late cannot have it lapse mid-work", async () => {
    const user = await createUser(t, 10);
    const res = await submit(user, {
      channelUrl: 'https://www.youtube.com/@demo',
      webhookUrl: 'https://example.com/hook',
    });
    // The acceptance's hold; the job runs at once, so it is taken as it starts (below, again, on a copy of the request).
    assert.equal(res.statusCode, 202, res.body);
    const db = t.services.db;
    const requestId = `req_renew${user.id.slice(0, 8)}`;
    await db.query(
      `INSERT INTO shorts_requests (id, account_id, channel_url, mode, status) VALUES ($1, $2, 'https://www.youtube.com/@demo', 'webhook', 'processing')`,
      [requestId, user.id],
    );
    const lapsed = new Date(Date.now() - 60_000);
    await db.query(
      'INSERT INTO credit_reservations (request_id, account_id, credits, expires_at) VALUES ($1, $2, 1, $3)',
      [requestId, user.id, lapsed],
    );
    await db.query('UPDATE accounts SET credits_reserved = credits_reserved + 1 WHERE id = $1', [user.id]);
    let seen: Date | undefined;
    const deps = {
      ...t.services.shortsRequests,
      shorts: {
        ...t.services.shortsRequests.shorts,
        fetch: async (_query: unknown, hooks: { openMeter(): Promise<unknown> }) => {
          await hooks.openMeter();
          seen = (
            await db.query<{ expires_at: Date }>('SELECT expires_at FROM credit_reservations WHERE request_id = $1', [
              requestId,
            ])
          )[0]?.expires_at;
          throw new AppError('CHANNEL_NOT_FOUND');
        },
      },
    } as typeof t.services.shortsRequests;
    await processQueuedRequest(deps, requestId, async () => {});
    assert.ok(
      seen && seen.getTime() > Date.now() + 47 * 3600_000,
      `renewed for the work's time: ${seen?.toISOString()}`,
    );
  });

  // An attempt that fails on our side — the fetch itself, or the settling of a failed fetch — counts
  // the units it spent as unpaid before the queue retries it (before: they were never counted).
  const failedAttempts: Array<[string, Error, Partial<typeof t.services.shortsRequests>]> = [
    ['its fetch failed on our side', new Error('Connection is closed.'), {}],
    [
      'the database failed its settlement',
      new AppError('UPSTREAM_ERROR'),
      {
        queuedSettlements: {
          settle: async () => {
            throw new Error('the database went away');
          },
        },
      },
    ],
  ];
  for (const [when, failure, overrides] of failedAttempts) {
    it(`a fetch job attempt that failed (${when}) counts the units it spent, as the service's loss, before the queue retries it`, async () => {
      const user = await createUser(t, 10);
      const db = t.services.db;
      const requestId = `req_units${user.id.slice(0, 8)}`;
      await db.query(
        `INSERT INTO shorts_requests (id, account_id, channel_url, mode, status) VALUES ($1, $2, 'https://www.youtube.com/@demo', 'webhook', 'processing')`,
        [requestId, user.id],
      );
      const deps = {
        ...t.services.shortsRequests,
        shorts: {
          ...t.services.shortsRequests.shorts,
          fetch: async (
            _query: unknown,
            hooks: {
              openMeter(): Promise<{
                take(units: number): Promise<void>;
                commit(credits: number, why: string): Promise<void>;
              }>;
            },
          ) => {
            const meter = await hooks.openMeter();
            await meter.take(1); // the probe
            await meter.commit(1, 'This channel costs'); // the price known: the probe's unit is paid for from here on
            await meter.take(2); // spent upstream, then the attempt fails
            throw failure;
          },
        },
        ...overrides,
      } as typeof t.services.shortsRequests;
      await assert.rejects(
        processQueuedRequest(deps, requestId, async () => {}),
        /Connection is closed|database went away/,
      );
      const [day] = await db.query<{ units: number; unpaid_units: number; lost_units: number }>(
        'SELECT units, unpaid_units, lost_units FROM account_quota_days WHERE account_id = $1',
        [user.id],
      );
      // Nothing was charged, and the failure is ours: the units count, against no allowance (docs/quota.md).
      assert.deepEqual({ ...day }, { units: 3, unpaid_units: 0, lost_units: 3 });
    });
  }

  it('retries failures with the same webhook-id until a 2xx, logging every attempt', async () => {
    const receiver = await t.receiver((_d, i) => ({ status: i < 2 ? 500 : 204 }));
    const user = await createUser(t);
    const { requestId } = (
      await submit(user, { channelUrl: 'https://www.youtube.com/@sparse', webhookUrl: receiver.url() })
    ).json();
    await receiver.waitFor(3);
    const ids = new Set(receiver.deliveries.map((d) => d.headers['webhook-id']));
    assert.equal(ids.size, 1);
    assert.equal(receiver.deliveries[0]!.body, receiver.deliveries[2]!.body, 'identical payload on every attempt');
    const state = await until(async () => {
      const d = await detail(user, requestId);
      return d.deliveries.length === 3 && d;
    });
    assert.deepEqual(
      state.deliveries.map((d) => [d.attempt, d.outcome, d.statusCode]),
      [
        [1, 'failed', 500],
        [2, 'failed', 500],
        [3, 'delivered', 204],
      ],
    );
    for (const { attempt, latencyMs } of state.deliveries) {
      // A number (null is what an attempt without a measured latency would show), and not negative.
      assert.equal(typeof latencyMs, 'number', `attempt ${attempt} has its latency`);
      assert.ok(latencyMs! >= 0, `attempt ${attempt}: ${latencyMs} ms`);
    }
    await receiver.close();
  });

  it('stops on 410 Gone, does not follow redirects, and gives up when the schedule is spent', async () => {
    const gone = await t.receiver(() => ({ status: 410 }));
    const redirect = await t.receiver((d) => ({
      status: d.path === '/hook' ? 302 : 200,
      headers: { location: '/elsewhere' },
    }));
    const user = await createUser(t);
    const a = (await submit(user, { channelUrl: 'https://www.youtube.com/@sparse', webhookUrl: gone.url() })).json()
      .requestId;
    const b = (await submit(user, { channelUrl: 'https://www.youtube.com/@sparse', webhookUrl: redirect.url() })).json()
      .requestId;
    const goneState = await until(async () => {
      const d = await detail(user, a);
      return d.deliveries.length >= 1 && d;
    });
    const redirectState = await until(async () => {
      const d = await detail(user, b);
      return d.deliveries.length >= 4 && d;
    });
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal((await detail(user, a)).deliveries.length, 1, 'no retry after 410');
    assert.equal(goneState.deliveries[0]!.outcome, 'gone');
    assert.equal((await detail(user, b)).deliveries.length, 4, '1 attempt + 3 scheduled retries, then stop');
    assert.match(redirectState.deliveries[0]!.error ?? '', /Redirect \(302\) not followed/);
    assert.ok(
      redirect.deliveries.every((d) => d.path === '/hook'),
      'the redirect target was never called',
    );
    await gone.close();
    await redirect.close();
  });

  it('honours Retry-After and times out a receiver that does not answer', async () => {
    const slow = await t.receiver((_d, i) =>
      i === 0 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 200 },
    );
    const hanging = await t.receiver((_d, i) => (i === 0 ? { status: 0, hang: true } : { status: 200 }));
    const user = await createUser(t);
    await submit(user, { channelUrl: 'https://www.youtube.com/@sparse', webhookUrl: slow.url() });
    const hangId = (
      await submit(user, { channelUrl: 'https://www.youtube.com/@sparse', webhookUrl: hanging.url() })
    ).json().requestId;
    await slow.waitFor(2);
    const gap = slow.deliveries[1]!.receivedAt - slow.deliveries[0]!.receivedAt;
    assert.ok(gap >= 1900, `second attempt waited for Retry-After (gap ${gap} ms)`);
    await hanging.waitFor(2);
    const state = await until(async () => {
      const d = await detail(user, hangId);
      return d.deliveries.length >= 2 && d;
    });
    assert.match(state.deliveries[0]!.error ?? '', /No answer within 1500 ms/);
    assert.equal(state.deliveries[1]!.outcome, 'delivered');
    await slow.close();
    await hanging.close();
  });

  it('signs with old and new secrets during a rotation, and redelivers on request with the same id', async () => {
    const receiver = await t.receiver();
    const user = await createUser(t);
    const [old] = await secretsOf(user);
    const rotated = await t.app.inject({
      method: 'POST',
      url: '/accounts/webhook-secret/rotate',
      headers: bearer(user.token),
    });
    assert.equal(rotated.statusCode, 200);
    const fresh = rotated.json().secret as string;
    assert.notEqual(fresh, old!.secret);
    assert.equal((await secretsOf(user))[0]!.secret, fresh);
    const { requestId } = (
      await submit(user, { channelUrl: 'https://www.youtube.com/@sparse', webhookUrl: receiver.url() })
    ).json();
    await receiver.waitFor(1);
    const delivery = receiver.deliveries[0]!;
    assert.equal(String(delivery.headers['webhook-signature']).split(' ').length, 2);
    assert.ok(verify(old!.secret, delivery));
    assert.ok(verify(fresh, delivery));
    await until(async () => (await detail(user, requestId)).deliveries.length === 1);
    const again = await t.app.inject({
      method: 'POST',
      url: `${SHORTS}/${requestId}/redeliver`,
      headers: bearer(user.key),
    });
    assert.equal(again.statusCode, 202);
    assert.equal(again.json().attempt, 2);
    await receiver.waitFor(2);
    assert.equal(receiver.deliveries[1]!.headers['webhook-id'], delivery.headers['webhook-id']);
    const other = await createUser(t);
    assert.equal(
      (await t.app.inject({ method: 'POST', url: `${SHORTS}/${requestId}/redeliver`, headers: bearer(other.key) }))
        .statusCode,
      404,
    );
    await receiver.close();
  });

  it('checks the request before accepting: bad channel URL 400, no credits 402', async () => {
    const user = await createUser(t, 0);
    const bad = await submit(user, {
      channelUrl: 'https://example.com/@demo',
      webhookUrl: 'https://hooks.example.com/x',
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error, 'INVALID_CHANNEL_URL');
    const broke = await submit(user, {
      channelUrl: 'https://www.youtube.com/@demo',
      webhookUrl: 'https://hooks.example.com/x',
    });
    assert.equal(broke.statusCode, 402);
  });
});

describe('the first attempt, made by the fetch job', () => {
  // No worker: the test runs the fetch job itself, as pg-boss would.
  const t = useHarness({ env: { CACHE_TTL_SECONDS: '0' }, runWorker: false });

  it('a fetch job retried after its process died past the settlement makes the first attempt, once; redelivery waits for it', async () => {
    const receiver = await t.receiver();
    const user = await createUser(t, 10);
    const res = await t.app.inject({
      method: 'POST',
      url: SHORTS,
      headers: bearer(user.key),
      payload: { channelUrl: 'https://www.youtube.com/@sparse', webhookUrl: receiver.url() },
    });
    assert.equal(res.statusCode, 202, res.body);
    const { requestId } = res.json();
    // The first run settles and dies before its attempt: settled, nothing sent, the fetch job still live.
    assert.equal((await processQueuedRequest(t.services.shortsRequests, requestId, async () => {})).state, 'settled');
    const redeliver = () =>
      t.app.inject({ method: 'POST', url: `${SHORTS}/${requestId}/redeliver`, headers: bearer(user.key) });
    const early = await redeliver();
    assert.equal(early.statusCode, 409, early.body);
    assert.equal(early.json().error, 'DELIVERY_IN_PROGRESS');
    const doctor = await runDoctor(t.services.db, { lock: ownLockStatus(t.services.db) });
    const pending = doctor.findings.find((f) => f.check === 'settled webhook request → delivery');
    assert.equal(pending?.severity, 'ok', 'a live fetch job stands for the first attempt');
    // pg-boss retries the job: it finds the request settled and makes the attempt.
    const deps = { boss: t.services.boss, shortsRequests: t.services.shortsRequests, delivery: t.services.delivery };
    assert.deepEqual(await runShortsFetchJob(deps, requestId), { settled: 'already-settled', summaryQueued: false });
    assert.equal(receiver.deliveries.length, 1);
    assert.equal(JSON.parse(receiver.deliveries[0]!.body).type, 'shorts.completed');
    // Run once more (a retry of a job whose attempt was recorded): nothing is sent again.
    await runShortsFetchJob(deps, requestId);
    assert.equal(receiver.deliveries.length, 1);
    // The attempt is recorded: redelivery goes ahead although the fetch job was never completed here.
    const again = await redeliver();
    assert.equal(again.statusCode, 202, again.body);
    assert.equal(again.json().attempt, 2);
  });
});

describe('webhook SSRF guard', () => {
  const t = useHarness({ fake: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });

  it('refuses private, loopback, metadata and mapped addresses at request time', async () => {
    const user = await createUser(t);
    for (const webhookUrl of [
      'http://127.0.0.1:8080/x',
      'http://localhost/x',
      'http://169.254.169.254/latest',
      'http://[::ffff:10.0.0.1]/x',
      'http://[::1]/x',
      'http://10.0.0.8/x',
      'http://0.0.0.0/x',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: SHORTS,
        headers: bearer(user.key),
        payload: { channelUrl: 'https://www.youtube.com/@demo', webhookUrl },
      });
      assert.equal(res.statusCode, 400, webhookUrl);
      assert.equal(res.json().error, 'UNSAFE_WEBHOOK_URL', webhookUrl);
    }
  });

  it('checks the address actually connected to: a name resolving to loopback is refused', async () => {
    const receiver = await t.receiver();
    const agent = createWebhookAgent({ allowPrivate: false, timeoutMs: 2000 });
    const result = await deliverOnce({
      url: `http://localhost:${receiver.port}/hook`,
      webhookId: 'msg_x',
      body: '{}',
      secrets: ['whsec_' + Buffer.from('k'.repeat(32)).toString('base64')],
      agent,
      allowPrivate: false,
      timeoutMs: 2000,
    });
    assert.equal(result.outcome, 'failed');
    // Customers see a generic reason; the resolved address stays in the detail for the logs.
    assert.equal(result.error, 'Destination not allowed.');
    assert.match(result.detail!, /forbidden address/);
    const literal = await deliverOnce({
      url: `http://127.0.0.1:${receiver.port}/hook`,
      webhookId: 'msg_x',
      body: '{}',
      secrets: ['whsec_' + Buffer.from('k'.repeat(32)).toString('base64')],
      agent,
      allowPrivate: false,
      timeoutMs: 2000,
    });
    assert.equal(literal.error, 'Destination not allowed.');
    assert.match(literal.detail!, /forbidden address/);
    assert.equal(receiver.deliveries.length, 0);
    await agent.close();
    await receiver.close();
  });
});

describe('a webhook retry due after the result was dropped', () => {
  it('is not sent: the summary left behind is never delivered as the result; the attempt says why', async (ctx) => {
    const { purgeExpiredResults } = await import('../src/domain/requests/stored-results.ts');
    const t = await harness(ctx, { env: { RESULT_RETENTION_DAYS: '1', WEBHOOK_RETRY_SCHEDULE: '4' }, runWorker: true });
    const receiver = await t.receiver((_d, i) => ({ status: i === 0 ? 500 : 200 }));
    const user = await createUser(t, 10);
    const res = await t.app.inject({
      method: 'POST',
      url: SHORTS,
      headers: bearer(user.key),
      payload: { channelUrl: 'https://www.youtube.com/@sparse', webhookUrl: receiver.url() },
    });
    assert.equal(res.statusCode, 202, res.body);
    const { requestId } = res.json();
    await receiver.waitFor(1);
    assert.ok(JSON.parse(receiver.deliveries[0]!.body).data.data, 'the first attempt carries the result');
    // The hourly purge, run as it would once the retention has passed, before the retry is due
    // (4 s later: room for a loaded machine, where a 1 s retry could come first).
    assert.equal(await purgeExpiredResults(t.services.db, 1, Date.now() + 86_400_000 + 1000), 1);
    const detail = async () =>
      (await t.app.inject({ method: 'GET', url: `${SHORTS}/${requestId}`, headers: bearer(user.key) })).json();
    const state = await until(async () => {
      const d = await detail();
      return d.deliveries.length === 2 && d;
    });
    assert.equal(receiver.deliveries.length, 1, 'nothing sent after the drop');
    const last = state.deliveries.find((d: { attempt: number }) => d.attempt === 2);
    assert.equal(last.outcome, 'failed');
    assert.match(last.error, /result was kept for RESULT_RETENTION_DAYS and has been dropped/);
    assert.equal(last.nextAttemptAt ?? null, null, 'no further retry');
  });
});

describe('a webhook request that fails on a server-side status', () => {
  it('is reported with its request id and cause, as a synchronous one is logged', async (ctx) => {
    const t = await harness(ctx, { env: { CACHE_TTL_SECONDS: '0' } });
    const { fake } = t;
    const user = await createUser(t, 10);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(user.key),
      payload: { channelUrl: 'https://www.youtube.com/@sparse', webhookUrl: 'http://127.0.0.1:9/h' },
    });
    assert.equal(res.statusCode, 202, res.body);
    const { requestId } = res.json();
    fake.injectFault({ kind: 'backendError', times: Infinity });
    const reported: Array<[string, string]> = [];
    const deps = {
      ...t.services.shortsRequests,
      onServerFailure: (id: string, error: AppError) => reported.push([id, error.code]),
    };
    assert.equal((await processQueuedRequest(deps, requestId, async () => {})).state, 'settled');
    assert.deepEqual(reported, [[requestId, 'UPSTREAM_ERROR']]);
  });
});

describe("a delivery attempt's start time", () => {
  const t = useHarness({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });

  it('is taken before the request is sent, and the log keeps it rather than the time the attempt was recorded', async () => {
    const receiver = await t.receiver();
    const agent = createWebhookAgent({ allowPrivate: true, timeoutMs: 2000 });
    const result = await deliverOnce({
      url: receiver.url('/hook'),
      webhookId: 'msg_x',
      body: '{}',
      secrets: ['whsec_' + Buffer.from('k'.repeat(32)).toString('base64')],
      agent,
      allowPrivate: true,
      timeoutMs: 2000,
    });
    await agent.close();
    assert.equal(result.outcome, 'delivered');
    assert.ok(result.startedAt, 'the attempt says when it began');
    assert.ok(result.startedAt.getTime() <= receiver.deliveries[0]!.receivedAt, 'it began before the receiver got it');

    const user = await createUser(t, 10);
    const accepted = await t.app.inject({
      method: 'POST',
      url: SHORTS,
      headers: bearer(user.key),
      payload: { channelUrl: 'https://www.youtube.com/@demo', webhookUrl: 'http://127.0.0.1:9/hook' },
    });
    assert.equal(accepted.statusCode, 202, accepted.body);
    const requestId: string = accepted.json().requestId;
    const began = new Date('2026-01-02T03:04:05.678Z');
    await recordAttempt(t.services.db, { requestId }, 99, { ...result, startedAt: began, latencyMs: 9000 });
    const logged = (await listAttempts(t.services.db, { requestId })).find((a) => a.attempt === 99);
    assert.equal(logged?.startedAt, began.toISOString());
  });
});
