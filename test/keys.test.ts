import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { STORAGE_MODES, createUser, bearer, skipWithout } from './helpers/test-app.ts';
import { useHarness, type Harness } from './helpers/harness.ts';
import { Redis } from 'ioredis';
import { isWellFormedApiKey } from '../src/domain/keys/api-key-format.ts';

for (const mode of STORAGE_MODES) {
  describe(`API keys (${mode})`, { skip: skipWithout(mode) }, () => {
    const t = useHarness({ mode, fake: false });

    it('creates a key whose secret is shown once, stored only as SHA-256, and works as a bearer credential', async () => {
      const user = await createUser(t);
      const res = await t.app.inject({
        method: 'POST',
        url: '/keys',
        headers: bearer(user.token),
        payload: { name: '  production backend ' },
      });
      assert.equal(res.statusCode, 201);
      const created = res.json();
      assert.equal(created.name, 'production backend');
      assert.match(created.key, /^csk_[0-9A-Za-z]{38}$/);
      assert.ok(isWellFormedApiKey(created.key));
      assert.ok(created.key.startsWith(created.prefix));
      assert.equal(res.headers['cache-control'], 'no-store');
      const stored = await t.services.db.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE id = $1', [
        created.id,
      ]);
      assert.equal(stored[0]!.key_hash, createHash('sha256').update(created.key).digest('hex'));
      assert.ok(!JSON.stringify(stored).includes(created.key), 'the secret itself is not stored');
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(created.key) })).statusCode,
        200,
        'the new key works as a bearer credential',
      );
      const list = await t.app.inject({ method: 'GET', url: '/keys', headers: bearer(user.token) });
      assert.equal(list.statusCode, 200);
      const listed = list.json().keys.find((k: { id: string }) => k.id === created.id);
      assert.deepEqual(Object.keys(listed).sort(), [
        'createdAt',
        'expiresAt',
        'id',
        'lastUsedAt',
        'name',
        'prefix',
        'revokedAt',
        'scopes',
      ]);
      assert.deepEqual(listed.scopes, ['shorts:write', 'shorts:read', 'account:read'], 'every scope by default');
      assert.ok(!list.body.includes(created.key));
    });

    it('records last use and revokes: a revoked key is rejected at once with 401', async () => {
      const user = await createUser(t);
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).statusCode,
        200,
      );
      await new Promise((r) => setTimeout(r, 50));
      const before = (await t.app.inject({ method: 'GET', url: '/keys', headers: bearer(user.token) }))
        .json()
        .keys.find((k: { id: string }) => k.id === user.keyId);
      assert.ok(before.lastUsedAt, 'lastUsedAt is set after use');
      const revoked = await t.app.inject({ method: 'DELETE', url: `/keys/${user.keyId}`, headers: bearer(user.token) });
      assert.equal(revoked.statusCode, 200);
      assert.ok(revoked.json().revokedAt);
      const again = await t.app.inject({ method: 'DELETE', url: `/keys/${user.keyId}`, headers: bearer(user.token) });
      assert.equal(again.json().revokedAt, revoked.json().revokedAt, 'revoking twice keeps the first time');
      const rejected = await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) });
      assert.equal(rejected.statusCode, 401);
      assert.match(rejected.json().message, /revoked/);
    });

    it('key management needs a dashboard session: an API key may not list, mint or revoke keys (403)', async () => {
      const user = await createUser(t);
      for (const [method, url, payload] of [
        ['POST', '/keys', { name: 'minted by a key' }],
        ['GET', '/keys', undefined],
        ['DELETE', `/keys/${user.keyId}`, undefined],
      ] as const) {
        const res = await t.app.inject({ method, url, headers: bearer(user.key), ...(payload ? { payload } : {}) });
        assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
        assert.equal(res.json().error, 'FORBIDDEN');
        assert.match(res.json().message, /dashboard session/);
      }
      const keys = (await t.app.inject({ method: 'GET', url: '/keys', headers: bearer(user.token) })).json().keys;
      assert.equal(keys.length, 1, 'no key was minted');
      assert.equal(keys[0].revokedAt, null, 'and none revoked');
    });

    it("never lets one user see or revoke another user's keys (404)", async () => {
      const alice = await createUser(t);
      const bob = await createUser(t);
      const bobKeys = (await t.app.inject({ method: 'GET', url: '/keys', headers: bearer(bob.token) })).json().keys;
      assert.ok(bobKeys.every((k: { id: string }) => k.id !== alice.keyId));
      const res = await t.app.inject({ method: 'DELETE', url: `/keys/${alice.keyId}`, headers: bearer(bob.token) });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().error, 'NOT_FOUND');
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(alice.key) })).statusCode,
        200,
        "alice's key still works",
      );
    });

    it('validates input: blank or long names, bad ids', async () => {
      const user = await createUser(t);
      for (const payload of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 5 }]) {
        const res = await t.app.inject({ method: 'POST', url: '/keys', headers: bearer(user.token), payload });
        assert.equal(res.statusCode, 400, JSON.stringify(payload));
        assert.equal(res.json().error, 'VALIDATION_FAILED');
      }
      const bad = await t.app.inject({ method: 'DELETE', url: '/keys/not-a-uuid', headers: bearer(user.token) });
      assert.equal(bad.statusCode, 400);
      const missing = await t.app.inject({
        method: 'DELETE',
        url: '/keys/00000000-0000-4000-8000-000000000000',
        headers: bearer(user.token),
      });
      assert.equal(missing.statusCode, 404);
    });

    it('rejects keys with a bad checksum or unknown keys with 401', async () => {
      const user = await createUser(t);
      const flipped = user.key.slice(0, 10) + (user.key[10] === 'a' ? 'b' : 'a') + user.key.slice(11);
      const bad = await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(flipped) });
      assert.equal(bad.statusCode, 401);
      assert.match(bad.json().message, /malformed/);
    });
  });
}

describe('API key revocation across instances (PostgreSQL + Redis)', { skip: skipWithout('postgres', 'redis') }, () => {
  // Two instances share the database and Redis; each trusts a looked-up key for a minute
  // (CREDENTIAL_CACHE_MS), so only the revocation notice (Redis pub/sub) can end it sooner.
  const redis = {
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: `revoke-${process.pid}-${Date.now()}:`,
    CREDENTIAL_CACHE_MS: '60000',
  };
  const first = useHarness({ mode: 'postgres', fake: false, env: redis });
  let second: Harness;
  before(async () => {
    second = await first.peer({ env: { DATABASE_POOL_SIZE: '4' } });
  });

  it('a key revoked on one instance is refused by the other at once, not a cache lifetime later', async () => {
    // Both instances listen for notices: each subscribes once its Redis connection is up (subscribing
    // while it was still connecting failed at every start, and the instance never heard a notice).
    const channel = `${redis.REDIS_KEY_PREFIX}api-key-revoked`;
    const probe = new Redis(redis.REDIS_URL);
    try {
      let subscribers = 0;
      for (let i = 0; i < 500 && subscribers < 2; i++) {
        subscribers = Number(((await probe.pubsub('NUMSUB', channel)) as [string, number])[1]);
        if (subscribers < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(subscribers, 2, 'both instances subscribed to the revocation channel');
    } finally {
      probe.disconnect();
    }
    const user = await createUser(first);
    assert.equal(
      (await second.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).statusCode,
      200,
      'the second instance has looked the key up',
    );
    assert.equal(
      (await first.app.inject({ method: 'DELETE', url: `/keys/${user.keyId}`, headers: bearer(user.token) }))
        .statusCode,
      200,
    );
    // The notice crosses Redis asynchronously: poll for it, well within the minute the cache would keep the key.
    let status = 0;
    for (let i = 0; i < 200 && status !== 401; i++) {
      status = (await second.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).statusCode;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(status, 401, 'refused by the instance that did not revoke it');
  });
});
