// The scale-out mode with real processes: 2 API instances (no worker) + 1 worker process, sharing
// the machine's PostgreSQL and Redis. Limits, credits and webhooks must be exact across them.
// The processes run as `npm start` and `npm run worker` run them: the bundle (dist/).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startFakePlatform, type FakePlatform } from '../src/fake-platform/server.ts';
import { fakeEnv } from './helpers/harness.ts';
import { openDatabase } from '../src/infra/db/open-database.ts';
import type { Database } from '../src/infra/db/database.ts';
import { createAccount } from '../src/domain/accounts/accounts.ts';
import { createApiKey } from '../src/domain/keys/api-keys.ts';
import { PASSWORD, uniqueEmail } from './helpers/test-app.ts';
import { createPostgresDatabase, REDIS_TEST_URL, skipWithout } from '../support/databases.ts';
import { freePort, startChild, type ChildService } from '../support/child-service.ts';
import { startReceiver, until } from '../support/webhook-receiver.ts';

describe('scale-out: 2 API processes + 1 worker on PostgreSQL and Redis', {
  skip: skipWithout('postgres', 'redis'),
}, () => {
  let fake: FakePlatform;
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let db: Database;
  let api: ChildService[] = [];
  let worker: ChildService;
  let workerMetrics: string;
  before(async () => {
    fake = await startFakePlatform();
    database = await createPostgresDatabase();
    db = await openDatabase({ DATABASE_URL: database.url, DATA_DIR: '', DATABASE_POOL_SIZE: 4 });
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: REDIS_TEST_URL,
      REDIS_KEY_PREFIX: `cs-test-${randomBytes(4).toString('hex')}:`,
      YOUTUBE_API_KEY: 'fake-api-key',
      ...fakeEnv(fake),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0.5,0.5,0.5',
      JOB_HEARTBEAT_SECONDS: '10',
      JWT_SECRET: randomBytes(32).toString('hex'),
    };
    api = await Promise.all([
      startChild('dist/server.mjs', { ...env, RUN_WORKER: 'false' }),
      startChild('dist/server.mjs', { ...env, RUN_WORKER: 'false' }),
    ]);
    workerMetrics = `http://127.0.0.1:${await freePort()}`;
    worker = await startChild('dist/worker.mjs', {
      ...env,
      WORKER_CONCURRENCY: '8',
      WORKER_METRICS_PORT: new URL(workerMetrics).port,
      METRICS_TOKEN: 'worker-metrics-token-0123',
    });
  });
  after(async () => {
    await Promise.all([...api.map((a) => a.kill('SIGTERM')), worker?.kill('SIGTERM')]);
    await db.close();
    await database.drop();
    await fake.close();
  });

  async function userWith(credits: number, limits?: { perMinute: number; perHour: number; perDay: number }) {
    const account = await createAccount(db, { email: uniqueEmail('scale'), password: PASSWORD, credits });
    if (limits)
      await db.query(
        'UPDATE accounts SET rate_limit_per_minute = $2, rate_limit_per_hour = $3, rate_limit_per_day = $4 WHERE id = $1',
        [account.id, limits.perMinute, limits.perHour, limits.perDay],
      );
    const { key } = await createApiKey(db, account.id, 'scale test');
    return { id: account.id, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } };
  }
  const post = (i: number, headers: Record<string, string>, body: object) =>
    fetch(`${api[i % api.length]!.url}/api/youtube/shorts`, { method: 'POST', headers, body: JSON.stringify(body) });

  it('150 requests spread over both instances within a minute: exactly 60 succeed', async () => {
    // Fixed windows follow the clock; start well inside a minute so the burst cannot straddle two.
    const second = new Date().getUTCSeconds();
    if (second > 40) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
    const user = await userWith(1000);
    const statuses = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        post(i, user.headers, { channelUrl: 'https://www.youtube.com/@sparse' }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    assert.equal(statuses.filter((s) => s === 200).length, 60);
    assert.equal(statuses.filter((s) => s === 429).length, 90);
    const [row] = await db.query<{ credit_balance: number }>('SELECT credit_balance FROM accounts WHERE id = $1', [
      user.id,
    ]);
    assert.equal(row!.credit_balance, 1000 - 60);
  });

  it('200 concurrent charges against 50 credits: exactly 50 succeed, balance 0, ledger consistent', async () => {
    const user = await userWith(50, { perMinute: 10_000, perHour: 10_000, perDay: 10_000 });
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        post(i, user.headers, { channelUrl: 'https://www.youtube.com/@sparse' }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    assert.equal(statuses.filter((s) => s === 200).length, 50);
    assert.equal(statuses.filter((s) => s === 402).length, 150);
    const [row] = await db.query<{ credit_balance: number }>('SELECT credit_balance FROM accounts WHERE id = $1', [
      user.id,
    ]);
    assert.equal(row!.credit_balance, 0);
    const [ledger] = await db.query<{ total: number; charges: number }>(
      "SELECT sum(amount)::int AS total, count(*) FILTER (WHERE kind = 'charge')::int AS charges FROM credit_ledger WHERE account_id = $1",
      [user.id],
    );
    assert.equal(ledger!.total, 0);
    assert.equal(ledger!.charges, 50);
  });

  it('100 webhook jobs are each delivered, never twice at once, and killing an API process loses nothing', async () => {
    const inFlight = new Map<string, number>();
    let overlap = 0;
    const receiver = await startReceiver((d) => {
      const id = String(d.headers['webhook-id']);
      inFlight.set(id, (inFlight.get(id) ?? 0) + 1);
      if (inFlight.get(id)! > 1) overlap++;
      setTimeout(() => inFlight.set(id, inFlight.get(id)! - 1), 0);
      return { status: 200 };
    });
    const user = await userWith(10_000, { perMinute: 10_000, perHour: 10_000, perDay: 10_000 });
    const accepted: string[] = [];
    for (let i = 0; i < 100; i++) {
      if (i === 50) await api[0]!.kill('SIGKILL'); // half-way, one API instance dies
      const target = i >= 50 ? 1 : i;
      const res = await post(target, user.headers, {
        channelUrl: `https://www.youtube.com/@fake-${(i % 7) + 1}`,
        webhookUrl: receiver.url(`/h/${i}`),
      });
      assert.equal(res.status, 202);
      accepted.push((await res.json()).requestId);
    }
    const expected = new Set(accepted.map((id) => `msg_${id}`));
    await until(
      async () => new Set(receiver.deliveries.map((d) => String(d.headers['webhook-id']))).size >= expected.size,
      60_000,
      200,
    );
    const delivered = new Set(receiver.deliveries.map((d) => String(d.headers['webhook-id'])));
    for (const id of expected) assert.ok(delivered.has(id), `${id} delivered`);
    assert.equal(overlap, 0, 'no webhook was delivered twice concurrently');
    const [row] = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM shorts_requests WHERE account_id = $1 AND status = 'completed'",
      [user.id],
    );
    assert.equal(row!.n, 100);
    await receiver.close();
    // The worker did the fetching and delivering: its own /metrics shows it (before: never scraped).
    assert.equal((await fetch(`${workerMetrics}/metrics`)).status, 401, 'METRICS_TOKEN holds there too');
    const scraped = await (
      await fetch(`${workerMetrics}/metrics`, { headers: { authorization: 'Bearer worker-metrics-token-0123' } })
    ).text();
    const attempts = [...scraped.matchAll(/^webhook_attempts_total\{[^}]*outcome="delivered"[^}]*\} (\d+)/gm)].reduce(
      (sum, m) => sum + Number(m[1]),
      0,
    );
    assert.ok(attempts >= 100, `the worker's webhook attempts: ${attempts}\n${scraped.slice(0, 2000)}`);
    assert.match(scraped, /^upstream_calls_total\{/m);
    assert.equal((await fetch(`${workerMetrics}/healthz`)).status, 200);
  });
});
