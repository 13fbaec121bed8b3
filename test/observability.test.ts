import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import { startFakePlatform, type FakePlatform } from '../src/fake-platform/server.ts';
import { fakeEnv } from './helpers/harness.ts';
import { loadConfig } from '../src/config.ts';
import { createServices, type Services } from '../src/services.ts';
import { buildApp } from '../src/app.ts';
import { fastifyOptions, LOG_REDACT } from '../src/http/logging.ts';
import { createAccount } from '../src/domain/accounts/accounts.ts';
import { PASSWORD, uniqueEmail } from './helpers/test-app.ts';
import type { FastifyInstance } from 'fastify';

describe('health, metrics and logs', () => {
  let fake: FakePlatform;
  let app: FastifyInstance;
  let services: Services;
  const lines: string[] = [];
  before(async () => {
    fake = await startFakePlatform();
    const config = loadConfig({
      DATA_DIR: ':memory:',
      YOUTUBE_API_KEY: 'fake-api-key',
      ...fakeEnv(fake),
      YOUTUBE_SOURCE: 'data-api',
      LOG_LEVEL: 'trace',
    });
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const logger = pino({ level: 'trace', redact: LOG_REDACT }, stream);
    services = await createServices(config, { runWorker: false, log: logger });
    app = await buildApp(services, fastifyOptions({ level: 'trace', redact: LOG_REDACT, stream } as never));
    await app.ready();
  });
  after(async () => {
    await app.close();
    await services.close();
    await fake.close();
  });

  it('reports liveness and readiness of database and queue', async () => {
    assert.deepEqual((await app.inject({ method: 'GET', url: '/healthz' })).json(), { status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json().checks, {
      database: { status: 'ok' },
      queue: { status: 'ok' },
      redis: { status: 'disabled' },
    });
    assert.deepEqual(ready.json().upstream, { status: 'ok', keys: { active: 1, exhausted: 0, invalid: 0 } });
  });

  it('logs JSON lines with the requestId and never a password, key, token or secret', async () => {
    const email = uniqueEmail();
    await createAccount(services.db, { email, password: PASSWORD, credits: 10 });
    const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: PASSWORD } });
    const token = login.json().token as string;
    const key = (
      await app.inject({
        method: 'POST',
        url: '/keys',
        headers: { authorization: `Bearer ${token}` },
        payload: { name: 'k' },
      })
    ).json().key as string;
    const secret = (
      await app.inject({
        method: 'GET',
        url: '/accounts/webhook-secret',
        headers: { authorization: `Bearer ${token}` },
      })
    ).json().secrets[0].secret as string;
    const res = await app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: { authorization: `Bearer ${key}` },
      payload: { channelUrl: 'https://www.youtube.com/@demo' },
    });
    assert.equal(res.statusCode, 200);
    await app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: 'a wrong password' } });
    const all = lines.join('\n');
    for (const secretValue of [PASSWORD, 'a wrong password', token, key, secret, 'fake-api-key'])
      assert.ok(!all.includes(secretValue), `a log line contains ${secretValue.slice(0, 12)}…`);
    const parsed = lines.map((l) => JSON.parse(l));
    assert.ok(
      parsed.some((l) => l.reqId === res.json().requestId),
      'log lines carry the requestId',
    );
    assert.ok(
      parsed.some((l) => l.quotaUnits === 7),
      'upstream quota units are logged',
    );
  });

  it('exposes Prometheus metrics: HTTP latency, upstream calls and quota, credits, queue depth', async () => {
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/plain/);
    assert.match(res.body, /http_request_duration_seconds_bucket\{.*route="\/api\/youtube\/shorts".*status="200"/);
    assert.match(res.body, /upstream_calls_total\{endpoint="playlistItems",status="200"\} 3/);
    assert.match(res.body, /upstream_quota_units_total\{endpoint="videos",key="1:[0-9a-f]{8}"\} 3/);
    assert.match(res.body, /upstream_key_units_used\{key="1:[0-9a-f]{8}"\} 7/);
    assert.match(res.body, /upstream_key_units_remaining\{key="1:[0-9a-f]{8}",state="active"\} 9893/);
    assert.ok(!res.body.includes('fake-api-key'), 'never the key itself');
    assert.match(res.body, /credits_charged_total 3/);
    assert.match(res.body, /queue_depth\{queue="webhook-delivery"\} 0/);
    assert.match(res.body, /webhook_attempts_total/);
  });
});
