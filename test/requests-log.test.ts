// The requests log (filters, keyset pages, key and delivery state, refused calls
// counted per day) and the webhook tooling (attempt detail, account-wide delivery log, test event),
// on PGlite and PostgreSQL.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { STORAGE_MODES, createUser, bearer, toMidMinute, type TestUser, skipWithout } from './helpers/test-app.ts';
import { useHarness } from './helpers/harness.ts';
import { until } from '../support/webhook-receiver.ts';
import { insertRequest } from '../src/domain/requests/request-store.ts';
import { newRequestId } from '../src/http/request-id.ts';
import { retriesEndBy } from '../src/domain/requests/request-log.ts';

const SHORTS = '/api/youtube/shorts';

for (const mode of STORAGE_MODES) {
  describe(`requests log and webhook tooling (${mode})`, { skip: skipWithout(mode) }, () => {
    // The per-minute limits are counted in windows aligned to the service's clock. A test that makes
    // a few calls against a limit first moves that clock forward to 30 s into a minute (alignClock),
    // so its calls cannot straddle a minute boundary: with the real clock, a CI run of the shorts
    // suite failed that way. Forward only, by less than a minute each time.
    let skew = 0;
    const alignClock = () => {
      skew += toMidMinute(Date.now() + skew);
    };
    const t = useHarness({
      mode,
      env: { WEBHOOK_RETRY_SCHEDULE: '0.2,0.2', WEBHOOK_TIMEOUT_MS: '2000', RATE_LIMIT_PER_MINUTE: '8' },
      runWorker: true,
      now: () => Date.now() + skew,
    });
    const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(user.token) });

    /** Rows written directly: 30 per (mode, status, key) combination would be slow through the API. */
    async function seed(
      user: TestUser,
      count: number,
      make: (i: number) => { channelUrl: string; webhook: boolean; failed: boolean; viaKey: boolean },
    ) {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const m = make(i);
        const id = newRequestId();
        ids.push(id);
        await insertRequest(
          t.services.db,
          {
            id,
            accountId: user.id,
            apiKeyId: m.viaKey ? user.keyId : null,
            channelUrl: m.channelUrl,
            oldestDate: null,
            limit: null,
            webhookUrl: m.webhook ? 'https://example.com/h' : null,
          },
          {
            status: m.failed ? 'failed' : 'completed',
            httpStatus: m.failed ? 404 : 200,
            itemCount: m.failed ? null : 1,
            creditsCharged: m.failed ? 0 : 1,
            errorCode: m.failed ? 'CHANNEL_NOT_FOUND' : null,
            result: {},
            quotaUnits: 0,
          },
        );
      }
      return ids;
    }

    it('pages beyond the last 50 with an opaque cursor: every request once, newest first', async () => {
      const user = await createUser(t);
      // Inserted back to back: many share a millisecond, so the cursor must keep microseconds.
      const ids = await seed(user, 123, (i) => ({
        channelUrl: `https://www.youtube.com/@c${i}`,
        webhook: false,
        failed: false,
        viaKey: false,
      }));
      const seen: string[] = [];
      const times: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await get(user, `${SHORTS}?limit=50${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(res.statusCode, 200, res.body);
        const page = res.json() as {
          requests: Array<{ requestId: string; createdAt: string }>;
          nextCursor: string | null;
        };
        seen.push(...page.requests.map((r) => r.requestId));
        times.push(...page.requests.map((r) => Date.parse(r.createdAt)));
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      assert.equal(pages, 3);
      assert.equal(seen.length, 123);
      assert.equal(new Set(seen).size, 123);
      assert.deepEqual([...seen].sort(), [...ids].sort());
      // Newest first (rows written in the same instant are ordered by id, consistently across pages).
      assert.ok(times.every((time, i) => i === 0 || time <= times[i - 1]!));
    });

    it('filters by status, mode, key, channel text and date range, and combines them', async () => {
      const user = await createUser(t);
      await seed(user, 12, (i) => ({
        channelUrl: i % 3 === 0 ? `https://www.youtube.com/@Alpha_${i}` : `https://www.youtube.com/@beta${i}`,
        webhook: i % 2 === 0,
        failed: i % 4 === 0,
        viaKey: i < 6,
      }));
      const ids = async (query: string) =>
        (
          (await get(user, `${SHORTS}?${query}`)).json() as {
            requests: Array<{
              requestId: string;
              mode: string;
              status: string;
              channelUrl: string;
              apiKey: { id: string; name: string } | null;
            }>;
          }
        ).requests;
      assert.equal((await ids('mode=webhook')).length, 6);
      assert.ok((await ids('mode=webhook')).every((r) => r.mode === 'webhook'));
      assert.equal((await ids('status=failed')).length, 3);
      const viaKey = await ids(`key=${user.keyId}`);
      assert.equal(viaKey.length, 6);
      assert.ok(viaKey.every((r) => r.apiKey?.id === user.keyId && r.apiKey.name === 'test key'));
      assert.ok((await ids('key=session')).every((r) => r.apiKey === null));
      assert.equal((await ids('channel=ALPHA')).length, 4);
      // An underscore is matched as itself, not as LIKE's "any character".
      assert.equal((await ids('channel=%40alpha_')).length, 4);
      assert.equal((await ids('channel=a_9')).length, 1);
      assert.equal((await ids('channel=%25')).length, 0);
      assert.equal((await ids('mode=webhook&status=failed&channel=alpha')).length, 1); // i = 0
      assert.equal((await ids('mode=webhook&channel=alpha')).length, 2); // i = 0, 6
      // Date range: move two rows a week back.
      const old = (await ids('channel=beta1'))[0]!.requestId;
      await t.services.db.query(`UPDATE shorts_requests SET created_at = now() - interval '7 days' WHERE id = $1`, [
        old,
      ]);
      const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
      assert.ok(!(await ids(`from=${dayAgo}`)).some((r) => r.requestId === old));
      assert.deepEqual(
        (await ids(`to=${dayAgo}`)).map((r) => r.requestId),
        [old],
      );
    });

    it('says until when a failing delivery is retried: the remaining delays at their longest', () => {
      const schedule = [5, 300, 1800];
      const next = new Date('2026-01-01T00:00:00Z');
      // After attempt 1 the next is attempt 2; attempts 3 and 4 follow after 300 and 1800 s (+20 %).
      assert.equal(retriesEndBy(schedule, 1, next).toISOString(), '2026-01-01T00:42:00.000Z');
      assert.equal(retriesEndBy(schedule, 3, next).toISOString(), next.toISOString());
    });

    it('refuses a bad cursor or filter with a clear 400', async () => {
      const user = await createUser(t);
      for (const query of [
        'cursor=not-a-cursor',
        `cursor=${Buffer.from('123.req_x; DROP').toString('base64url')}`,
        'key=bob',
        'status=done',
        'from=yesterday',
        'delivery=lost',
        'limit=0',
      ]) {
        const res = await get(user, `${SHORTS}?${query}`);
        assert.equal(res.statusCode, 400, query);
        const body = res.json();
        assert.equal(body.error, 'VALIDATION_FAILED', query);
        assert.ok(body.message.length > 10 && body.requestId, query);
      }
    });

    it("shows each webhook request's delivery state: delivered, retrying with the next time, failed after the last attempt, gone", async () => {
      const user = await createUser(t, 50);
      const ok = await t.receiver(() => ({ status: 200 }));
      const failing = await t.receiver(() => ({ status: 500 }));
      const gone = await t.receiver(() => ({ status: 410 }));
      const submit = async (url: string) => {
        const res = await t.app.inject({
          method: 'POST',
          url: SHORTS,
          headers: bearer(user.key),
          payload: { channelUrl: 'https://www.youtube.com/@demo', limit: 1, webhookUrl: url },
        });
        assert.equal(res.statusCode, 202, res.body);
        return res.json().requestId as string;
      };
      const [delivered, failed, wentAway] = [
        await submit(ok.url()),
        await submit(failing.url()),
        await submit(gone.url()),
      ];
      type Entry = {
        requestId: string;
        delivery: {
          state: string;
          attempts: number;
          lastAttemptAt: string | null;
          nextAttemptAt: string | null;
          retryingUntil: string | null;
          lastStatusCode: number | null;
        };
      };
      const stateOf = async (id: string) =>
        ((await get(user, `${SHORTS}?mode=webhook`)).json().requests as Entry[]).find((r) => r.requestId === id)!
          .delivery;
      // The failing receiver is retried twice (schedule 0.2,0.2): the first failure is "retrying".
      const retrying = await until(
        async () => {
          const d = await stateOf(failed);
          return d.state === 'retrying' && d;
        },
        20_000,
        20,
      ).catch(() => null);
      if (retrying) {
        assert.ok(retrying.nextAttemptAt && Date.parse(retrying.nextAttemptAt) > Date.now() - 5_000);
        // After attempt 1 of a 0.2,0.2 schedule: one more delay after the next attempt, at most 0.24 s, rounded up.
        assert.equal(
          Date.parse(retrying.retryingUntil!) - Date.parse(retrying.nextAttemptAt),
          retrying.attempts === 1 ? 1000 : 0,
        );
      }
      const gaveUp = await until(async () => {
        const d = await stateOf(failed);
        return d.state === 'failed' && d;
      });
      assert.deepEqual(
        { ...gaveUp, lastAttemptAt: typeof gaveUp.lastAttemptAt },
        {
          state: 'failed',
          attempts: 3,
          lastAttemptAt: 'string',
          lastStatusCode: 500,
          nextAttemptAt: null,
          retryingUntil: null,
        },
      );
      await until(async () => (await stateOf(delivered)).state === 'delivered');
      await until(async () => (await stateOf(wentAway)).state === 'gone');
      assert.deepEqual(
        ((await get(user, `${SHORTS}?delivery=failed`)).json().requests as Entry[]).map((r) => r.requestId),
        [failed],
      );
      assert.deepEqual(
        ((await get(user, `${SHORTS}?delivery=gone`)).json().requests as Entry[]).map((r) => r.requestId),
        [wentAway],
      );
      assert.equal(((await get(user, `${SHORTS}?mode=sync`)).json().requests as Entry[]).length, 0);

      // The account-wide delivery log: every attempt, newest first, with what was sent and received.
      const log = (await get(user, '/webhooks/deliveries?limit=3')).json() as {
        deliveries: Array<Record<string, unknown>>;
        nextCursor: string | null;
      };
      assert.equal(log.deliveries.length, 3);
      assert.ok(log.nextCursor);
      const rest = (await get(user, `/webhooks/deliveries?limit=50&cursor=${log.nextCursor}`)).json() as {
        deliveries: Array<Record<string, unknown>>;
        nextCursor: string | null;
      };
      assert.equal(rest.nextCursor, null);
      const all = [...log.deliveries, ...rest.deliveries];
      assert.equal(all.length, 5); // 1 delivered + 3 failed + 1 gone
      assert.deepEqual(
        all.map((d) => d.id),
        [...all.map((d) => d.id)].sort((a, b) => Number(b) - Number(a)),
      );
      const attemptsOfFailed = all
        .filter((d) => d.requestId === failed)
        .sort((a, b) => Number(a.attempt) - Number(b.attempt));
      assert.deepEqual(
        attemptsOfFailed.map((d) => [d.attempt, d.statusCode, d.gaveUp, d.nextAttemptAt === null]),
        [
          [1, 500, false, false],
          [2, 500, false, false],
          [3, 500, true, true],
        ],
      );
      const first = all.find((d) => d.requestId === delivered)!;
      const headers = first.requestHeaders as Record<string, string>;
      assert.equal(headers['webhook-id'], `msg_${delivered}`);
      assert.match(headers['webhook-signature']!, /^v1,/);
      assert.equal(first.responseExcerpt, 'ok');
      assert.equal(first.url, ok.url());
      assert.equal(typeof first.latencyMs, 'number');
      assert.equal((await get(user, '/webhooks/deliveries?outcome=gone')).json().deliveries.length, 1);
      assert.equal((await get(user, '/webhooks/deliveries?cursor=zzz')).statusCode, 400);
      // The request's own detail carries the same fields.
      const detail = (await get(user, `${SHORTS}/${failed}`)).json();
      assert.equal(detail.deliveries.length, 3);
      assert.equal(detail.deliveries[2].responseExcerpt, 'ok');
      assert.ok(detail.deliveries[0].nextAttemptAt);
      // Another account sees none of it.
      const other = await createUser(t);
      assert.equal((await get(other, '/webhooks/deliveries')).json().deliveries.length, 0);
      await Promise.all([ok.close(), failing.close(), gone.close()]);
    });

    it("keeps only the first 1 KiB of a receiver's answer", async () => {
      const user = await createUser(t);
      const server = createServer((req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(500).end('é'.repeat(1500)));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/big`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/webhooks/test',
        headers: bearer(user.token),
        payload: { url },
      });
      assert.equal(res.statusCode, 200, res.body);
      const excerpt = res.json().responseExcerpt as string;
      assert.equal(Buffer.byteLength(excerpt.replace(/\uFFFD$/, '')) <= 1024, true);
      assert.ok(excerpt.startsWith('éé') && excerpt.length >= 511 && excerpt.length <= 513, String(excerpt.length));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('sends a signed test event now and shows what the receiver did, limited per minute', async () => {
      alignClock();
      const user = await createUser(t);
      const receiver = await t.receiver((_d, i) => ({ status: i === 0 ? 204 : 503 }));
      const send = (url: string) =>
        t.app.inject({ method: 'POST', url: '/webhooks/test', headers: bearer(user.key), payload: { url } });
      const first = await send(receiver.url('/t'));
      assert.equal(first.statusCode, 200, first.body);
      const result = first.json();
      assert.equal(result.outcome, 'delivered');
      assert.equal(result.statusCode, 204);
      assert.match(result.webhookId, /^msg_test_[0-9a-f]{24}$/);
      // Signed like real events: the account's secret verifies it.
      const [{ secret }] = (await get(user, '/accounts/webhook-secret')).json().secrets as [{ secret: string }];
      const delivery = receiver.deliveries[0]!;
      const event = new Webhook(secret.replace(/^whsec_/, '')).verify(
        delivery.body,
        delivery.headers as Record<string, string>,
      ) as { type: string };
      assert.equal(event.type, 'webhook.test');
      assert.equal(delivery.body, result.requestBody);
      assert.equal(result.requestHeaders['webhook-signature'], delivery.headers['webhook-signature']);
      const second = (await send(receiver.url('/t'))).json();
      assert.equal(second.outcome, 'failed');
      assert.equal(second.statusCode, 503);
      assert.notEqual(second.webhookId, result.webhookId);
      // Nothing recorded, nothing charged, not counted in the shorts rate limits.
      assert.equal((await get(user, '/webhooks/deliveries')).json().deliveries.length, 0);
      const account = (await get(user, '/accounts')).json();
      assert.equal(account.credits.balance, 100);
      assert.equal(account.usage.minute, 0);
      const bad = await send('ftp://example.com/x');
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().error, 'UNSAFE_WEBHOOK_URL');
      // 10 per minute (the ftp refusal counted too): the 11th is refused.
      for (let i = 3; i < 10; i++) await send(receiver.url('/t'));
      const limited = await send(receiver.url('/t'));
      assert.equal(limited.statusCode, 429);
      assert.ok(Number(limited.headers['retry-after']) > 0);
      await receiver.close();
    });

    it('limits redeliveries per account, outside the metered windows', async () => {
      alignClock();
      const user = await createUser(t);
      const ids = await seed(user, 11, () => ({
        channelUrl: 'https://www.youtube.com/@demo',
        webhook: true,
        failed: false,
        viaKey: true,
      }));
      const redeliver = (id: string) =>
        t.app.inject({ method: 'POST', url: `${SHORTS}/${id}/redeliver`, headers: bearer(user.key) });
      const first = await redeliver(ids[0]!);
      assert.equal(first.statusCode, 202, first.body);
      // Refused for what it is (one of its webhook is due): counted too, so concurrent calls cannot pass the limit together.
      assert.equal((await redeliver(ids[0]!)).statusCode, 409);
      const answers = [];
      for (const id of ids.slice(1)) answers.push(await redeliver(id));
      const codes = answers.map((a) => a.statusCode);
      // Ten calls in the minute, then refused.
      assert.deepEqual(codes, [...Array(8).fill(202), 429, 429], codes.join());
      // Concurrent calls of another account: ten admitted at most.
      const burster = await createUser(t);
      const many = await seed(burster, 20, () => ({
        channelUrl: 'https://www.youtube.com/@demo',
        webhook: true,
        failed: false,
        viaKey: true,
      }));
      const burst = await Promise.all(
        many.map((id) =>
          t.app.inject({ method: 'POST', url: `${SHORTS}/${id}/redeliver`, headers: bearer(burster.key) }),
        ),
      );
      assert.equal(burst.filter((r) => r.statusCode === 202).length, 10, burst.map((r) => r.statusCode).join());
      const limited = answers.at(-1)!;
      assert.equal(limited.statusCode, 429, limited.body);
      assert.deepEqual([limited.json().success, limited.json().error], [false, 'RATE_LIMITED']);
      assert.match(
        limited.json().message,
        /^Too many redeliveries: at most 10 per minute and 100 per hour; retry in \d+ s\.$/,
      );
      assert.ok(Number(limited.headers['retry-after']) > 0);
      assert.equal((await get(user, '/accounts')).json().usage.minute, 0, 'not counted in the metered windows');
      // Another account is not affected.
      const other = await createUser(t);
      const [own] = await seed(other, 1, () => ({
        channelUrl: 'https://www.youtube.com/@demo',
        webhook: true,
        failed: false,
        viaKey: true,
      }));
      assert.equal(
        (await t.app.inject({ method: 'POST', url: `${SHORTS}/${own}/redeliver`, headers: bearer(other.key) }))
          .statusCode,
        202,
      );
    });

    it('counts refused calls per day, so requests listed + refused account for the calls the limits counted', async () => {
      alignClock();
      const user = await createUser(t, 1);
      const post = (payload: object, token = user.key) =>
        t.app.inject({ method: 'POST', url: SHORTS, headers: bearer(token), payload });
      assert.equal((await post({ channelUrl: '@demo', limit: 0 })).statusCode, 400); // schema: no row
      assert.equal((await post({ channelUrl: 'https://www.youtube.com/@demo', bogus: 1 }, user.token)).statusCode, 400);
      assert.equal((await post({ channelUrl: 'https://www.youtube.com/@demo', limit: 1 })).statusCode, 200); // 1 credit: spent
      assert.equal(
        (await post({ channelUrl: 'https://www.youtube.com/@demo', webhookUrl: 'https://example.com/h' })).statusCode,
        402,
      ); // webhook: refused at acceptance, no row
      assert.equal((await post({ channelUrl: 'https://www.youtube.com/@demo', limit: 1 })).statusCode, 402); // synchronous: recorded as a failed request
      const limits = [];
      for (let i = 0; i < 5; i++) limits.push((await post({ channelUrl: '@demo', limit: 0 })).statusCode);
      // 8 per minute: 3 more 400s fit, then 429s.
      assert.deepEqual(limits, [400, 400, 400, 429, 429]);

      const rejections = async () =>
        (await get(user, `${SHORTS}/rejections`)).json() as {
          days: Array<{
            date: string;
            total: number;
            counts: Array<{ httpStatus: number; error: string; apiKeyId: string | null; count: number }>;
          }>;
        };
      const check = async () => {
        const { days } = await rejections();
        assert.equal(days.length, 1);
        const [today] = days;
        assert.equal(
          today!.date,
          new Date(t.services.shortsRequests.now()).toISOString().slice(0, 10),
          "counted on the service clock's day",
        );
        assert.equal(today!.total, 8);
        const by = (status: number, key: string | null) =>
          today!.counts.filter((c) => c.httpStatus === status && c.apiKeyId === key).reduce((n, c) => n + c.count, 0);
        assert.equal(by(400, user.keyId), 4);
        assert.equal(by(400, null), 1);
        assert.equal(by(402, user.keyId), 1);
        assert.equal(by(429, user.keyId), 2);
        assert.ok(today!.counts.some((c) => c.error === 'RATE_LIMITED'));
        assert.ok(today!.counts.some((c) => c.error === 'VALIDATION_FAILED'));
      };
      await check(); // unflushed: this instance's counts
      await t.app.rejections.flush();
      await check(); // flushed: from the table, not counted twice
      await t.app.rejections.flush(); // nothing pending: no change
      await check();

      const listed = (await get(user, SHORTS)).json().requests.length;
      assert.equal(listed, 2);
      const account = (await get(user, '/accounts')).json();
      // The limiter counted every call it let through: those listed plus those refused after it.
      assert.equal(account.usage.minute, listed + 6);
      assert.equal(account.usage.totalRequests, listed);
      // Another account sees none of these counts.
      const other = await createUser(t);
      assert.deepEqual((await get(other, `${SHORTS}/rejections`)).json(), { days: [] });
    });
  });
}
