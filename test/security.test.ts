// One security suite run against every protected route: no credential, a malformed header, a junk
// token, an unknown key, a revoked key, an expired session — each must be 401 with the spec's body.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { startTestApp, createUser, bearer, type TestApp, type TestUser } from './helpers/test-app.ts';
import { generateApiKey } from '../src/domain/keys/api-key-format.ts';

const PROTECTED: Array<{ method: 'GET' | 'POST' | 'DELETE'; url: string; payload?: object }> = [
  { method: 'POST', url: '/api/youtube/shorts', payload: { channelUrl: 'https://www.youtube.com/@demo' } },
  { method: 'GET', url: '/api/youtube/shorts' },
  { method: 'GET', url: '/api/youtube/shorts/req_abc123' },
  { method: 'POST', url: '/api/youtube/shorts/req_abc123/redeliver' },
  { method: 'POST', url: '/api/youtube/shorts/batch', payload: { items: [{ channelUrl: 'https://www.youtube.com/@demo' }], webhookUrl: 'https://example.com/h' } },
  { method: 'GET', url: '/api/youtube/shorts/batch/bat_abc123' },
  { method: 'GET', url: '/api/youtube/shorts/req_abc123/items' },
  { method: 'GET', url: '/accounts' },
  { method: 'GET', url: '/accounts/usage' },
  { method: 'GET', url: '/accounts/ledger' },
  { method: 'GET', url: '/accounts/webhook-secret' },
  { method: 'POST', url: '/accounts/webhook-secret/rotate' },
  { method: 'POST', url: '/keys', payload: { name: 'x' } },
  { method: 'GET', url: '/keys' },
  { method: 'DELETE', url: '/keys/00000000-0000-4000-8000-000000000000' },
];

describe('security suite: every protected route', () => {
  let t: TestApp;
  let user: TestUser;
  let revokedKey: string;
  let expiredToken: string;
  before(async () => {
    t = await startTestApp('pglite');
    user = await createUser(t);
    const second = await t.app.inject({ method: 'POST', url: '/keys', headers: bearer(user.token), payload: { name: 'to revoke' } });
    revokedKey = second.json().key;
    await t.app.inject({ method: 'DELETE', url: `/keys/${second.json().id}`, headers: bearer(user.token) });
    const [row] = await t.services.db.query<{ value: string }>("SELECT value FROM settings WHERE key = 'jwt_secret'");
    expiredToken = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(user.id).setIssuer('channel-shorts').setAudience('channel-shorts-api')
      .setIssuedAt(1_600_000_000).setExpirationTime(1_600_000_100).sign(new TextEncoder().encode(row!.value));
  });
  after(() => t.close());

  const badCredentials: Array<[string, () => Record<string, string>]> = [
    ['no Authorization header', () => ({})],
    ['a non-Bearer scheme', () => ({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` })],
    ['an empty bearer', () => ({ authorization: 'Bearer ' })],
    ['a junk token', () => bearer('not-a-token')],
    ['a well-formed unknown key', () => bearer(generateApiKey().key)],
    ['a revoked key', () => bearer(revokedKey)],
    ['an expired session', () => bearer(expiredToken)],
  ];

  for (const route of PROTECTED) {
    it(`${route.method} ${route.url} refuses bad credentials with 401 {error, message}`, async () => {
      for (const [label, headers] of badCredentials) {
        const res = await t.app.inject({ method: route.method, url: route.url, headers: headers(), ...(route.payload ? { payload: route.payload } : {}) });
        assert.equal(res.statusCode, 401, `${label}: ${res.body}`);
        const body = res.json();
        assert.equal(typeof body.error, 'string', label);
        assert.equal(typeof body.message, 'string', label);
        assert.equal(body.requestId, res.headers['x-request-id'], label);
      }
    });
  }

  it('webhook secrets need a dashboard session: an API key gets 403', async () => {
    for (const route of PROTECTED.filter((r) => r.url.startsWith('/accounts/webhook-secret'))) {
      const res = await t.app.inject({ method: route.method, url: route.url, headers: bearer(user.key) });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().error, 'FORBIDDEN');
    }
  });

  it('a disabled account gets 403 with any credential', async () => {
    const victim = await createUser(t);
    await t.services.db.query('UPDATE accounts SET disabled_at = now() WHERE id = $1', [victim.id]);
    await new Promise((r) => setTimeout(r, 1100)); // the per-instance account cache lives one second
    for (const credential of [victim.key, victim.token]) {
      const res = await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(credential) });
      assert.equal(res.statusCode, 403);
    }
  });

  it('unknown routes answer 404 with the error body', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/nope' });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error, 'NOT_FOUND');
  });
});
