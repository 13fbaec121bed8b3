import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../src/infra/db/migrate.ts';
import { ownLockStatus, runDoctor } from '../src/domain/operators/doctor.ts';
import { STORAGE_MODES, createUser, bearer, skipWithout } from './helpers/test-app.ts';
import { useHarness } from './helpers/harness.ts';
import { chargeCredits, grantCredits } from '../src/domain/credits/ledger.ts';
import { createSettlementBatcher, type Settlement } from '../src/domain/requests/charge-and-record.ts';
import { releaseAllExpiredReservations, reserveCredits } from '../src/domain/credits/reservations.ts';

let serial = 0;
function settlement(accountId: string, credits: number): Settlement {
  const id = `req_batch${process.pid}x${++serial}`;
  return {
    request: {
      id,
      accountId,
      apiKeyId: null,
      channelUrl: 'https://www.youtube.com/@fake-1',
      oldestDate: null,
      limit: null,
      webhookUrl: null,
    },
    credits,
    outcome: {
      status: 'completed',
      httpStatus: 200,
      itemCount: credits * 50,
      creditsCharged: credits,
      errorCode: null,
      result: { summary: true },
      quotaUnits: 0,
    },
  };
}

for (const mode of STORAGE_MODES) {
  describe(`credits ledger (${mode})`, { skip: skipWithout(mode) }, () => {
    const t = useHarness({ mode, fake: false });

    it('never overdraws under many concurrent charges, and the ledger explains the balance', async () => {
      const user = await createUser(t, 10);
      const attempts = Array.from({ length: 60 }, (_, i) =>
        t.services.db
          .transaction((tx) => chargeCredits(tx, user.id, 1, `req_concurrent_${user.id}_${i}`))
          .then(
            () => 'ok',
            (e: Error & { code?: string }) => e.code ?? e.message,
          ),
      );
      const outcomes = await Promise.all(attempts);
      assert.equal(outcomes.filter((o) => o === 'ok').length, 10);
      assert.ok(outcomes.filter((o) => o !== 'ok').every((o) => o === 'INSUFFICIENT_CREDITS'));
      const [account] = await t.services.db.query<{ credit_balance: number }>(
        'SELECT credit_balance FROM accounts WHERE id = $1',
        [user.id],
      );
      assert.equal(account!.credit_balance, 0);
      const [sum] = await t.services.db.query<{ total: number }>(
        'SELECT coalesce(sum(amount), 0)::int AS total FROM credit_ledger WHERE account_id = $1',
        [user.id],
      );
      assert.equal(sum!.total, 0, 'grants minus charges equals the balance');
    });

    it('group-committed settlements: exact across accounts and two racing batchers, refused ones retried one by one', async () => {
      const a = await createUser(t, 30);
      const b = await createUser(t, 7);
      // Two batchers on one database stand for two API instances.
      const batchErrors: unknown[] = [];
      const options = { maxBatch: 16, onBatchError: (error: unknown) => batchErrors.push(error) };
      const first = createSettlementBatcher(t.services.db, options);
      const second = createSettlementBatcher(t.services.db, options);
      const work = Array.from({ length: 80 }, (_, i) => {
        const s = settlement(i % 2 ? a.id : b.id, 1 + (i % 3));
        return (i % 4 < 2 ? first : second).settle(s).then(
          () => s,
          (e: Error & { code?: string }) => e.code ?? e.message,
        );
      });
      const outcomes = await Promise.all(work);
      assert.deepEqual(batchErrors, [], 'the batch statement itself never failed');
      const settled = outcomes.filter((o): o is Settlement => typeof o !== 'string');
      assert.ok(
        outcomes.filter((o) => typeof o === 'string').every((o) => o === 'INSUFFICIENT_CREDITS'),
        String(outcomes.filter((o) => typeof o === 'string')),
      );
      for (const [user, granted] of [
        [a, 30],
        [b, 7],
      ] as const) {
        const spent = settled.filter((s) => s.request.accountId === user.id).reduce((sum, s) => sum + s.credits, 0);
        const [row] = await t.services.db.query<{ credit_balance: number; charges: number; recorded: number }>(
          `SELECT credit_balance,
                  (SELECT coalesce(-sum(amount), 0)::int FROM credit_ledger WHERE account_id = $1 AND kind = 'charge') AS charges,
                  (SELECT count(*)::int FROM shorts_requests WHERE account_id = $1) AS recorded
           FROM accounts WHERE id = $1`,
          [user.id],
        );
        assert.equal(row!.charges, spent, 'the ledger holds exactly the accepted charges');
        assert.equal(row!.credit_balance, granted - spent);
        assert.equal(
          row!.recorded,
          settled.filter((s) => s.request.accountId === user.id).length,
          'a request is recorded exactly when charged',
        );
        // Every refused request really could not be paid: at most 2 credits (the dearest refused
        // one costs ≤ 3) can be left over.
        assert.ok(row!.credit_balance <= 2, `balance ${row!.credit_balance} left although requests were refused`);
      }
    });

    it("one account's group is charged whole by one statement, or by the general one when its credits cover only a run of it", async () => {
      const user = await createUser(t, 10);
      const statements: string[] = [];
      // The batcher's database, counting what it is asked to run.
      const db = new Proxy(t.services.db, {
        get: (target, name) => {
          if (name !== 'query') return Reflect.get(target, name);
          return (sql: string, params?: unknown[]) => {
            statements.push(sql);
            return target.query(sql, params);
          };
        },
      });
      const batcher = createSettlementBatcher(db);
      const ledger = async () =>
        (
          await t.services.db.query<{ amount: number; balance_after: number }>(
            `SELECT amount, balance_after FROM credit_ledger WHERE account_id = $1 AND kind = 'charge' ORDER BY id`,
            [user.id],
          )
        ).map((r) => [r.amount, r.balance_after]);

      // Covered whole: one statement, each member with the balance after its own charge, in order.
      const whole = [1, 2, 0, 3].map((credits) => batcher.settle(settlement(user.id, credits)));
      assert.deepEqual(await Promise.all(whole), [9, 7, 7, 4]);
      assert.equal(statements.length, 1, statements.join('\n---\n'));
      assert.match(statements[0]!, /run int/, 'the one-account form');
      assert.deepEqual(
        await ledger(),
        [
          [-1, 9],
          [-2, 7],
          [-3, 4],
        ],
        'no entry for the free member',
      );

      // 4 left; 1 + 2 + 6 is not covered: the general statement charges the run 1 + 2 that is, and 6 is refused on its own.
      statements.length = 0;
      const partly = await Promise.allSettled([1, 2, 6].map((credits) => batcher.settle(settlement(user.id, credits))));
      assert.deepEqual(partly.slice(0, 2), [
        { status: 'fulfilled', value: 3 },
        { status: 'fulfilled', value: 1 },
      ]);
      assert.equal(partly[2]!.status, 'rejected');
      assert.match(String((partly[2] as PromiseRejectedResult).reason.message), /costs 6 credits; the balance is 1/);
      assert.deepEqual(
        statements
          .map((sql) => (/run int/.test(sql) ? 'account' : /jsonb_to_recordset/.test(sql) ? 'general' : 'other'))
          .slice(0, 2),
        ['account', 'general'],
      );
      assert.deepEqual((await ledger()).slice(3), [
        [-1, 3],
        [-2, 1],
      ]);
      const [row] = await t.services.db.query<{ credit_balance: number; recorded: number }>(
        'SELECT credit_balance, (SELECT count(*)::int FROM shorts_requests WHERE account_id = $1) AS recorded FROM accounts WHERE id = $1',
        [user.id],
      );
      assert.deepEqual(
        { ...row },
        { credit_balance: 1, recorded: 6 },
        'a request is recorded exactly when charged (free ones too)',
      );
    });

    it("holds that outlived their request are released by the worker's sweep, so a charge that reserves nothing is not refused behind them", async () => {
      const user = await createUser(t, 5);
      const db = t.services.db;
      const now = Date.now();
      // A synchronous request's hold whose process died, lapsed; and a live one of another account's request.
      assert.ok(
        await reserveCredits(db, {
          accountId: user.id,
          requestId: `req_dead${user.id.slice(0, 8)}`,
          credits: 4,
          expiresAt: new Date(now - 60_000),
          now: new Date(now),
        }),
      );
      const other = await createUser(t, 5);
      assert.ok(
        await reserveCredits(db, {
          accountId: other.id,
          requestId: `req_live${other.id.slice(0, 8)}`,
          credits: 2,
          expiresAt: new Date(now + 60_000),
          now: new Date(now),
        }),
      );
      // A cached answer's charge reserves nothing: refused behind the dead hold.
      await assert.rejects(
        db.transaction((tx) => chargeCredits(tx, user.id, 3, `req_c1${user.id.slice(0, 8)}`)),
        /of which 4 are held/,
      );
      assert.equal(await releaseAllExpiredReservations(db, new Date(now)), 4);
      assert.equal(await db.transaction((tx) => chargeCredits(tx, user.id, 3, `req_c2${user.id.slice(0, 8)}`)), 2);
      const reserved = async (id: string) =>
        (await db.query<{ credits_reserved: number }>('SELECT credits_reserved FROM accounts WHERE id = $1', [id]))[0]!
          .credits_reserved;
      assert.equal(await reserved(user.id), 0);
      assert.equal(await reserved(other.id), 2, 'a live hold stays');
      assert.equal(await releaseAllExpiredReservations(db, new Date(now)), 0);
    });

    it("a request extending its own lapsed hold keeps it: only other requests' lapsed holds are released to make room", async () => {
      const user = await createUser(t, 3);
      const db = t.services.db;
      const now = new Date();
      const lapsed = new Date(now.getTime() - 60_000);
      const later = new Date(now.getTime() + 3600_000);
      const [own, dead, live] = ['own', 'dead', 'live'].map((name) => `req_${name}${user.id.slice(0, 8)}`) as [
        string,
        string,
        string,
      ];
      await reserveCredits(db, { accountId: user.id, requestId: own, credits: 1, expiresAt: lapsed, now });
      await reserveCredits(db, { accountId: user.id, requestId: dead, credits: 1, expiresAt: lapsed, now });
      await reserveCredits(db, { accountId: user.id, requestId: live, credits: 1, expiresAt: later, now });
      // Nothing available: the extension makes room by releasing the dead request's hold, not its own.
      assert.ok(await reserveCredits(db, { accountId: user.id, requestId: own, credits: 1, expiresAt: later, now }));
      const holds = await db.query<{ request_id: string; credits: number }>(
        'SELECT request_id, credits FROM credit_reservations WHERE account_id = $1 ORDER BY credits DESC, request_id',
        [user.id],
      );
      assert.deepEqual(
        holds.map((h) => [h.request_id, h.credits]),
        [
          [own, 2],
          [live, 1],
        ],
      );
      const [account] = await db.query<{ credits_reserved: number }>(
        'SELECT credits_reserved FROM accounts WHERE id = $1',
        [user.id],
      );
      assert.equal(account!.credits_reserved, 3, 'what the account holds is what its holds say');
    });

    it('a cheap request behind an unaffordable one in the same batch is still charged', async () => {
      const user = await createUser(t, 5);
      const batcher = createSettlementBatcher(t.services.db);
      const [dear, cheap] = await Promise.allSettled([
        batcher.settle(settlement(user.id, 9)),
        batcher.settle(settlement(user.id, 4)),
      ]);
      assert.equal(dear.status, 'rejected');
      assert.match(String((dear as PromiseRejectedResult).reason.message), /costs 9 credits; the balance is 5/);
      assert.deepEqual(cheap, { status: 'fulfilled', value: 1 });
    });

    it('refuses, in the database itself, any change that would leave reserved credits above the balance', async () => {
      // The last line of defence behind the charging SQL (migration 010), as the CHECK on the balance is for overdraws.
      const user = await createUser(t, 5);
      const [ok] = await t.services.db.query<{ credits_reserved: number }>(
        'UPDATE accounts SET credits_reserved = 5 WHERE id = $1 RETURNING credits_reserved',
        [user.id],
      );
      assert.equal(ok!.credits_reserved, 5, 'up to the balance');
      await assert.rejects(
        t.services.db.query('UPDATE accounts SET credits_reserved = 6 WHERE id = $1', [user.id]),
        (e: Error & { code?: string; constraint?: string }) =>
          e.code === '23514' && e.constraint === 'accounts_reserved_within_balance',
      );
      await assert.rejects(
        t.services.db.query('UPDATE accounts SET credit_balance = 4 WHERE id = $1', [user.id]),
        (e: Error & { code?: string }) => e.code === '23514',
        'nor may the balance fall below what is reserved',
      );
      await t.services.db.query('UPDATE accounts SET credits_reserved = 0 WHERE id = $1', [user.id]);
    });

    it('migrates a database where an account already breaks that rule: the check holds for every later change, and doctor names the account', async (ctx) => {
      const db = t.services.db;
      const user = await createUser(t, 5);
      ctx.after(async () => {
        await db.query('UPDATE accounts SET credits_reserved = 0 WHERE id = $1', [user.id]);
        await db.query('ALTER TABLE accounts VALIDATE CONSTRAINT accounts_reserved_within_balance');
      });
      // As if 010 had not run yet, on data that breaks it.
      await db.query('ALTER TABLE accounts DROP CONSTRAINT accounts_reserved_within_balance');
      await db.query('UPDATE accounts SET credits_reserved = 7 WHERE id = $1', [user.id]);
      await db.query(`DELETE FROM schema_migrations WHERE name = '010_reserved_within_balance.sql'`);
      assert.deepEqual(
        await migrate(db),
        ['010_reserved_within_balance.sql'],
        'the migration does not stop the service',
      );
      const [constraint] = await db.query<{ convalidated: boolean }>(
        `SELECT convalidated FROM pg_constraint WHERE conname = 'accounts_reserved_within_balance'`,
      );
      assert.deepEqual(constraint, { convalidated: false });
      await assert.rejects(
        db.query('UPDATE accounts SET credit_balance = 6 WHERE id = $1', [user.id]),
        (e: Error & { code?: string }) => e.code === '23514',
      );
      const report = await runDoctor(db, { lock: ownLockStatus(db) });
      const finding = report.findings.find((f) => f.check === 'reserved credits = reservations')!;
      assert.equal(finding.severity, 'breach');
      assert.ok(
        finding.details.includes(`${user.email}: reserved 7, reservations hold 0, balance 5`),
        JSON.stringify(finding),
      );
    });

    it('charges a request at most once (retried worker) and rejects non-positive grants', async () => {
      const user = await createUser(t, 5);
      await t.services.db.transaction((tx) => chargeCredits(tx, user.id, 2, `req_once_${user.id}`));
      await assert.rejects(t.services.db.transaction((tx) => chargeCredits(tx, user.id, 2, `req_once_${user.id}`)));
      const [row] = await t.services.db.query<{ credit_balance: number }>(
        'SELECT credit_balance FROM accounts WHERE id = $1',
        [user.id],
      );
      assert.equal(row!.credit_balance, 3, 'the failed duplicate rolled back entirely');
      await assert.rejects(
        t.services.db.transaction((tx) => grantCredits(tx, user.id, 0, null)),
        /positive/,
      );
      await assert.rejects(
        t.services.db.transaction((tx) => grantCredits(tx, user.id, -5, null)),
        /positive/,
      );
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
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/accounts/ledger?limit=0', headers: bearer(user.key) })).statusCode,
        400,
      );
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/accounts/usage?days=abc', headers: bearer(user.key) })).statusCode,
        400,
      );
    });

    it('an account cannot be deleted, so no ledger entry or request record can name a missing one (they have no foreign key)', async () => {
      const user = await createUser(t, 5);
      await t.services.db.transaction((tx) => chargeCredits(tx, user.id, 1, `req_undeletable_${user.id}`));
      await assert.rejects(
        t.services.db.query('DELETE FROM accounts WHERE id = $1', [user.id]),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, '23001');
          assert.match(error.message, /accounts are never deleted/);
          return true;
        },
      );
      await assert.rejects(t.services.db.query('TRUNCATE accounts CASCADE'), /accounts are never deleted/);
      const [left] = await t.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts WHERE id = $1', [
        user.id,
      ]);
      assert.equal(left!.n, 1);
      const [entries] = await t.services.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM credit_ledger l JOIN accounts a ON a.id = l.account_id WHERE l.account_id = $1',
        [user.id],
      );
      assert.equal(entries!.n, 2, 'the grant and the charge, both naming the account');
    });
  });
}
