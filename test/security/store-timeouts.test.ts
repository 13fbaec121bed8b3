// A store that accepts connections but never answers (a SIGSTOPped Redis, a frozen
// network path to PostgreSQL) must turn into 503 within a bounded time, and the service must
// recover by itself when the store answers again. Uses its own redis-server (never the shared one).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createUser, bearer } from '../helpers/test-app.ts';
import { useHarness } from '../helpers/harness.ts';
import { createPostgresDatabase, skipWithout, startRedis } from '../../support/databases.ts';
import { freePort } from '../../support/child-service.ts';
import { until } from '../../support/webhook-receiver.ts';
import pg from 'pg';
import { openDatabase } from '../../src/infra/db/open-database.ts';

/** A TCP proxy that can freeze: connections stay open but no byte is forwarded either way. */
async function startFreezableProxy(targetPort: number) {
  const sockets = new Set<Socket>();
  let frozen = false;
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (!frozen) return to.write(chunk);
        from.pause();
        const resume = setInterval(() => {
          if (frozen) return;
          clearInterval(resume);
          to.write(chunk);
          from.resume();
        }, 20);
      });
    forward(client, upstream);
    forward(upstream, client);
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
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - started) };
}

describe('hung Redis (SIGSTOP): 503 within 2 s, recovery by itself', { skip: skipWithout('redis-server') }, () => {
  let redis: ChildProcess;
  // Its own Redis, started first: the tests stop and continue it.
  const t = useHarness(async () => {
    const port = await freePort();
    redis = await startRedis(port);
    return {
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_KEY_PREFIX: `hung-${randomBytes(3).toString('hex')}:` },
    };
  });
  before(async () => {
    await until(async () => t.services.redis!.status === 'ready', 5000, 20);
    // Running again before the service closes its connection.
    t.defer(() => redis.kill('SIGCONT'));
  });
  after(() => {
    redis.kill('SIGKILL');
  });

  it('answers 503 SERVICE_UNAVAILABLE within 2 s while Redis is stopped, 200 again after SIGCONT', async () => {
    const user = await createUser(t, 100);
    const shorts = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/youtube/shorts',
        headers: bearer(user.key),
        payload: { channelUrl: 'https://www.youtube.com/@sparse' },
      });
    const account = () => t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) });
    assert.equal((await shorts()).statusCode, 200);
    redis.kill('SIGSTOP');
    try {
      const calls = await Promise.all(Array.from({ length: 10 }, (_, i) => timed(i % 2 ? shorts : account)));
      const slowest = Math.max(...calls.map((c) => c.ms));
      console.log(`# hung Redis: ${calls.length} calls, all answered within ${slowest} ms`);
      for (const { value } of calls) {
        assert.equal(value.statusCode, 503, value.body);
        assert.equal(value.json().error, 'SERVICE_UNAVAILABLE');
        assert.ok(value.headers['retry-after']);
      }
      assert.ok(slowest <= 2000, `slowest call took ${slowest} ms`);
      const ready = await timed(() => t.app.inject({ method: 'GET', url: '/readyz' }));
      assert.equal(ready.value.statusCode, 503);
      assert.equal(ready.value.json().checks.redis.status, 'down');
      assert.ok(ready.ms <= 2500);
    } finally {
      redis.kill('SIGCONT');
    }
    await until(async () => (await shorts()).statusCode === 200, 10_000, 100);
    assert.equal((await account()).statusCode, 200);
  });
});

describe('hung PostgreSQL (frozen network): 503 within the configured timeouts, recovery by itself', {
  skip: skipWithout('postgres'),
}, () => {
  let proxy: Awaited<ReturnType<typeof startFreezableProxy>>;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  // The service reaches its own PostgreSQL database through a proxy the test can freeze.
  const t = useHarness(async () => {
    proxy = await startFreezableProxy(5432);
    database = await createPostgresDatabase();
    const viaProxy = new URL(database.url);
    viaProxy.port = String(proxy.port);
    return {
      env: {
        DATABASE_URL: viaProxy.toString(),
        DATABASE_STATEMENT_TIMEOUT_MS: '1000',
        DATABASE_CONNECT_TIMEOUT_MS: '1000',
      },
    };
  });
  before(() => {
    // Thawed before the service closes its connections.
    t.defer(() => proxy.thaw());
  });
  after(async () => {
    await proxy.close();
    await database.drop();
  });

  it('answers 503 instead of hanging, and 200 once the database answers again', async () => {
    const user = await createUser(t, 100);
    const account = () => t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.token) });
    assert.equal((await account()).statusCode, 200);
    proxy.freeze();
    try {
      const calls = await Promise.all(Array.from({ length: 5 }, () => timed(account)));
      const slowest = Math.max(...calls.map((c) => c.ms));
      console.log(`# hung PostgreSQL: ${calls.length} calls, all answered within ${slowest} ms`);
      for (const { value } of calls) {
        assert.equal(value.statusCode, 503, value.body);
        assert.equal(value.json().error, 'SERVICE_UNAVAILABLE');
      }
      assert.ok(slowest <= 4000, `slowest call took ${slowest} ms`);
    } finally {
      proxy.thaw();
    }
    await until(async () => (await account()).statusCode === 200, 15_000, 200);
  });
});

describe('statement timeouts do not apply to migrations', { skip: skipWithout('postgres') }, () => {
  it("an instance waiting for another instance's migration (longer than the statement timeout) still starts", async (ctx) => {
    const database = await createPostgresDatabase();
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    ctx.after(async () => {
      await holder.end();
      await database.drop();
    });
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock(424242)'); // the migration lock (src/infra/db/migrate.ts)
    const opening = openDatabase({
      DATABASE_URL: database.url,
      DATA_DIR: '',
      DATABASE_POOL_SIZE: 2,
      DATABASE_STATEMENT_TIMEOUT_MS: 200,
      DATABASE_CONNECT_TIMEOUT_MS: 2000,
    });
    await new Promise((r) => setTimeout(r, 800)); // the other instance's long migration
    await holder.query('COMMIT');
    const db = await opening;
    const [row] = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM schema_migrations WHERE name = '003_security.sql'",
    );
    assert.equal(row!.n, 1);
    await assert.rejects(
      db.query('SELECT pg_sleep(1)'),
      /statement timeout|canceling statement/,
      'the request path keeps its statement timeout',
    );
    await db.close();
  });
});
