// Optional key expiry (enforced at its time even through the credential cache) and per-key usage.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { STORAGE_MODES, createUser, bearer, skipWithout } from './helpers/test-app.ts';
import { useHarness } from './helpers/harness.ts';
import { chargeAndRecord } from '../src/domain/requests/charge-and-record.ts';

let serial = 0;

for (const mode of STORAGE_MODES) {
  describe(`API key expiry and usage (${mode})`, { skip: skipWithout(mode) }, () => {
    const t = useHarness({ mode, fake: false, env: { CREDENTIAL_CACHE_MS: '60000' }, now: () => clock });
    let clock = Date.parse('2030-03-01T12:00:00Z');
    before(async () => {
      // A long credential cache: the expiry must still bite at its time, not when the cached lookup lapses.
    });

    it('a key with an expiry works until then and is refused from that instant, although its lookup is cached', async () => {
      const user = await createUser(t);
      const expiresAt = new Date(clock + 60_000).toISOString();
      const created = await t.app.inject({
        method: 'POST',
        url: '/keys',
        headers: bearer(user.token),
        payload: { name: 'short-lived', expiresAt },
      });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json().expiresAt, expiresAt);
      const key = created.json().key as string;
      clock += 30_000;
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(key) })).statusCode,
        200,
        'works before its expiry (and is now cached for 60 s, past the expiry)',
      );
      clock += 29_999;
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(key) })).statusCode,
        200,
        '1 ms before',
      );
      clock += 1;
      const refused = await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(key) });
      assert.equal(refused.statusCode, 401, 'refused at its expiry, from the cached lookup');
      assert.equal(refused.json().error, 'UNAUTHORIZED');
      assert.equal(refused.json().message, `The API key expired at ${expiresAt}; create a new one in the dashboard.`);
      const listed = (await t.app.inject({ method: 'GET', url: '/keys', headers: bearer(user.token) }))
        .json()
        .keys.find((k: { id: string }) => k.id === created.json().id);
      assert.equal(listed.expiresAt, expiresAt);
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).statusCode,
        200,
        'a key without expiry is unaffected',
      );
    });

    it('refuses an expiry in the past, now, unparseable or more than 5 years ahead', async () => {
      const user = await createUser(t);
      for (const [expiresAt, pattern] of [
        [new Date(clock - 1000).toISOString(), /in the future/],
        [new Date(clock).toISOString(), /in the future/],
        [new Date(clock + 6 * 366 * 86_400_000).toISOString(), /at most 5 years/],
        ['next tuesday', /expiresAt/],
      ] as const) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/keys',
          headers: bearer(user.token),
          payload: { name: 'bad expiry', expiresAt },
        });
        assert.equal(res.statusCode, 400, `${expiresAt}: ${res.body}`);
        assert.equal(res.json().error, 'VALIDATION_FAILED');
        assert.match(res.json().message, pattern);
      }
    });

    it('counts requests and credits per key over the last 30 days (dashboard session only)', async () => {
      const user = await createUser(t, 500);
      const second = (
        await t.app.inject({ method: 'POST', url: '/keys', headers: bearer(user.token), payload: { name: 'second' } })
      ).json();
      const { db } = t.services;
      const settle = async (apiKeyId: string | null, credits: number, daysAgo: number) => {
        const id = `req_keyuse${process.pid}x${++serial}`;
        await chargeAndRecord(db, {
          request: {
            id,
            accountId: user.id,
            apiKeyId,
            channelUrl: 'https://www.youtube.com/@fake-1',
            oldestDate: null,
            limit: null,
            webhookUrl: null,
          },
          credits,
          outcome: {
            status: 'completed',
            httpStatus: 200,
            itemCount: 1,
            creditsCharged: credits,
            errorCode: null,
            result: {},
            quotaUnits: 0,
          },
        });
        await db.query('UPDATE shorts_requests SET created_at = $2 WHERE id = $1', [
          id,
          new Date(clock - daysAgo * 86_400_000),
        ]);
      };
      await settle(user.keyId, 3, 1);
      await settle(user.keyId, 4, 29);
      await settle(user.keyId, 50, 31); // outside the window
      await settle(second.id, 2, 0);
      await settle(null, 1, 2); // from the dashboard
      const res = await t.app.inject({ method: 'GET', url: '/keys/usage', headers: bearer(user.token) });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), {
        days: 30,
        keys: [
          { keyId: user.keyId, requests: 2, credits: 7 },
          ...[
            { keyId: second.id, requests: 1, credits: 2 },
            { keyId: null, requests: 1, credits: 1 },
          ].sort((a, b) => String(a.keyId).localeCompare(String(b.keyId))),
        ],
      });
      const wider = (
        await t.app.inject({ method: 'GET', url: '/keys/usage?days=60', headers: bearer(user.token) })
      ).json();
      assert.deepEqual(wider.keys[0], { keyId: user.keyId, requests: 3, credits: 57 });
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/keys/usage', headers: bearer(user.key) })).statusCode,
        403,
        'session only, like key management',
      );
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/keys/usage?days=0', headers: bearer(user.token) })).statusCode,
        400,
      );
    });
  });
}
