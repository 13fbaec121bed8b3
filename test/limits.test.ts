// Limits other than the metered windows (those are in shorts.test.ts): the read window every other
// call of an account counts in, the RateLimit headers on every 429, and the active-key maximum.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createUser, bearer, toMidMinute, STORAGE_MODES, PASSWORD, skipWithout } from './helpers/test-app.ts';
import { useHarness } from './helpers/harness.ts';
import { setUserLimits } from '../src/domain/operators/users.ts';

for (const mode of STORAGE_MODES) {
  describe(`limits besides the metered windows (${mode})`, { skip: skipWithout(mode) }, () => {
    const t = useHarness({
      mode,
      fake: false,
      env: { CREDENTIAL_CACHE_MS: '0', RATE_LIMIT_PER_MINUTE: '1', READ_RATE_LIMIT_PER_MINUTE: '12' },
      now: () => clock,
    });
    let clock = Date.now();
    clock += toMidMinute(clock);
    /** The next test starts in the middle of a fresh minute. */
    const nextMinute = () => {
      clock += 60_000;
      clock += toMidMinute(clock);
    };

    it('reads count in their own window, with its headers, and never in the metered ones', async () => {
      const user = await createUser(t);
      nextMinute(); // its creation's calls counted in the read window
      const codes: number[] = [];
      let last;
      for (let i = 0; i < 14; i++) {
        last = await t.app.inject({ method: 'GET', url: '/accounts/ledger.csv', headers: bearer(user.key) });
        codes.push(last.statusCode);
        assert.equal(last.headers['ratelimit-policy'], '"read-minute";q=12;w=60');
        assert.match(String(last.headers.ratelimit), /^"read-minute";r=\d+;t=\d+$/);
      }
      assert.deepEqual(codes, [...Array(12).fill(200), 429, 429]);
      assert.equal(last!.json().error, 'RATE_LIMITED');
      assert.match(last!.json().message, /at most 12 per minute outside the metered routes/);
      assert.ok(Number(last!.headers['retry-after']) > 0);
      // /api/youtube/… answers it in the failure body.
      const onApi = await t.app.inject({
        method: 'GET',
        url: '/api/youtube/shorts/rejections',
        headers: bearer(user.key),
      });
      assert.equal(onApi.statusCode, 429);
      assert.equal(onApi.json().success, false);
      // The metered windows are untouched: GET /accounts (itself refused now) would say so; the rate limiter does.
      nextMinute();
      const account = (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json();
      assert.equal(account.usage.day, 0, 'no read counted in the metered day window');
    });

    it('every 429 RATE_LIMITED carries the RateLimit headers of the limit it met: a per-action limit too', async () => {
      const user = await createUser(t);
      nextMinute();
      let last;
      // 11 test events: the read window (12 here) has room for them, their own limit (10) not.
      for (let i = 0; i < 11; i++) {
        last = await t.app.inject({
          method: 'POST',
          url: '/webhooks/test',
          headers: bearer(user.key),
          payload: { url: 'http://127.0.0.1:9/hook' },
        });
        assert.match(
          String(last.headers['ratelimit-policy']),
          /^"read-minute";q=12;w=60, "webhook-test-minute";q=10;w=60$/,
        );
      }
      assert.equal(last!.statusCode, 429, last!.body);
      assert.equal(last!.json().error, 'RATE_LIMITED');
      assert.ok(last!.headers['retry-after']);
      assert.match(String(last!.headers['ratelimit-policy']), /"webhook-test-minute";q=10;w=60/);
      assert.match(String(last!.headers.ratelimit), /"webhook-test-minute";r=0;t=\d+/);
    });

    it('an account granted more metered calls may read more: at least ten reads per metered call of its minute', async () => {
      const user = await createUser(t);
      await setUserLimits(t.services.db, { label: 'test', accountId: null }, user.id, { perMinute: 100 });
      nextMinute();
      const res = await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['ratelimit-policy'], '"read-minute";q=1000;w=60');
      assert.equal(res.json().readsPerMinute, 1000);
      const other = await createUser(t);
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(other.key) })).json().readsPerMinute,
        12,
        'the default, where ten per metered call is less',
      );
    });

    it('a webhook secret rotation shows its own limit beside the read window, on its 200s and its 429', async () => {
      const user = await createUser(t);
      nextMinute();
      const rotate = () =>
        t.app.inject({ method: 'POST', url: '/accounts/webhook-secret/rotate', headers: bearer(user.token) });
      const first = await rotate();
      assert.equal(first.statusCode, 200, first.body);
      assert.match(String(first.headers['ratelimit-policy']), /^"read-minute";q=12;w=60, "rotate-hour";q=5;w=3600$/);
      let last = first;
      for (let i = 0; i < 5; i++) last = await rotate();
      assert.equal(last.statusCode, 429, last.body);
      assert.match(String(last.headers['ratelimit-policy']), /^"read-minute";q=12;w=60, "rotate-hour";q=5;w=3600$/);
      assert.match(String(last.headers.ratelimit), /"rotate-hour";r=0;t=\d+$/);
      // The document says both limits where a route has one of its own.
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const described = doc.paths['/accounts/webhook-secret/rotate'].post.responses['429'].description as string;
      assert.match(
        described,
        /^Too many rotations this hour; see Retry-After\. Or: Too many calls outside the metered routes/,
      );
    });

    it('the session token from POST /auth/login is never cached (Cache-Control: no-store, as /signup answers)', async () => {
      const user = await createUser(t);
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: user.email, password: PASSWORD },
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['cache-control'], 'no-store');
    });
  });
}

for (const mode of STORAGE_MODES) {
  describe(`the active-key maximum (${mode})`, { skip: skipWithout(mode) }, () => {
    const t = useHarness({ mode, fake: false });

    it('concurrent key creations cannot take an account past 100 active keys; expired keys are not active', async () => {
      const user = await createUser(t); // holds 1 key
      const create = (name: string) =>
        t.app.inject({ method: 'POST', url: '/keys', headers: bearer(user.token), payload: { name } });
      for (let i = 0; i < 97; i++) assert.equal((await create(`early-${i}`)).statusCode, 201);
      // 98 active: room for 2, asked by 20 at once.
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => create(`racing-${i}`)));
      assert.deepEqual(
        answers.map((a) => a.statusCode).sort(),
        [...Array(2).fill(201), ...Array(18).fill(409)],
        answers.map((a) => a.body).join('\n'),
      );
      const active = async () =>
        (
          await t.services.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL',
            [user.id],
          )
        )[0]!.n;
      assert.equal(await active(), 100);
      // The 97 expire: they work no more, so they leave room (the dashboard does not count them either).
      await t.services.db.query(
        "UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE account_id = $1 AND name LIKE 'early-%'",
        [user.id],
      );
      assert.equal((await create('after expiry')).statusCode, 201);
    });
  });
}
