import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { STORAGE_MODES, createUser, bearer, PASSWORD, skipWithout } from './helpers/test-app.ts';
import { useHarness } from './helpers/harness.ts';

for (const mode of STORAGE_MODES) {
  describe(`auth (${mode})`, { skip: skipWithout(mode) }, () => {
    const t = useHarness({ mode, fake: false, env: { JWT_TTL_SECONDS: '120', LOGIN_MAX_FAILURES: '3' } });

    it("logs in and returns a pinned-algorithm JWT with exp/iss/aud and the spec's user shape", async () => {
      const user = await createUser(t);
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: user.email.toUpperCase(), password: PASSWORD },
      });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), ['expiresAt', 'token', 'user']);
      assert.deepEqual(body.user, { id: user.id, email: user.email });
      assert.equal(decodeProtectedHeader(body.token).alg, 'HS256');
      const claims = decodeJwt(body.token);
      assert.equal(claims.iss, 'channel-shorts');
      assert.equal(claims.aud, 'channel-shorts-api');
      assert.equal(claims.sub, user.id);
      assert.equal(claims.exp! - claims.iat!, 120);
      assert.match(res.headers['x-request-id'] as string, /^req_/);
    });

    it('renews a session for the same user (the dashboard, while its user is active), never for an API key', async () => {
      const user = await createUser(t);
      const login = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: user.email, password: PASSWORD },
      });
      const first = login.json();
      const res = await t.app.inject({ method: 'POST', url: '/auth/session', headers: bearer(first.token) });
      assert.equal(res.statusCode, 200, res.body);
      const renewed = res.json();
      assert.deepEqual(renewed.user, { id: user.id, email: user.email });
      assert.ok(Date.parse(renewed.expiresAt) >= Date.parse(first.expiresAt));
      assert.equal(decodeJwt(renewed.token).sub, user.id);
      const account = await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(renewed.token) });
      assert.equal(account.statusCode, 200, 'the new token is a session');
      const withKey = await t.app.inject({ method: 'POST', url: '/auth/session', headers: bearer(user.key) });
      assert.equal(withKey.statusCode, 403);
      const none = await t.app.inject({ method: 'POST', url: '/auth/session' });
      assert.equal(none.statusCode, 401);
    });

    it('answers 401 {error, message, requestId} for a wrong password or unknown email, identically', async () => {
      const user = await createUser(t);
      const wrong = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: user.email, password: 'not the password' },
      });
      const unknown = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'nobody-' + user.email, password: PASSWORD },
      });
      for (const res of [wrong, unknown]) {
        assert.equal(res.statusCode, 401);
        assert.equal(res.json().error, 'INVALID_CREDENTIALS');
        assert.equal(res.json().message, 'Email or password is incorrect.');
        assert.equal(res.json().requestId, res.headers['x-request-id']);
      }
    });

    it('limits brute force per email: after 3 failures even the right password gets 429 with Retry-After', async () => {
      const user = await createUser(t);
      for (let i = 0; i < 3; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { email: user.email, password: `guess-${i}-xxxxxx` },
        });
        assert.equal(res.statusCode, 401);
      }
      const blocked = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: user.email, password: PASSWORD },
      });
      assert.equal(blocked.statusCode, 429);
      assert.equal(blocked.json().error, 'TOO_MANY_LOGIN_ATTEMPTS');
      assert.ok(Number(blocked.headers['retry-after']) > 0);
    });

    it('rejects malformed login bodies with 400', async () => {
      for (const payload of [
        {},
        { email: 'a@b.co' },
        { email: 'a@b.co', password: '' },
        { email: 1, password: 2 },
        { email: 'a@b.co', password: 'x', extra: true },
      ]) {
        const res = await t.app.inject({ method: 'POST', url: '/auth/login', payload });
        assert.equal(res.statusCode, 400, JSON.stringify(payload));
        assert.equal(res.json().error, 'VALIDATION_FAILED');
      }
      const notJson = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      });
      assert.equal(notJson.statusCode, 400);
      assert.equal(notJson.json().error, 'INVALID_JSON');
    });

    it('rejects tokens that are expired, signed with another key, another algorithm or for another audience', async () => {
      const user = await createUser(t);
      const secret = new TextEncoder().encode(
        (await t.services.db.query<{ value: string }>("SELECT value FROM settings WHERE key = 'jwt_secret'"))[0]!.value,
      );
      const base = () =>
        new SignJWT({}).setSubject(user.id).setIssuer('channel-shorts').setAudience('channel-shorts-api').setIssuedAt();
      const expired = await base()
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
        .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
        .sign(secret);
      const res = await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(expired) });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().error, 'TOKEN_EXPIRED');
      const forged = await base()
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('x'.repeat(48)));
      const hs512 = await base().setProtectedHeader({ alg: 'HS512' }).setExpirationTime('1h').sign(secret);
      const otherAudience = await new SignJWT({})
        .setSubject(user.id)
        .setIssuer('channel-shorts')
        .setAudience('elsewhere')
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('1h')
        .sign(secret);
      const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: user.id, iss: 'channel-shorts', aud: 'channel-shorts-api', exp: 9999999999 })).toString('base64url')}.`;
      for (const token of [forged, hs512, otherAudience, unsigned]) {
        const r = await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(token) });
        assert.equal(r.statusCode, 401, token);
        assert.equal(r.json().error, 'UNAUTHORIZED');
      }
      const good = await base().setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(secret);
      assert.equal((await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(good) })).statusCode, 200);
    });
  });
}
