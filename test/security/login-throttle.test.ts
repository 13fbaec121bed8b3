// Login throttling is atomic (parallel requests cannot outrun it), keyed by
// (email, address) with growing delays, a per-email ceiling that only slows guessing, and the
// client address comes from X-Forwarded-For only when the peer is a trusted proxy. Password checks
// are bounded by a gate.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  createLoginThrottle,
  memoryThrottleStore,
  redisThrottleStore,
  sqlThrottleStore,
  type ThrottleStore,
} from '../../src/domain/auth/login-throttle.ts';
import { createPasswordGate } from '../../src/domain/auth/password-gate.ts';
import { openDatabase } from '../../src/infra/db/open-database.ts';
import { connectRedis } from '../../src/infra/redis.ts';
import { AppError } from '../../src/errors.ts';
import type { Database } from '../../src/infra/db/database.ts';
import { createAccount } from '../../src/domain/accounts/accounts.ts';
import { STORAGE_MODES, clearOfWindowEnd, startTestApp, uniqueEmail, PASSWORD } from '../helpers/test-app.ts';
import { useHarness } from '../helpers/harness.ts';
import { createPostgresDatabase, REDIS_TEST_URL, skipWithout, type Need } from '../../support/databases.ts';
import { clientAddressKey } from '../../src/http/client-address.ts';

type StoreCase = { name: string; open(): Promise<{ store: ThrottleStore; close(): Promise<void> }> };
const STORES: StoreCase[] = [
  { name: 'memory', open: async () => ({ store: memoryThrottleStore(), close: async () => {} }) },
  {
    name: 'postgres',
    open: async () => {
      const database = await createPostgresDatabase();
      const db: Database = await openDatabase({ DATABASE_URL: database.url, DATA_DIR: '', DATABASE_POOL_SIZE: 10 });
      return {
        store: sqlThrottleStore(db),
        close: async () => {
          await db.close();
          await database.drop();
        },
      };
    },
  },
  {
    name: 'redis',
    open: async () => {
      const redis = await connectRedis(REDIS_TEST_URL, `throttle-test-${randomBytes(4).toString('hex')}:`);
      await new Promise((resolve) => redis.once('ready', resolve));
      return { store: redisThrottleStore(redis), close: async () => redis.disconnect() };
    },
  },
];

for (const storeCase of STORES) {
  describe(`login throttle decisions (${storeCase.name} store)`, { skip: skipWithout(storeCase.name as Need) }, () => {
    let opened: Awaited<ReturnType<StoreCase['open']>>;
    let clock = 1_800_000_000_000;
    const throttle = () => createLoginThrottle(opened.store, { maxFailures: 5, windowSeconds: 900, now: () => clock });
    before(async () => {
      opened = await storeCase.open();
    });
    after(() => opened.close());

    it('reserves before the check: of 100 parallel attempts for one pair, exactly 5 are let through', async () => {
      const email = uniqueEmail('par');
      const verdicts = await Promise.all(Array.from({ length: 100 }, () => throttle().begin(email, '203.0.113.7')));
      assert.equal(verdicts.filter((v) => v.allowed).length, 5);
      const refused = verdicts.find((v) => !v.allowed);
      assert.ok(refused && !refused.allowed && refused.retryAfterSeconds === 30);
    });

    it('grows the delay with each failure past the limit and a correct password clears the pair', async () => {
      const email = uniqueEmail('grow');
      const t = throttle();
      for (let i = 0; i < 5; i++) assert.ok((await t.begin(email, '198.51.100.1')).allowed);
      assert.deepEqual(await t.begin(email, '198.51.100.1'), { allowed: false, retryAfterSeconds: 30 });
      clock += 30_000;
      const sixth = await t.begin(email, '198.51.100.1');
      assert.ok(sixth.allowed, 'one attempt after the first delay');
      assert.deepEqual(
        await t.begin(email, '198.51.100.1'),
        { allowed: false, retryAfterSeconds: 60 },
        'the delay doubled',
      );
      clock += 60_000;
      const seventh = await t.begin(email, '198.51.100.1');
      assert.ok(seventh.allowed);
      await seventh.attempt.settle(true);
      for (let i = 0; i < 5; i++)
        assert.ok((await t.begin(email, '198.51.100.1')).allowed, 'a success starts the pair over');
    });

    it('the per-email ceiling slows addresses that already failed, never a clean one', async () => {
      const email = uniqueEmail('ceiling');
      const t = throttle();
      // 4 addresses × 5 failures = 20 = the per-email ceiling (5 × 4).
      for (let a = 1; a <= 4; a++)
        for (let i = 0; i < 5; i++) assert.ok((await t.begin(email, `192.0.2.${a}`)).allowed);
      const fresh = await t.begin(email, '192.0.2.50');
      assert.ok(fresh.allowed, 'a clean address gets its attempt');
      const again = await t.begin(email, '192.0.2.50');
      assert.equal(again.allowed, false, 'but a second guess from it waits for the email-wide delay');
      const owner = await t.begin(email, '192.0.2.99');
      assert.ok(owner.allowed, 'the owner, from an address without failures, is let in');
      await owner.attempt.settle(true);
    });

    it('an attempt released unchecked does not count', async () => {
      const email = uniqueEmail('release');
      const t = throttle();
      for (let i = 0; i < 4; i++) assert.ok((await t.begin(email, '198.51.100.77')).allowed);
      for (let i = 0; i < 3; i++) {
        const attempt = await t.begin(email, '198.51.100.77');
        assert.ok(attempt.allowed);
        await attempt.attempt.release();
      }
      assert.ok((await t.begin(email, '198.51.100.77')).allowed, 'the fifth counted attempt');
      assert.equal((await t.begin(email, '198.51.100.77')).allowed, false);
    });

    it('counts failures per address across emails (credential stuffing)', async () => {
      const t = throttle();
      const address = `2001:db8::${randomBytes(2).toString('hex')}`;
      for (let i = 0; i < 20; i++) assert.ok((await t.begin(uniqueEmail('stuff'), address)).allowed);
      assert.equal((await t.begin(uniqueEmail('stuff'), address)).allowed, false);
    });
  });
}

describe('password gate', () => {
  it('runs at most `concurrency` checks, queues `maxQueue`, refuses the rest with 503 and Retry-After', async () => {
    const gate = createPasswordGate({ concurrency: 2, maxQueue: 1 });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let running = 0;
    let peak = 0;
    const work = async () => {
      running++;
      peak = Math.max(peak, running);
      await held;
      running--;
      return true;
    };
    const admitted = [gate.run(work), gate.run(work), gate.run(work)];
    await assert.rejects(
      gate.run(work),
      (error: unknown) =>
        error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE' && error.headers['retry-after'] === '1',
    );
    assert.equal(gate.active, 2);
    assert.equal(gate.waiting, 1);
    release();
    assert.deepEqual(await Promise.all(admitted), [true, true, true]);
    assert.equal(peak, 2);
    assert.equal(gate.active, 0);
  });
});

const LOGIN_MODES = [
  ...STORAGE_MODES.map((mode) => ({ mode, redis: false })),
  { mode: 'postgres' as const, redis: true },
];
for (const { mode, redis } of LOGIN_MODES) {
  describe(`POST /auth/login throttling (${mode}${redis ? ' + Redis' : ''})`, {
    skip: skipWithout(mode, ...(redis ? (['redis'] as const) : [])),
  }, () => {
    const t = useHarness({
      mode,
      fake: false,
      env: {
        LOGIN_MAX_FAILURES: '5',
        ...(redis ? { REDIS_URL: REDIS_TEST_URL, REDIS_KEY_PREFIX: `login-${randomBytes(4).toString('hex')}:` } : {}),
      },
    });
    before(async () => {
      if (redis)
        await new Promise((resolve) =>
          t.services.redis!.status === 'ready' ? resolve(null) : t.services.redis!.once('ready', resolve),
        );
    });

    const login = (email: string, password: string, headers: Record<string, string> = {}, remoteAddress?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email, password },
        headers,
        ...(remoteAddress ? { remoteAddress } : {}),
      });

    it('100 parallel wrong passwords with rotating X-Forwarded-For: at most 5 are checked, the rest 429', async () => {
      const email = uniqueEmail('flood');
      await createAccount(t.services.db, { email, password: PASSWORD });
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          login(email, `wrong-guess-${i}`, { 'x-forwarded-for': `198.18.${i >> 8}.${i & 255}` }),
        ),
      );
      const checked = results.filter((r) => r.statusCode === 401).length;
      const refused = results.filter((r) => r.statusCode === 429);
      assert.equal(checked, 5, 'parallel evaluations');
      assert.equal(refused.length, 95);
      assert.equal(refused[0]!.json().error, 'TOO_MANY_LOGIN_ATTEMPTS');
      assert.ok(Number(refused[0]!.headers['retry-after']) > 0);
      // Lockout cannot be used against the owner: the right password from another address works.
      assert.equal((await login(email, PASSWORD, {}, '192.0.2.200')).statusCode, 200);
      assert.equal((await login(email, PASSWORD)).statusCode, 429, 'but not from the guessing address');
    });
  });
}

describe('per-address limits count an IPv6 client by its /64', () => {
  const t = useHarness(() => {
    // Sign-ups count per clock hour: the service's clock keeps a minute clear of the hour's end
    // (14 sign-ups across it would find room for more than ten).
    const skew = clearOfWindowEnd(Date.now(), 3600, 60_000);
    return {
      fake: false,
      env: { LOGIN_MAX_FAILURES: '5', SIGNUP: 'open', SIGNUP_CREDITS: '5' },
      now: () => Date.now() + skew,
    };
  });
  // Addresses of one /64, as one host picks them.
  const rotated = (i: number) => `2001:db8:1:2:${(0x1000 + i).toString(16)}::${(i % 7) + 1}`;

  it('the keys: IPv4 as it is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64', () => {
    assert.equal(clientAddressKey('203.0.113.7'), '203.0.113.7');
    assert.equal(clientAddressKey('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(clientAddressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(clientAddressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64');
    assert.equal(clientAddressKey('2001:db8:1:3::1'), '2001:db8:1:3::/64');
  });

  it('rotating addresses within one /64 neither opens more accounts nor tries more passwords', async () => {
    const signups = [];
    for (let i = 0; i < 14; i++) {
      signups.push(
        (
          await t.app.inject({
            method: 'POST',
            url: '/signup',
            remoteAddress: rotated(i),
            payload: { email: uniqueEmail('rot'), password: 'a long enough password 1' },
          })
        ).statusCode,
      );
    }
    assert.deepEqual(
      signups.filter((s) => s !== 202 && s !== 429),
      [],
      String(signups),
    );
    assert.equal(signups.filter((s) => s === 202).length, 10, 'ten an hour from one client');
    assert.equal(
      (
        await t.app.inject({
          method: 'POST',
          url: '/signup',
          remoteAddress: '2001:db8:1:3::1',
          payload: { email: uniqueEmail('rot'), password: 'a long enough password 1' },
        })
      ).statusCode,
      202,
      'another /64 is another client',
    );

    const email = uniqueEmail('rotvictim');
    await createAccount(t.services.db, { email, password: PASSWORD });
    let checked = 0;
    for (let i = 0; i < 20; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        remoteAddress: rotated(100 + i),
        payload: { email, password: `guess-${i}` },
      });
      if (res.statusCode === 401) checked++;
      else assert.equal(res.statusCode, 429, res.body);
    }
    assert.equal(checked, 5, 'as from one address');
  });
});

describe('TRUSTED_PROXIES', () => {
  const t = useHarness({ fake: false, env: { TRUSTED_PROXIES: '127.0.0.1/32, ::1' } });

  it('believes X-Forwarded-For from a listed proxy only', async () => {
    const email = uniqueEmail('proxy');
    await createAccount(t.services.db, { email, password: PASSWORD });
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email, password: `nope-${i}` },
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      assert.equal(res.statusCode, 401);
    }
    const fromClient = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email, password: PASSWORD },
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    assert.equal(fromClient.statusCode, 429, 'the client behind the proxy is throttled');
    const otherClient = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email, password: PASSWORD },
      headers: { 'x-forwarded-for': '203.0.113.10' },
    });
    assert.equal(otherClient.statusCode, 200, 'another client behind the same proxy is not');
    const untrusted = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email, password: PASSWORD },
      headers: { 'x-forwarded-for': '203.0.113.10' },
      remoteAddress: '192.0.2.1',
    });
    assert.equal(untrusted.statusCode, 200);
  });

  it('rejects a malformed TRUSTED_PROXIES at start', async () => {
    await assert.rejects(startTestApp('pglite', { TRUSTED_PROXIES: '10.0.0.0/99' }), /TRUSTED_PROXIES/);
  });
});

describe('bounded password hashing', () => {
  const t = useHarness({ fake: false, env: { PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '1' } });

  it('a flood of logins for unknown emails gets 503 with Retry-After beyond the queue, never a 500', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { email: uniqueEmail(`flood${i}`), password: 'whatever-password' },
          remoteAddress: `198.51.100.${i + 1}`,
        }),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    assert.ok(
      statuses.every((s) => s === 401 || s === 503),
      statuses.join(','),
    );
    const busy = results.filter((r) => r.statusCode === 503);
    assert.ok(busy.length >= 9, `only the running and the queued check proceed: ${statuses.join(',')}`);
    assert.equal(busy[0]!.headers['retry-after'], '1');
    assert.deepEqual(Object.keys(busy[0]!.json()).sort(), ['error', 'message', 'requestId']);
  });
});
