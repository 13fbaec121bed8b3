// The health of webhook destinations (GET /accounts/webhook-destinations), and pausing one that has
// failed for WEBHOOK_DISABLE_AFTER_DAYS: its new attempts held, one webhook.destination.paused account
// event, resumed by the customer or by a test event that succeeds. The service's clock is injected:
// days pass between requests without waiting for them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { STORAGE_MODES, createUser, bearer, type TestUser } from './helpers/test-app.ts';
import { useHarness } from './helpers/harness.ts';
import { until } from '../support/webhook-receiver.ts';
import type { WebhookDestination, WebhookDestinations } from '../src/contract/requests-log.ts';
import type { RequestDetail } from '../src/contract/shorts.ts';

const SHORTS = '/api/youtube/shorts';
const DAY = 86_400_000;

for (const mode of STORAGE_MODES) {
  describe(`webhook destinations: health, pause and resume (${mode})`, () => {
    // The service's clock, each suite from now: days pass between requests without waiting for them.
    let clock = Date.now();
    const t = useHarness({
      env: {
        CACHE_TTL_SECONDS: '0',
        WEBHOOK_RETRY_SCHEDULE: '0.2',
        WATCH_SWEEP_SECONDS: '0.1',
        WEBHOOK_DISABLE_AFTER_DAYS: '5',
      },
      runWorker: true,
      mode,
      now: () => clock,
    });
    let answer = 500;
    const submit = async (user: TestUser, webhookUrl: string): Promise<string> => {
      const res = await t.app.inject({
        method: 'POST',
        url: SHORTS,
        headers: bearer(user.key),
        payload: { channelUrl: 'https://www.youtube.com/@fake-5', webhookUrl },
      });
      assert.equal(res.statusCode, 202, res.body);
      return res.json().requestId as string;
    };
    const destinations = async (user: TestUser): Promise<WebhookDestinations> => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/accounts/webhook-destinations',
        headers: bearer(user.key),
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as WebhookDestinations;
    };
    const destination = async (user: TestUser, url: string): Promise<WebhookDestination | undefined> =>
      (await destinations(user)).destinations.find((d) => d.url === url);
    /** The request's attempts once `n` are recorded. */
    const attempts = (user: TestUser, requestId: string, n: number) =>
      until(async () => {
        const res = await t.app.inject({ method: 'GET', url: `${SHORTS}/${requestId}`, headers: bearer(user.key) });
        const deliveries = (res.json() as RequestDetail).deliveries;
        return deliveries.length >= n && deliveries;
      });

    it('shows per URL the recent success rate, consecutive failures, last error and last success', async () => {
      answer = 500;
      const receiver = await t.receiver(() => ({ status: answer }));
      const user = await createUser(t, 10);
      const url = receiver.url('/health');
      await attempts(user, await submit(user, url), 2);
      const failing = await until(async () => {
        const d = await destination(user, url);
        return d?.consecutiveFailures === 2 && d;
      });
      assert.equal(failing.state, 'failing');
      assert.equal(failing.lastError, 'The receiver answered HTTP 500.');
      assert.equal(failing.lastStatusCode, 500);
      assert.equal(failing.lastSuccessAt, null);
      assert.equal(failing.successRate, 0);
      assert.equal(failing.recentAttempts, 2);
      assert.equal(failing.failingSince, new Date(clock).toISOString());
      assert.equal((await destinations(user)).disableAfterDays, 5);

      answer = 200;
      await attempts(user, await submit(user, url), 1);
      const healthy = await until(async () => {
        const d = await destination(user, url);
        return d?.recentAttempts === 3 && d;
      });
      assert.deepEqual(
        { ...healthy, id: 0 },
        {
          id: 0,
          url,
          state: 'healthy',
          successRate: 0.333,
          recentAttempts: 3,
          consecutiveFailures: 0,
          failingSince: null,
          lastError: 'The receiver answered HTTP 500.',
          lastStatusCode: 500,
          lastFailureAt: new Date(clock).toISOString(),
          lastSuccessAt: new Date(clock).toISOString(),
          lastAttemptAt: new Date(clock).toISOString(),
          pausedAt: null,
        },
      );
      const other = await createUser(t, 10);
      assert.deepEqual((await destinations(other)).destinations, [], "another account does not see this one's");
      await receiver.close();
    });

    it('pauses a destination failing for WEBHOOK_DISABLE_AFTER_DAYS, holds its attempts, tells the account, resumes on request', async () => {
      answer = 500;
      const receiver = await t.receiver(() => ({ status: answer }));
      const events = await t.receiver();
      const user = await createUser(t, 20);
      const put = await t.app.inject({
        method: 'PUT',
        url: '/accounts/alerts',
        headers: bearer(user.token),
        payload: { eventsWebhookUrl: events.url('/account') },
      });
      assert.equal(put.statusCode, 200, put.body);
      // Read with the session before days pass (its token would have expired by then).
      const secret = (
        await t.app.inject({ method: 'GET', url: '/accounts/webhook-secret', headers: bearer(user.token) })
      ).json().secrets[0].secret as string;
      const url = receiver.url('/down');
      const since = clock;
      await attempts(user, await submit(user, url), 2);
      clock += 5 * DAY - 60_000;
      await attempts(user, await submit(user, url), 2);
      assert.equal((await destination(user, url))!.state, 'failing', 'not yet five days');

      clock += 2 * 60_000;
      const pausingRequest = await submit(user, url);
      const [first, held] = await attempts(user, pausingRequest, 2);
      assert.equal(first!.statusCode, 500, 'the attempt that found five days of failures was sent');
      assert.equal(held!.statusCode, null);
      assert.match(held!.error!, /^Not sent: this destination is paused/);
      assert.equal(receiver.deliveries.length, 5, 'the retry after the pause was not sent');
      const paused = (await destination(user, url))!;
      assert.equal(paused.state, 'paused');
      assert.equal(paused.pausedAt, new Date(clock).toISOString());
      assert.equal(paused.failingSince, new Date(since).toISOString());
      assert.equal(paused.consecutiveFailures, 5);

      await events.waitFor(1);
      const event = new Webhook(secret.replace(/^whsec_/, '')).verify(
        events.deliveries[0]!.body,
        events.deliveries[0]!.headers as Record<string, string>,
      ) as { type: string; data: Record<string, unknown> };
      assert.equal(event.type, 'webhook.destination.paused');
      assert.deepEqual(event.data, {
        destinationId: paused.id,
        url,
        failingSince: new Date(since).toISOString(),
        consecutiveFailures: 5,
        lastError: 'The receiver answered HTTP 500.',
      });
      const listed = (await t.app.inject({ method: 'GET', url: '/accounts/events', headers: bearer(user.key) })).json()
        .events as Array<{ type: string; payload: unknown }>;
      assert.deepEqual(
        listed.map((e) => e.type),
        ['webhook.destination.paused'],
      );
      assert.deepEqual(listed[0]!.payload, event);

      const heldRequest = await submit(user, url);
      const [unsent] = await attempts(user, heldRequest, 1);
      assert.match(unsent!.error!, /^Not sent: this destination is paused/);
      assert.equal(receiver.deliveries.length, 5, 'a new request to a paused destination is not sent');

      answer = 200;
      const resumed = await t.app.inject({
        method: 'POST',
        url: `/accounts/webhook-destinations/${paused.id}/resume`,
        headers: bearer(user.key),
      });
      assert.equal(resumed.statusCode, 200, resumed.body);
      assert.equal(resumed.json().state, 'healthy');
      assert.equal(resumed.json().pausedAt, null);
      const redelivered = await t.app.inject({
        method: 'POST',
        url: `${SHORTS}/${heldRequest}/redeliver`,
        headers: bearer(user.key),
      });
      assert.equal(redelivered.statusCode, 202, redelivered.body);
      await receiver.waitFor(6);
      assert.equal((await attempts(user, heldRequest, 2))[1]!.outcome, 'delivered');
      assert.equal(events.deliveries.length, 1, 'one event per pause');
      const stranger = await createUser(t, 1);
      const notYours = await t.app.inject({
        method: 'POST',
        url: `/accounts/webhook-destinations/${paused.id}/resume`,
        headers: bearer(stranger.key),
      });
      assert.equal(notYours.statusCode, 404, notYours.body);
      await receiver.close();
      await events.close();
    });

    it('a test event that succeeds resumes a paused destination', async () => {
      answer = 500;
      const receiver = await t.receiver(() => ({ status: answer }));
      const user = await createUser(t, 20);
      const url = receiver.url('/tested');
      await attempts(user, await submit(user, url), 2);
      clock += 5 * DAY + 60_000;
      await attempts(user, await submit(user, url), 2);
      assert.equal((await destination(user, url))!.state, 'paused');

      const failedTest = await t.app.inject({
        method: 'POST',
        url: '/webhooks/test',
        headers: bearer(user.key),
        payload: { url },
      });
      assert.equal(failedTest.json().outcome, 'failed');
      assert.equal((await destination(user, url))!.state, 'paused', 'a failed test changes nothing');
      answer = 200;
      const test = await t.app.inject({
        method: 'POST',
        url: '/webhooks/test',
        headers: bearer(user.key),
        payload: { url },
      });
      assert.equal(test.json().outcome, 'delivered', test.body);
      const after = (await destination(user, url))!;
      assert.equal(after.state, 'healthy');
      assert.equal(after.lastSuccessAt, new Date(clock).toISOString());
      await attempts(user, await submit(user, url), 1);
      assert.equal(receiver.deliveries.at(-1)!.answered, 200, 'new attempts are sent again');
      await receiver.close();
    });
  });
}
