// The authenticator's lookups: an API key is read with its account in one statement, and both
// are cached for CREDENTIAL_CACHE_MS; a session's account is read by id and cached as long. Counted
// on a real database through a Queryable that counts the statements it is given.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { STORAGE_MODES, createUser, type TestUser, skipWithout } from './helpers/test-app.ts';
import { useHarness } from './helpers/harness.ts';
import { createAuthenticator, localRevocationBus, type Authenticator } from '../src/domain/auth/authenticator.ts';
import { createJwtService } from '../src/domain/auth/jwt.ts';
import { generateApiKey, hashApiKey } from '../src/domain/keys/api-key-format.ts';
import type { Queryable } from '../src/infra/db/database.ts';

const CACHE_MS = 1000;

for (const mode of STORAGE_MODES) {
  describe(`authenticator lookups (${mode})`, { skip: skipWithout(mode) }, () => {
    const t = useHarness({ mode, fake: false });
    let user: TestUser;
    let clock = Date.parse('2031-05-01T12:00:00Z');
    let statements: string[] = [];
    let auth: Authenticator;
    const jwt = createJwtService({
      secret: 'a test secret of at least thirty-two characters',
      issuer: 'test',
      audience: 'test',
      ttlSeconds: 3600,
    });

    before(async () => {
      user = await createUser(t);
      const counting: Queryable = {
        query: (sql, params) => {
          statements.push(sql);
          return t.services.db.query(sql, params);
        },
      };
      auth = createAuthenticator(counting, jwt, localRevocationBus(), CACHE_MS, () => clock);
      // The first use of a key also records its last-use time (at most once a minute): out of the counts below.
      await auth.identify(`Bearer ${user.key}`);
      await new Promise((resolve) => setImmediate(resolve));
    });

    it('reads an API key and its account in one statement once the cached lookup lapsed, and none while it holds', async () => {
      clock += CACHE_MS + 1;
      statements = [];
      const first = await auth.identify(`Bearer ${user.key}`);
      assert.equal(statements.length, 1, `one statement for the key and its account: ${statements.join(' | ')}`);
      assert.equal(first.caller.keyId, user.keyId);
      assert.equal(first.caller.via, 'api_key');
      assert.equal(first.account?.id, user.id);
      assert.equal(first.account?.email, user.email);
      assert.equal(first.account?.disabled_at, null);
      assert.equal(typeof first.account?.credit_balance, 'number');
      clock += CACHE_MS - 1;
      await auth.identify(`Bearer ${user.key}`);
      assert.equal(statements.length, 1, 'cached within CREDENTIAL_CACHE_MS');
    });

    it('sees a disabled account when the lookup lapses, and a revoked key at once', async () => {
      const other = await createUser(t);
      await auth.identify(`Bearer ${other.key}`);
      await t.services.db.query('UPDATE accounts SET disabled_at = now() WHERE id = $1', [other.id]);
      assert.equal(
        (await auth.identify(`Bearer ${other.key}`)).account?.disabled_at,
        null,
        'the cached account, as for any instance within CREDENTIAL_CACHE_MS',
      );
      clock += CACHE_MS + 1;
      assert.ok(
        (await auth.identify(`Bearer ${other.key}`)).account?.disabled_at instanceof Date,
        'read again with the key once it lapsed',
      );
      await t.services.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [other.keyId]);
      await auth.revoked(hashApiKey(other.key));
      await assert.rejects(auth.identify(`Bearer ${other.key}`), /revoked/);
    });

    it("reads a session's account by id, cached as long", async () => {
      const { token } = await jwt.sign(user.id, user.email);
      clock += CACHE_MS + 1;
      statements = [];
      const identified = await auth.identify(`Bearer ${token}`);
      assert.equal(identified.caller.via, 'session');
      assert.equal(identified.account?.id, user.id);
      await auth.identify(`Bearer ${token}`);
      assert.equal(statements.length, 1, statements.join(' | '));
      assert.deepEqual(
        await auth.authenticate(`Bearer ${token}`),
        identified.caller,
        'authenticate: the caller alone, no account read',
      );
      assert.equal(statements.length, 1);
      clock += CACHE_MS + 1;
      await auth.identify(`Bearer ${token}`);
      assert.equal(statements.length, 2, 'read again once it lapsed');
    });

    it('refuses an unknown key after one statement, a malformed one without any', async () => {
      statements = [];
      await assert.rejects(auth.identify(`Bearer ${generateApiKey().key}`), /The API key is not valid/);
      assert.equal(statements.length, 1);
      await assert.rejects(
        auth.identify(`Bearer ${user.key.slice(0, -1)}${user.key.endsWith('A') ? 'B' : 'A'}`),
        /malformed/,
      );
      await assert.rejects(auth.identify('Bearer'), /Bearer scheme/);
      assert.equal(statements.length, 1);
    });
  });
}
