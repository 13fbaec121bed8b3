import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { STORAGE_MODES, startTestApp, createUser, bearer, type TestApp } from './helpers/test-app.ts';
import { chargeCredits, grantCredits } from '../src/domain/credits/ledger.ts';

for (const mode of STORAGE_MODES) {
  describe(`credits ledger (${mode})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(mode);
    });
    after(() => t.close());

    it('never overdraws under many concurrent charges, and the ledger explains the balance', async () => {
      const user = await createUser(t, 10);
      const attempts = Array.from({ length: 60 }, (_, i) =>
        t.services.db.transaction((tx) => chargeCredits(tx, user.id, 1, `req_concurrent_${user.id}_${i}`)).then(() => 'ok', (e: Error & { code?: string }) => e.code ?? e.message),
      );
      const outcomes = await Promise.all(attempts);
      assert.equal(outcomes.filter((o) => o === 'ok').length, 10);
      assert.ok(outcomes.filter((o) => o !== 'ok').every((o) => o === 'INSUFFICIENT_CREDITS'));
      const [account] = await t.services.db.query<{ credit_balance: number }>('SELECT credit_balance FROM accounts WHERE id = $1', [user.id]);
      assert.equal(account!.credit_balance, 0);
      const [sum] = await t.services.db.query<{ total: number }>('SELECT coalesce(sum(amount), 0)::int AS total FROM credit_ledger WHERE account_id = $1', [user.id]);
      assert.equal(sum!.total, 0, 'grants minus charges equals the balance');
    });

    it('charges a request at most once (retried worker) and rejects non-positive grants', async () => {
      const user = await createUser(t, 5);
      await t.services.db.transaction((tx) => chargeCredits(tx, user.id, 2, `req_once_${user.id}`));
      await assert.rejects(t.services.db.transaction((tx) => chargeCredits(tx, user.id, 2, `req_once_${user.id}`)));
      const [row] = await t.services.db.query<{ credit_balance: number }>('SELECT credit_balance FROM accounts WHERE id = $1', [user.id]);
      assert.equal(row!.credit_balance, 3, 'the failed duplicate rolled back entirely');
      await assert.rejects(t.services.db.transaction((tx) => grantCredits(tx, user.id, 0, null)), /positive/);
      await assert.rejects(t.services.db.transaction((tx) => grantCredits(tx, user.id, -5, null)), /positive/);
    });

    it('shows balance, limits and ledger through the API', async () => {
      const user = await createUser(t, 42);
      const account = await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) });
      assert.equal(account.statusCode, 200);
      const body = account.json();
      assert.equal(body.email, user.email);
      assert.equal(body.credits.balance, 42);
      assert.deepEqual(body.rateLimits, { perMinute: 60, perHour: 1000, perDay: 10000 });
      assert.deepEqual(body.usage, { minute: 0, hour: 0, day: 0, totalRequests: 0, totalCreditsCharged: 0 });
      const ledger = await t.app.inject({ method: 'GET', url: '/accounts/ledger?limit=5', headers: bearer(user.key) });
      assert.equal(ledger.statusCode, 200);
      assert.equal(ledger.json().entries.length, 1);
      assert.equal(ledger.json().entries[0].kind, 'grant');
      assert.equal(ledger.json().entries[0].amount, 42);
      assert.equal(ledger.json().entries[0].balanceAfter, 42);
      const usage = await t.app.inject({ method: 'GET', url: '/accounts/usage?days=7', headers: bearer(user.key) });
      assert.equal(usage.json().days.length, 7);
      assert.equal(usage.json().days.at(-1).date, new Date().toISOString().slice(0, 10));
      assert.equal((await t.app.inject({ method: 'GET', url: '/accounts/ledger?limit=0', headers: bearer(user.key) })).statusCode, 400);
      assert.equal((await t.app.inject({ method: 'GET', url: '/accounts/usage?days=abc', headers: bearer(user.key) })).statusCode, 400);
    });
  });
}
