// Documented behaviour when Redis or PostgreSQL goes away: rate-limited and data calls fail closed
// with 503 (never a 500, never an unlimited request), /readyz says which store is down, and the
// service recovers by itself when the store returns.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createUser, bearer } from './helpers/test-app.ts';
import { useHarness } from './helpers/harness.ts';
import { createPostgresDatabase, skipWithout, startRedis } from '../support/databases.ts';
import { freePort } from '../support/child-service.ts';
import { until } from '../support/webhook-receiver.ts';
import { Redis } from 'ioredis';
import { isRedisUnavailable } from '../src/infra/redis.ts';
import { isDatabaseUnavailable } from '../src/infra/db/unavailable.ts';

/** A TCP proxy to PostgreSQL that a test can cut and restore. */
async function startCuttableProxy(
  targetPort: number,
): Promise<{ port: number; cut(): void; restore(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) return client.destroy();
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    restore() {
      open = true;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

describe('Redis outage: fail closed with 503, recover without restart', { skip: skipWithout('redis-server') }, () => {
  let redis: ChildProcess;
  let port: number;
  // Its own Redis, started first: the test stops and starts it.
  const t = useHarness(async () => {
    port = await freePort();
    redis = await startRedis(port);
    return {
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_KEY_PREFIX: `outage-${randomBytes(3).toString('hex')}:` },
    };
  });
  after(() => {
    redis.kill('SIGKILL');
  });

  it('answers 503 while Redis is down and 200 again once it is back', async () => {
    const user = await createUser(t, 100);
    const call = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/youtube/shorts',
        headers: bearer(user.key),
        payload: { channelUrl: 'https://www.youtube.com/@sparse' },
      });
    assert.equal((await call()).statusCode, 200);
    redis.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    const down = await call();
    assert.equal(down.statusCode, 503);
    assert.deepEqual(Object.keys(down.json()).sort(), ['error', 'message', 'requestId', 'success']);
    assert.equal(down.json().error, 'SERVICE_UNAVAILABLE');
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 503);
    assert.equal(ready.json().checks.redis.status, 'down');
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).statusCode,
      503,
      'usage counters live in Redis too',
    );
    redis = await startRedis(port);
    await until(async () => (await call()).statusCode === 200, 15_000, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
  });

  it('answers 503 with Retry-After, not 500, while Redis answers but refuses writes (at maxmemory), and 200 once it takes them again', async (ctx) => {
    const user = await createUser(t, 100);
    const call = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/youtube/shorts',
        headers: bearer(user.key),
        payload: { channelUrl: 'https://www.youtube.com/@sparse' },
      });
    const admin = new Redis(`redis://127.0.0.1:${port}`);
    ctx.after(async () => {
      await admin.config('SET', 'maxmemory', '0').catch(() => null);
      admin.disconnect();
    });
    await admin.config('SET', 'maxmemory', '1');
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    const refused = await call();
    assert.equal(refused.statusCode, 503, refused.body);
    assert.equal(refused.json().error, 'SERVICE_UNAVAILABLE');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.deepEqual(
      [ready.statusCode, ready.json().checks.redis.status],
      [503, 'down'],
      'not ready while writes are refused',
    );
    await admin.config('SET', 'maxmemory', '0');
    assert.equal((await call()).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
  });
});

describe('store errors that mean "unavailable"', () => {
  it('Redis replies refusing writes and PostgreSQL codes of an overloaded or restarting server are 503, not 500', () => {
    for (const reply of [
      "OOM command not allowed when used memory > 'maxmemory'.",
      'MISCONF Redis is configured to save RDB snapshots',
      "READONLY You can't write against a read only replica.",
      'LOADING Redis is loading the dataset in memory',
    ]) {
      assert.equal(isRedisUnavailable(Object.assign(new Error(reply), { name: 'ReplyError' })), true, reply);
    }
    assert.equal(
      isRedisUnavailable(Object.assign(new Error('ERR wrong number of arguments'), { name: 'ReplyError' })),
      false,
      'a bug stays a 500',
    );
    for (const code of ['53300', '57P02', '53100', 'ENOTFOUND', 'EAI_AGAIN'])
      assert.equal(isDatabaseUnavailable({ code }), true, code);
    assert.equal(isDatabaseUnavailable({ code: '23505' }), false, 'a constraint violation stays what it is');
  });
});

describe('PostgreSQL outage: 503, then recovery without restart', { skip: skipWithout('postgres') }, () => {
  let proxy: Awaited<ReturnType<typeof startCuttableProxy>>;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  // The service reaches its own PostgreSQL database through a proxy the test can cut.
  const t = useHarness(async () => {
    proxy = await startCuttableProxy(5432);
    database = await createPostgresDatabase();
    const viaProxy = new URL(database.url);
    viaProxy.port = String(proxy.port);
    // No credential cache: the request after the cut must reach the database.
    return { env: { DATABASE_URL: viaProxy.toString(), CREDENTIAL_CACHE_MS: '0' } };
  });
  before(() => {
    // The connection is whole again before the service closes.
    t.defer(() => proxy.restore());
  });
  after(async () => {
    await proxy.close();
    await database.drop();
  });

  it('answers 503 while the database is unreachable and recovers', async () => {
    const user = await createUser(t, 100);
    const call = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/youtube/shorts',
        headers: bearer(user.key),
        payload: { channelUrl: 'https://www.youtube.com/@sparse' },
      });
    assert.equal((await call()).statusCode, 200);
    proxy.cut();
    const down = await call();
    assert.equal(down.statusCode, 503, down.body);
    assert.equal(down.json().error, 'SERVICE_UNAVAILABLE');
    assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 503);
    proxy.restore();
    await until(async () => (await call()).statusCode === 200, 15_000, 200);
    const [row] = await t.services.db.query<{ credit_balance: number }>(
      'SELECT credit_balance FROM accounts WHERE id = $1',
      [user.id],
    );
    assert.equal(row!.credit_balance, 98, 'only the two successful calls were charged');
  });
});
