import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startFakePlatform, type FakePlatform } from '../src/fake-platform/server.ts';
import { startTestApp, createUser, bearer, PASSWORD, type TestApp } from './helpers/test-app.ts';
import { assertMatchesOpenApi } from './helpers/openapi-check.ts';

describe('OpenAPI document and real responses', () => {
  let fake: FakePlatform;
  let t: TestApp;
  let doc: Parameters<typeof assertMatchesOpenApi>[0] & { openapi: string; components: { securitySchemes: Record<string, unknown> }; webhooks: Record<string, unknown> };
  before(async () => {
    fake = await startFakePlatform();
    t = await startTestApp('pglite', { YOUTUBE_API_BASE_URL: fake.baseUrl, RATE_LIMIT_PER_MINUTE: '3' });
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  it('is a valid OpenAPI 3.1 document with security schemes, webhooks and error responses', async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.components.securitySchemes.bearer);
    assert.ok(doc.webhooks['shorts.result']);
    assert.ok(doc.webhooks['batch.completed']);
    const shorts = doc.paths['/api/youtube/shorts']!.post!;
    for (const status of ['200', '202', '400', '401', '402', '403', '404', '429', '502', '503', '504']) assert.ok(shorts.responses[status], `documents ${status}`);
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(docs.statusCode, 200);
    assert.match(docs.body, /swagger/i);
  });

  it('real responses match the documented schemas', async () => {
    const user = await createUser(t, 100);
    const check = (method: string, route: string, res: Awaited<ReturnType<typeof t.app.inject>>) => assertMatchesOpenApi(doc, method, route, res);
    check('POST', '/auth/login', await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: PASSWORD } }));
    check('POST', '/auth/login', await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: 'wrong-password' } }));
    check('POST', '/keys', await t.app.inject({ method: 'POST', url: '/keys', headers: bearer(user.token), payload: { name: 'doc' } }));
    check('GET', '/keys', await t.app.inject({ method: 'GET', url: '/keys', headers: bearer(user.token) }));
    check('DELETE', '/keys/{id}', await t.app.inject({ method: 'DELETE', url: `/keys/${user.keyId}`, headers: bearer(user.token) }));
    check('GET', '/accounts', await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.token) }));
    check('GET', '/accounts', await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer('junk') }));
    check('GET', '/accounts/usage', await t.app.inject({ method: 'GET', url: '/accounts/usage', headers: bearer(user.token) }));
    check('GET', '/accounts/ledger', await t.app.inject({ method: 'GET', url: '/accounts/ledger', headers: bearer(user.token) }));
    check('GET', '/accounts/webhook-secret', await t.app.inject({ method: 'GET', url: '/accounts/webhook-secret', headers: bearer(user.token) }));
    const ok = await t.app.inject({ method: 'POST', url: '/api/youtube/shorts', headers: bearer(user.token), payload: { channelUrl: 'https://www.youtube.com/@demo' } });
    assert.equal(ok.statusCode, 200);
    check('POST', '/api/youtube/shorts', ok);
    check('POST', '/api/youtube/shorts', await t.app.inject({ method: 'POST', url: '/api/youtube/shorts', headers: bearer(user.token), payload: { channelUrl: 'https://www.youtube.com/@sparse', webhookUrl: 'http://127.0.0.1:9/x' } }));
    const missing = await t.app.inject({ method: 'POST', url: '/api/youtube/shorts', headers: bearer(user.token), payload: { channelUrl: 'https://www.youtube.com/@nobody-zzz' } });
    assert.equal(missing.statusCode, 404);
    check('POST', '/api/youtube/shorts', missing);
    const limited = await t.app.inject({ method: 'POST', url: '/api/youtube/shorts', headers: bearer(user.token), payload: { channelUrl: 'https://www.youtube.com/@demo' } });
    assert.equal(limited.statusCode, 429);
    check('POST', '/api/youtube/shorts', limited);
    check('GET', '/api/youtube/shorts', await t.app.inject({ method: 'GET', url: '/api/youtube/shorts', headers: bearer(user.token) }));
    check('GET', '/api/youtube/shorts/{requestId}', await t.app.inject({ method: 'GET', url: `/api/youtube/shorts/${ok.json().requestId}`, headers: bearer(user.token) }));
    // #14: stored results, batches.
    const batchUser = await createUser(t, 100);
    const stored = await t.app.inject({ method: 'POST', url: '/api/youtube/shorts', headers: bearer(batchUser.key), payload: { channelUrl: 'https://www.youtube.com/@sparse', store: true, sort: 'oldest', maxDurationSeconds: 180 } });
    assert.equal(stored.statusCode, 200, stored.body);
    check('POST', '/api/youtube/shorts', stored);
    const items = async (url: string, status: number) => {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(batchUser.key) });
      assert.equal(res.statusCode, status, res.body);
      check('GET', '/api/youtube/shorts/{requestId}/items', res);
    };
    await items(`/api/youtube/shorts/${stored.json().requestId}/items?pageSize=2`, 200);
    await items(`/api/youtube/shorts/${ok.json().requestId}/items`, 404);
    await items(`/api/youtube/shorts/${stored.json().requestId}/items?cursor=x`, 400);
    const batch = await t.app.inject({ method: 'POST', url: '/api/youtube/shorts/batch', headers: bearer(batchUser.key), payload: { webhookUrl: 'http://127.0.0.1:9/x', items: [{ channelUrl: 'https://www.youtube.com/@sparse' }] } });
    assert.equal(batch.statusCode, 202, batch.body);
    check('POST', '/api/youtube/shorts/batch', batch);
    check('POST', '/api/youtube/shorts/batch', await t.app.inject({ method: 'POST', url: '/api/youtube/shorts/batch', headers: bearer(batchUser.key), payload: { webhookUrl: 'http://127.0.0.1:9/x', items: [] } }));
    check('GET', '/api/youtube/shorts/batch/{batchId}', await t.app.inject({ method: 'GET', url: `/api/youtube/shorts/batch/${batch.json().batchId}`, headers: bearer(batchUser.key) }));
    check('GET', '/api/youtube/shorts/batch/{batchId}', await t.app.inject({ method: 'GET', url: '/api/youtube/shorts/batch/bat_nothere', headers: bearer(batchUser.key) }));
    check('GET', '/healthz', await t.app.inject({ method: 'GET', url: '/healthz' }));
    check('GET', '/readyz', await t.app.inject({ method: 'GET', url: '/readyz' }));
  });
});
