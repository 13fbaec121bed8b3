// The test harness itself: it wires the fake, types calls by the contract, and closes what it
// started when its test ends.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import { harness, type Harness } from './helpers/harness.ts';
import type { SuccessBody } from '../src/contract/shorts.ts';
import type { Account } from '../src/contract/accounts.ts';
import type { ShortsRequestBody } from '../src/http/schemas/shorts.ts';

describe('test harness', () => {
  it('answers through the fake it started, and closes the app and the fake after its test', async (t) => {
    let h: Harness | undefined;
    await t.test('a test using the harness', async (inner) => {
      h = await harness(inner, { env: { CACHE_TTL_SECONDS: '0' } });
      const user = await h.user(10);
      const res = await h.as(user).post<Static<typeof ShortsRequestBody>, SuccessBody>('/api/youtube/shorts', {
        channelUrl: 'https://www.youtube.com/@fake-50',
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.itemCount, 50);
      assert.equal(res.body.creditsCharged, 1);
      assert.equal(res.headers['x-request-id'], res.body.requestId);
      assert.equal(h.fake.quotaUsed(), 3, 'channels.list, one playlist page, one videos.list');
      const account = await h.as(user.key).get<Account>('/accounts');
      assert.equal(account.body.credits.balance, 9);
      assert.equal((await h.anon.get('/accounts')).status, 401);
    });
    assert.ok(h);
    await assert.rejects(fetch(`${h.fake.baseUrl}/channels`), 'the fake is closed');
    await assert.rejects(h.services.db.query('SELECT 1'), 'the database is closed');
  });
});
