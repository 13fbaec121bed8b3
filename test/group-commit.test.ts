// Group commit of webhook acceptances and of queued settlements: a group decides exactly
// what the one-by-one path would have; and the keyed form the PostgreSQL rate limiter uses.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { STORAGE_MODES, createUser, untilLockWaiters, type TestApp, skipWithout } from './helpers/test-app.ts';
import { useHarness } from './helpers/harness.ts';
import { createAcceptanceBatcher } from '../src/domain/requests/acceptances.ts';
import type { NewRequest, Outcome } from '../src/domain/requests/request-store.ts';
import { createQueuedSettlementBatcher } from '../src/domain/requests/queued-settlements.ts';
import { chargeAndRecord, createSettlementBatcher } from '../src/domain/requests/charge-and-record.ts';
import { keyedGroupCommit } from '../src/infra/db/group-commit.ts';
import { createAttemptRecorder } from '../src/domain/webhooks/delivery-log.ts';
import { settleQueuedAlone } from '../src/domain/requests/shorts-requests.ts';
import type { Database, DeferredJob, Queryable, Transaction } from '../src/infra/db/database.ts';
import { createQueuedRequestReader, findRequest, settleRequest } from '../src/domain/requests/request-store.ts';
import { releaseReservation, reserveCredits } from '../src/domain/credits/reservations.ts';
import { deductCredits } from '../src/domain/credits/ledger.ts';
import { createRequestAttemptReader } from '../src/jobs/webhook-delivery-job.ts';

let serial = 0;
function webhookRequest(accountId: string): NewRequest {
  return {
    id: `req_group${process.pid}x${++serial}`,
    accountId,
    apiKeyId: null,
    channelUrl: 'https://www.youtube.com/@fake-1',
    oldestDate: null,
    limit: 20,
    freshness: null,
    webhookUrl: 'https://hooks.example.com/shorts',
    options: { sort: 'popular' },
  };
}

/** A fixed pseudo-random series (mulberry32): `next(n)` is an integer in [0, n), the same on every run. */
function seeded(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) % n;
  };
}

/** An account with `credits` and two webhook requests accepted for it (credits reserved, fetch jobs queued). */
async function acceptedPair(
  t: TestApp,
  credits: number,
): Promise<{ user: Awaited<ReturnType<typeof createUser>>; requests: [NewRequest, NewRequest] }> {
  const user = await createUser(t, credits);
  const accept = createAcceptanceBatcher(t.services.shortsRequests, {
    enqueueFetches: (tx, ids) => t.services.jobs.enqueueShortsFetches(tx, ids),
  });
  const requests: [NewRequest, NewRequest] = [webhookRequest(user.id), webhookRequest(user.id)];
  await Promise.all(requests.map((request) => accept.accept(request)));
  return { user, requests };
}

describe('keyed group commit', () => {
  it("groups each key's items that arrive while its group is written, keys side by side; a failed group fails its own members", async () => {
    const written: string[] = [];
    let release!: () => void;
    const firstHeld = new Promise<void>((resolve) => (release = resolve));
    const submit = keyedGroupCommit<number, string>(3, async (key, members) => {
      written.push(`${key}:${members.map((m) => m.item).join(',')}`);
      if (key === 'a' && members[0]!.item === 1) await firstHeld;
      if (key === 'bad') throw new Error('refused');
      for (const m of members) m.resolve(`${key}${m.item}`);
    });
    const first = [submit('a', 1), submit('b', 1)];
    await new Promise((resolve) => setImmediate(resolve));
    // While a's first group is held, a's next items queue (at most 3 per group) and b goes on.
    const queued = [2, 3, 4, 5].map((n) => submit('a', n));
    assert.equal(await first[1], 'b1');
    release();
    assert.deepEqual(await Promise.all([first[0]!, ...queued]), ['a1', 'a2', 'a3', 'a4', 'a5']);
    await assert.rejects(submit('bad', 1), /refused/);
    assert.equal(await submit('a', 6), 'a6', 'a key used again after its queue emptied starts a new one');
    assert.deepEqual(written, ['a:1', 'b:1', 'a:2,3,4', 'a:5', 'bad:1', 'a:6']);
  });
});

for (const mode of STORAGE_MODES) {
  describe(`group commit (${mode})`, { skip: skipWithout(mode) }, () => {
    const t = useHarness({ mode, fake: false });

    it('accepts in groups exactly what the available credits cover, across accounts and two racing instances', async () => {
      const a = await createUser(t, 13);
      const b = await createUser(t, 4);
      const groupSizes: number[] = [];
      const groupErrors: unknown[] = [];
      // Two batchers on one database stand for two API instances.
      const batcher = () =>
        createAcceptanceBatcher(t.services.shortsRequests, {
          maxGroup: 16,
          enqueueFetches: (tx, ids) => {
            groupSizes.push(ids.length);
            return t.services.jobs.enqueueShortsFetches(tx, ids);
          },
          onGroupError: (error) => groupErrors.push(error),
        });
      const [first, second] = [batcher(), batcher()];
      // An invalid request is refused on its own (a rejected promise, nothing recorded), not in a group.
      const invalid = { ...webhookRequest(a.id), limit: 0 };
      await assert.rejects(
        first.accept(invalid),
        (e: Error & { code?: string }) =>
          e.code === 'VALIDATION_FAILED' && /limit must be an integer from 1/.test(e.message),
      );
      assert.deepEqual(await t.services.db.query('SELECT id FROM shorts_requests WHERE id = $1', [invalid.id]), []);
      const requests = Array.from({ length: 60 }, (_, i) => webhookRequest(i % 3 === 0 ? b.id : a.id));
      const outcomes = await Promise.all(
        requests.map((request, i) =>
          (i % 2 ? first : second).accept(request).then(
            () => 'accepted',
            (e: Error & { code?: string }) => `${e.code}: ${e.message}`,
          ),
        ),
      );
      assert.deepEqual(groupErrors, [], 'the group statement never failed');
      assert.ok(Math.max(...groupSizes) > 1, `requests were accepted in groups (${groupSizes.join(', ')})`);
      const refused = outcomes.filter((o) => o !== 'accepted');
      assert.ok(
        refused.every((o) =>
          /^INSUFFICIENT_CREDITS: A request costs at least 1 credit, reserved when it is accepted; 0 available/.test(o),
        ),
        refused.join('\n'),
      );
      for (const [user, credits] of [
        [a, 13],
        [b, 4],
      ] as const) {
        const mine = requests
          .map((r, i) => ({ r, accepted: outcomes[i] === 'accepted' }))
          .filter(({ r }) => r.accountId === user.id);
        const accepted = mine.filter((m) => m.accepted).map((m) => m.r.id);
        assert.equal(accepted.length, credits, 'exactly as many accepted as the credits reserve');
        const [account] = await t.services.db.query<{ credits_reserved: number; credit_balance: number }>(
          'SELECT credits_reserved, credit_balance FROM accounts WHERE id = $1',
          [user.id],
        );
        assert.deepEqual(account, { credits_reserved: credits, credit_balance: credits }, 'reserved, not charged');
        const rows = await t.services.db.query<{
          id: string;
          status: string;
          mode: string;
          item_limit: number;
          options: unknown;
          webhook_url: string;
          held: number | null;
        }>(
          `SELECT r.id, r.status, r.mode, r.item_limit, r.options, r.webhook_url, c.credits AS held
           FROM shorts_requests r LEFT JOIN credit_reservations c ON c.request_id = r.id WHERE r.account_id = $1 ORDER BY r.id`,
          [user.id],
        );
        assert.deepEqual(
          rows.map((row) => row.id),
          [...accepted].sort(),
          'a request is recorded exactly when accepted',
        );
        for (const row of rows) {
          assert.deepEqual(
            {
              status: row.status,
              mode: row.mode,
              limit: row.item_limit,
              options: row.options,
              webhookUrl: row.webhook_url,
              held: row.held,
            },
            {
              status: 'processing',
              mode: 'webhook',
              limit: 20,
              options: { sort: 'popular' },
              webhookUrl: 'https://hooks.example.com/shorts',
              held: 1,
            },
          );
        }
        const jobs = await t.services.db.query<{ request_id: string }>(
          `SELECT data->>'requestId' AS request_id FROM pgboss.job WHERE name = 'shorts-fetch' AND data->>'requestId' = ANY($1::text[])`,
          [mine.map((m) => m.r.id)],
        );
        assert.deepEqual(
          jobs.map((j) => j.request_id).sort(),
          [...accepted].sort(),
          'one fetch job per accepted request, none for a refused one',
        );
      }
    });

    for (const path of ['one statement', 'a transaction with afterSettle'] as const) {
      it(`settles queued requests in groups exactly as one by one (${path}): charges what the credits cover, the rest fail with the exact 402`, async () => {
        const a = await createUser(t, 10);
        const b = await createUser(t, 3);
        const accept = createAcceptanceBatcher(t.services.shortsRequests, {
          enqueueFetches: (tx, ids) => t.services.jobs.enqueueShortsFetches(tx, ids),
        });
        // a: six requests at 2 credits (12 > 10) and one that failed upstream; b: three at 1 credit.
        const plan = [
          ...Array.from({ length: 6 }, () => ({ request: webhookRequest(a.id), credits: 2, failed: false })),
          { request: webhookRequest(a.id), credits: 0, failed: true },
          ...Array.from({ length: 3 }, () => ({ request: webhookRequest(b.id), credits: 1, failed: false })),
        ];
        await Promise.all(plan.map((p) => accept.accept(p.request)));
        const insertedJobs: DeferredJob[][] = [];
        const aloneQueued: string[] = [];
        const groupErrors: unknown[] = [];
        // The statements the batcher sends (a transaction's own go through its tx).
        const statements: string[] = [];
        const real = t.services.db;
        const db: Database = {
          kind: real.kind,
          ping: () => real.ping(),
          close: () => real.close(),
          query: (sql, params) => {
            statements.push(sql);
            return real.query(sql, params);
          },
          transaction: (work) => {
            statements.push('BEGIN');
            return real.transaction(work);
          },
        };
        const batcher = createQueuedSettlementBatcher(db, {
          insertJobs: async (_tx, jobs) => void insertedJobs.push(jobs),
          onGroupError: (error) => groupErrors.push(error),
        });
        const afterSettle =
          path === 'one statement'
            ? undefined
            : async (tx: Transaction, request: NewRequest) => {
                if (tx.deferJob) tx.deferJob({ queue: 'webhook-delivery', data: { requestId: request.id } });
                else aloneQueued.push(request.id);
              };
        const settle = ({ request, credits, failed }: (typeof plan)[number]) => {
          const outcome: Outcome = failed
            ? {
                status: 'failed',
                httpStatus: 404,
                itemCount: null,
                creditsCharged: 0,
                errorCode: 'CHANNEL_NOT_FOUND',
                result: { success: false },
                quotaUnits: 1,
              }
            : {
                status: 'completed',
                httpStatus: 200,
                itemCount: credits * 50,
                creditsCharged: credits,
                errorCode: null,
                result: { success: true, requestId: request.id },
                quotaUnits: 2,
              };
          const settlement = { request, credits, outcome, afterSettle, quotaUnits: outcome.quotaUnits };
          return batcher.settle({ ...settlement, alone: () => settleQueuedAlone(db, settlement) });
        };
        const results = await Promise.all(plan.map(settle));
        assert.deepEqual(groupErrors, []);
        assert.ok(
          results.every((r) => r.changed),
          'every request settled once',
        );
        // What a settled member's first attempt sends is what the delivery's own read returns.
        const read = createRequestAttemptReader(t.services.db);
        for (const [i, result] of results.entries()) {
          if (!result.settledRow) continue;
          const {
            id,
            account_id,
            webhook_url,
            status,
            result: body,
            created_at,
            completed_at,
            options,
            secrets,
            destination_paused,
          } = (await read({ requestId: plan[i]!.request.id, attempt: 1 }))!;
          assert.deepEqual(
            result.settledRow,
            {
              id,
              account_id,
              webhook_url,
              status,
              result: body,
              created_at,
              completed_at,
              options,
              secrets,
              destination_paused,
            },
            `member ${i}: as the delivery reads it`,
          );
        }
        // a: 10 credits, 7 reserved (3 free). In order, its k-th 2-credit request may spend the free 3, the
        // failed one's reservation and the reservations of the first k: 2k ≤ 4 + k, so four fit in the
        // group; the fifth would need the sixth's reserved credit, so from the fifth on they go alone, in
        // order: the fifth is refused (2 credits, 1 of them held by the sixth), the sixth is charged.
        assert.equal(
          results.filter((r) => r.settledRow).length,
          8,
          "every member the group settled: a's first four and its failed one, b's three",
        );
        const rows = await t.services.db.query<{
          id: string;
          account_id: string;
          status: string;
          credits_charged: number;
          error_code: string | null;
          result: { success: boolean; message?: string };
        }>(
          'SELECT id, account_id, status, credits_charged, error_code, result FROM shorts_requests WHERE id = ANY($1::text[])',
          [plan.map((p) => p.request.id)],
        );
        const ofA = rows.filter((r) => r.account_id === a.id);
        assert.equal(
          ofA.filter((r) => r.status === 'completed').length,
          5,
          'five of the 2-credit requests fit in 10 credits',
        );
        const refused = ofA.filter((r) => r.error_code === 'INSUFFICIENT_CREDITS');
        assert.equal(refused.length, 1);
        assert.equal(refused[0]!.id, plan[4]!.request.id, 'the fifth, in order');
        assert.match(
          String(refused[0]!.result.message),
          /costs 2 credits; the balance is 2, of which 1 are held by requests in progress/,
        );
        assert.equal(
          ofA.filter((r) => r.error_code === 'CHANNEL_NOT_FOUND').length,
          1,
          'the failure is recorded as it came',
        );
        assert.ok(
          rows.filter((r) => r.account_id === b.id).every((r) => r.status === 'completed' && r.credits_charged === 1),
        );
        for (const [user, spent] of [
          [a, 10],
          [b, 3],
        ] as const) {
          const [account] = await t.services.db.query<{
            credit_balance: number;
            credits_reserved: number;
            charges: number;
            held: number;
          }>(
            `SELECT credit_balance, credits_reserved,
                  (SELECT coalesce(-sum(amount), 0)::int FROM credit_ledger WHERE account_id = $1 AND kind = 'charge') AS charges,
                  (SELECT count(*)::int FROM credit_reservations WHERE account_id = $1) AS held
           FROM accounts WHERE id = $1`,
            [user.id],
          );
          assert.deepEqual(
            account,
            { credit_balance: (user === a ? 10 : 3) - spent, credits_reserved: 0, charges: spent, held: 0 },
            'the ledger explains the balance; every reservation released',
          );
        }
        if (afterSettle) {
          const queued = [
            ...insertedJobs.flat().map((j) => (j.data as { requestId: string }).requestId),
            ...aloneQueued,
          ].sort();
          assert.deepEqual(queued, plan.map((p) => p.request.id).sort(), 'afterSettle ran once per settled request');
          assert.ok(
            insertedJobs.some((jobs) => jobs.length > 1),
            'the jobs a group queued are inserted by one insert',
          );
          assert.deepEqual(
            aloneQueued,
            [plan[4]!.request.id, plan[5]!.request.id],
            'only the fifth (refused) and the sixth took the one-by-one path, in order',
          );
        } else {
          assert.deepEqual(insertedJobs, [], 'nothing queued without afterSettle');
          // Eight settle in one group, then the fifth and sixth alone. On PostgreSQL the group (two
          // accounts) is a transaction: a statement locks its accounts in id order first (ledger.ts withAccountsLocked).
          if (mode === 'pglite') {
            assert.deepEqual(statements.filter((sql) => sql !== 'BEGIN').length, 1, 'the group is one statement');
            assert.deepEqual(
              statements.filter((sql) => sql === 'BEGIN').length,
              2,
              'only the two the group could not take used a transaction each (alone)',
            );
          } else {
            assert.deepEqual(statements, ['BEGIN', 'BEGIN', 'BEGIN'], 'the group, then the fifth and the sixth alone');
          }
        }

        // Settled already (a retried job): neither charged again nor queued again.
        const again = await Promise.all(plan.slice(7).map(settle));
        assert.ok(again.every((r) => !r.changed));
        assert.deepEqual(groupErrors, []);
        const [bAfter] = await t.services.db.query<{ credit_balance: number }>(
          'SELECT credit_balance FROM accounts WHERE id = $1',
          [b.id],
        );
        assert.equal(bAfter!.credit_balance, 0);
      });
    }

    it('settles a request once when it is twice in a group or already settled: charged only if recorded as completed', async () => {
      const {
        user,
        requests: [twice, other],
      } = await acceptedPair(t, 10);
      const batcher = createQueuedSettlementBatcher(t.services.db, { insertJobs: async () => {} });
      const failed: Outcome = {
        status: 'failed',
        httpStatus: 404,
        itemCount: null,
        creditsCharged: 0,
        errorCode: 'CHANNEL_NOT_FOUND',
        result: { success: false },
        quotaUnits: 1,
      };
      const completed: Outcome = {
        status: 'completed',
        httpStatus: 200,
        itemCount: 50,
        creditsCharged: 2,
        errorCode: null,
        result: { success: true },
        quotaUnits: 2,
      };
      const settle = (request: NewRequest, outcome: Outcome) => {
        const settlement = {
          request,
          credits: outcome.status === 'completed' ? 2 : 0,
          outcome,
          quotaUnits: outcome.quotaUnits,
        };
        return batcher.settle({ ...settlement, alone: () => settleQueuedAlone(t.services.db, settlement) });
      };
      // Two runs of one request's job finish together (one completed, one failed), with another request.
      const [first, second] = await Promise.all([
        settle(twice, completed),
        settle(twice, failed),
        settle(other, completed),
      ]);
      assert.deepEqual([first.changed, second.changed], [true, false], 'settled once: the first in the group');
      assert.ok(first.settledRow && !second.settledRow, 'only the one that settled it sends the first attempt');
      // Settled already: alone, it charges nothing either.
      assert.equal(
        (await settleQueuedAlone(t.services.db, { request: other, credits: 2, outcome: completed, quotaUnits: 2 }))
          .changed,
        false,
      );
      const rows = await t.services.db.query<{ id: string; status: string; charges: number }>(
        `SELECT id, status, (SELECT count(*)::int FROM credit_ledger l WHERE l.request_id = r.id AND kind = 'charge') AS charges FROM shorts_requests r WHERE id = ANY($1::text[]) ORDER BY id`,
        [[twice.id, other.id]],
      );
      for (const row of rows)
        assert.deepEqual({ status: row.status, charges: row.charges }, { status: 'completed', charges: 1 }, row.id);
      const [account] = await t.services.db.query<{ credit_balance: number; credits_reserved: number }>(
        'SELECT credit_balance, credits_reserved FROM accounts WHERE id = $1',
        [user.id],
      );
      assert.deepEqual(account, { credit_balance: 6, credits_reserved: 0 });
    });

    /** Settles queued requests through one group batcher; each member's one-by-one path is settleQueuedAlone. */
    const queuedSettler = () => {
      const batcher = createQueuedSettlementBatcher(t.services.db, { insertJobs: async () => {} });
      return (request: NewRequest, credits: number, failed = false) => {
        const outcome: Outcome = failed
          ? {
              status: 'failed',
              httpStatus: 404,
              itemCount: null,
              creditsCharged: 0,
              errorCode: 'CHANNEL_NOT_FOUND',
              result: { success: false },
              quotaUnits: 1,
            }
          : {
              status: 'completed',
              httpStatus: 200,
              itemCount: credits * 50,
              creditsCharged: credits,
              errorCode: null,
              result: { success: true },
              quotaUnits: 2,
            };
        const one = { request, credits, outcome, quotaUnits: 2 };
        return batcher.settle({ ...one, alone: () => settleQueuedAlone(t.services.db, one) });
      };
    };

    it("lets no member of a group spend another member's reservation: a request its reservation covers is never refused for it", async () => {
      // 10 credits, two requests holding 1 each. Settled one by one in order, x (10 credits) can
      // spend what is free (8) and its own reservation: 9, so it fails with the exact 402; y's price
      // (1) is covered by its own reservation. A group that pooled the reservations charged x with
      // y's reserved credit and then refused y.
      const {
        user,
        requests: [x, y],
      } = await acceptedPair(t, 10);
      const settle = queuedSettler();
      const [ofX, ofY] = await Promise.all([settle(x, 10), settle(y, 1)]);
      assert.equal(ofX.final.status, 'failed');
      assert.equal(ofX.final.errorCode, 'INSUFFICIENT_CREDITS');
      assert.match(
        String((ofX.final.result as { message?: string }).message),
        /costs 10 credits; the balance is 10, of which 1 are held by requests in progress/,
      );
      assert.equal(ofY.final.status, 'completed');
      const [account] = await t.services.db.query<{ credit_balance: number; credits_reserved: number; held: number }>(
        'SELECT credit_balance, credits_reserved, (SELECT count(*)::int FROM credit_reservations WHERE account_id = $1) AS held FROM accounts WHERE id = $1',
        [user.id],
      );
      assert.deepEqual(account, { credit_balance: 9, credits_reserved: 0, held: 0 });
    });

    it('decides, for any mix of members, exactly what one by one decides: the uncharged first, then the rest in order', async () => {
      // Seeded pseudo-random groups, so a failure names a reproducible scenario: members
      // of two accounts, to charge (1-6 credits), free, failed or settled already (a retried job),
      // holding reservations of 0 (swept) to 4 credits (grown as the quota meter grows them). Each
      // group is settled by the batcher; a twin set-up is settled one by one with settleQueuedAlone,
      // the members not charged first, then the rest in order; the two must agree field by field.
      const next = seeded(20261126);
      const db = t.services.db;
      const accept = createAcceptanceBatcher(t.services.shortsRequests, {
        enqueueFetches: (tx, ids) => t.services.jobs.enqueueShortsFetches(tx, ids),
      });
      const batcher = createQueuedSettlementBatcher(db, { insertJobs: async () => {} });
      type Plan = { account: 0 | 1; price: number; kind: 'paid' | 'free' | 'failed' | 'settled'; reserved: number };
      const failed: Outcome = {
        status: 'failed',
        httpStatus: 404,
        itemCount: null,
        creditsCharged: 0,
        errorCode: 'CHANNEL_NOT_FOUND',
        result: { success: false },
        quotaUnits: 1,
      };
      const outcomeOf = (request: NewRequest, p: Plan): Outcome =>
        p.kind === 'failed'
          ? failed
          : {
              status: 'completed',
              httpStatus: 200,
              itemCount: p.price * 50 + 1,
              creditsCharged: p.price,
              errorCode: null,
              result: { success: true, requestId: request.id },
              quotaUnits: 2,
            };
      for (let scenario = 0; scenario < 30; scenario++) {
        const plan: Plan[] = Array.from({ length: 2 + next(7) }, () => {
          const r = next(10);
          const kind = r === 0 ? 'failed' : r === 1 ? 'free' : r === 2 ? 'settled' : 'paid';
          return {
            account: next(2) as 0 | 1,
            kind,
            price: kind === 'paid' || kind === 'settled' ? 1 + next(6) : 0,
            reserved: next(5),
          };
        });
        const spare = [next(6), next(6)];
        const setUp = async () => {
          const users: Array<Awaited<ReturnType<typeof createUser>>> = [];
          for (const a of [0, 1])
            users.push(
              await createUser(
                t,
                plan.filter((p) => p.account === a).reduce((sum, p) => sum + Math.max(1, p.reserved), 0) + spare[a]!,
              ),
            );
          const requests = plan.map((p) => webhookRequest(users[p.account]!.id));
          for (const [i, request] of requests.entries()) {
            await accept.accept(request);
            const p = plan[i]!;
            if (p.reserved === 0) await releaseReservation(db, request.id);
            else if (p.reserved > 1)
              assert.ok(
                await reserveCredits(db, {
                  accountId: request.accountId,
                  requestId: request.id,
                  credits: p.reserved - 1,
                  expiresAt: new Date(Date.now() + 3_600_000),
                  now: new Date(),
                }),
              );
            if (p.kind === 'settled') {
              await releaseReservation(db, request.id);
              await settleRequest(db, request.id, failed);
            }
          }
          return { users, requests };
        };
        const [grouped, reference] = [await setUp(), await setUp()];
        const settlement = (request: NewRequest, i: number) => ({
          request,
          credits: plan[i]!.price,
          outcome: outcomeOf(request, plan[i]!),
          quotaUnits: 2,
        });
        await Promise.all(
          grouped.requests.map((request, i) => {
            const one = settlement(request, i);
            return batcher.settle({ ...one, alone: () => settleQueuedAlone(db, one) });
          }),
        );
        const charging = (p: Plan) => p.kind === 'paid';
        const order = [...plan.keys()].sort((a, b) => Number(charging(plan[a]!)) - Number(charging(plan[b]!)) || a - b);
        for (const i of order) await settleQueuedAlone(db, settlement(reference.requests[i]!, i));
        const stateOf = async ({ users, requests }: typeof grouped) => {
          const rows = await db.query<{
            id: string;
            status: string;
            credits_charged: number;
            error_code: string | null;
            message: string | null;
          }>(
            `SELECT id, status, credits_charged, error_code, result->>'message' AS message FROM shorts_requests WHERE id = ANY($1::text[])`,
            [requests.map((x) => x.id)],
          );
          const accounts = [];
          for (const user of users) {
            const [account] = await db.query<{
              credit_balance: number;
              credits_reserved: number;
              held: number;
              charges: number;
            }>(
              `SELECT credit_balance, credits_reserved, (SELECT coalesce(sum(credits), 0)::int FROM credit_reservations WHERE account_id = $1) AS held,
                      (SELECT coalesce(-sum(amount), 0)::int FROM credit_ledger WHERE account_id = $1 AND kind = 'charge') AS charges
               FROM accounts WHERE id = $1`,
              [user.id],
            );
            assert.equal(
              account!.credits_reserved,
              account!.held,
              `scenario ${scenario}: credits_reserved is the sum of the reservations`,
            );
            accounts.push(account);
          }
          return {
            accounts,
            requests: requests.map((x) => {
              const { id: _id, ...rest } = rows.find((row) => row.id === x.id)!;
              return rest;
            }),
          };
        };
        assert.deepEqual(
          await stateOf(grouped),
          await stateOf(reference),
          `scenario ${scenario}: spare ${JSON.stringify(spare)}, ${JSON.stringify(plan)}`,
        );
      }
    });

    it('settles synchronous requests in groups exactly as one by one, for any mix of prices, accounts and reserved credits', async () => {
      // The same kind of seeded check for the synchronous settlement (CHARGE_GROUP_SQL): each group
      // against a twin set-up settled one by one (chargeAndRecord) in order; per request the balance
      // returned or the exact 402, then the accounts, their ledgers and the records.
      const next = seeded(7031);
      const db = t.services.db;
      const accept = createAcceptanceBatcher(t.services.shortsRequests, {
        enqueueFetches: (tx, ids) => t.services.jobs.enqueueShortsFetches(tx, ids),
      });
      const batcher = createSettlementBatcher(db);
      for (let scenario = 0; scenario < 20; scenario++) {
        const plan = Array.from({ length: 2 + next(9) }, () => ({ account: next(2), price: next(7) }));
        const credits = [next(12), next(12)];
        // Credits held by webhook requests in progress are not for spending.
        const held = [next(3), next(3)];
        const setUp = async () => {
          const users: Array<Awaited<ReturnType<typeof createUser>>> = [];
          for (const a of [0, 1]) {
            const user = await createUser(t, credits[a]! + held[a]!);
            for (let i = 0; i < held[a]!; i++) await accept.accept(webhookRequest(user.id));
            users.push(user);
          }
          return plan.map((p) => ({
            user: users[p.account]!,
            request: { ...webhookRequest(users[p.account]!.id), webhookUrl: null },
          }));
        };
        const settlementOf = ({ request }: { request: NewRequest }, i: number) => ({
          request,
          credits: plan[i]!.price,
          outcome: {
            status: 'completed',
            httpStatus: 200,
            itemCount: plan[i]!.price * 50,
            creditsCharged: plan[i]!.price,
            errorCode: null,
            result: { success: true },
            quotaUnits: 0,
          } as Outcome,
        });
        const answer = (settled: Promise<number>) =>
          settled.then(
            (balance) => `balance ${balance}`,
            (error: Error & { code?: string }) => `${error.code}: ${error.message}`,
          );
        const [grouped, reference] = [await setUp(), await setUp()];
        const groupAnswers = await Promise.all(
          grouped.map((member, i) => answer(batcher.settle(settlementOf(member, i)))),
        );
        const oneByOne: string[] = [];
        for (const [i, member] of reference.entries())
          oneByOne.push(await answer(chargeAndRecord(db, settlementOf(member, i))));
        assert.deepEqual(
          groupAnswers,
          oneByOne,
          `scenario ${scenario}: credits ${JSON.stringify(credits)}, held ${JSON.stringify(held)}, ${JSON.stringify(plan)}`,
        );
        const stateOf = async (members: typeof grouped) => {
          const accounts = [];
          for (const id of new Set(members.map((m) => m.user.id))) {
            accounts.push(
              (
                await db.query(
                  `SELECT credit_balance, credits_reserved, (SELECT coalesce(-sum(amount), 0)::int FROM credit_ledger WHERE account_id = $1 AND kind = 'charge') AS charges,
                      (SELECT count(*)::int FROM shorts_requests WHERE account_id = $1 AND mode = 'sync') AS recorded
               FROM accounts WHERE id = $1`,
                  [id],
                )
              )[0],
            );
          }
          return accounts;
        };
        assert.deepEqual(await stateOf(grouped), await stateOf(reference), `scenario ${scenario}: the accounts`);
      }
    });

    if (mode === 'postgres') {
      /**
       * Runs `group` while another transaction, which made `change`, holds what it changed; lets it
       * commit once the group waits for a lock, and returns the group's result.
       */
      const whileHeld = async <T>(change: (tx: Queryable) => Promise<unknown>, group: () => Promise<T>): Promise<T> => {
        let finish!: () => void;
        const held = new Promise<void>((resolve) => (finish = resolve));
        let begun!: () => void;
        const changed = new Promise<void>((resolve) => (begun = resolve));
        const other = t.services.db.transaction(async (tx) => {
          await change(tx);
          begun();
          await held;
        });
        await changed;
        const settling = group();
        await untilLockWaiters(t.services.db);
        finish();
        await other;
        return settling;
      };

      it("re-checks a group's charge on the account as it is when the UPDATE gets the row (PostgreSQL, concurrent)", async () => {
        // The group reads the balance from its snapshot (10 available: two 2-credit requests fit),
        // but another transaction reserves 8 before the group's UPDATE gets the row: the UPDATE's
        // re-check refuses the 4, nothing is written by the group, and the two go one by one:
        // the first is charged, the second gets its exact 402.
        const user = await createUser(t, 10);
        const db = t.services.db;
        const batcher = createSettlementBatcher(db);
        const sync = (): NewRequest => ({ ...webhookRequest(user.id), webhookUrl: null });
        const completed = (id: string): Outcome => ({
          status: 'completed',
          httpStatus: 200,
          itemCount: 60,
          creditsCharged: 2,
          errorCode: null,
          result: { success: true, requestId: id },
          quotaUnits: 0,
        });
        const [r1, r2] = [sync(), sync()];
        const [first, second] = (await whileHeld(
          (tx) => tx.query('UPDATE accounts SET credits_reserved = credits_reserved + 8 WHERE id = $1', [user.id]),
          () =>
            Promise.allSettled(
              [r1, r2].map((request) => batcher.settle({ request, credits: 2, outcome: completed(request.id) })),
            ),
        )) as [PromiseSettledResult<number>, PromiseSettledResult<number>];
        assert.equal(first.status, 'fulfilled');
        assert.ok(
          second.status === 'rejected' &&
            (second.reason as { code?: string }).code === 'INSUFFICIENT_CREDITS' &&
            /costs 2 credits; the balance is 8, of which 8 are held/.test((second.reason as Error).message),
          String(second.status === 'rejected' ? second.reason : 'fulfilled'),
        );
        const [account] = await db.query<{ credit_balance: number; credits_reserved: number; charges: number }>(
          `SELECT credit_balance, credits_reserved, (SELECT count(*)::int FROM credit_ledger WHERE account_id = $1 AND kind = 'charge') AS charges FROM accounts WHERE id = $1`,
          [user.id],
        );
        assert.deepEqual(
          account,
          { credit_balance: 8, credits_reserved: 8, charges: 1 },
          'reserved credits were not spent',
        );
      });

      it('re-checks a queued group on the account as its UPDATE finds it: reserved credits are never spent (PostgreSQL, concurrent)', async () => {
        // 8 credits, two requests holding 1 each; the group's snapshot covers both 4-credit results
        // (6 free + their 2), but another transaction reserves 3 before the UPDATE gets the row.
        const {
          user,
          requests: [x, y],
        } = await acceptedPair(t, 8);
        const settle = queuedSettler();
        const [ofX, ofY] = await whileHeld(
          (tx) => tx.query('UPDATE accounts SET credits_reserved = credits_reserved + 3 WHERE id = $1', [user.id]),
          () => Promise.all([settle(x, 4), settle(y, 4)]),
        );
        // Blocked, then one by one: x (3 free + its 1) is charged 4; y (0 free + its 1) gets its 402.
        assert.deepEqual([ofX.final.status, ofY.final.status], ['completed', 'failed']);
        const [account] = await t.services.db.query<{ credit_balance: number; credits_reserved: number }>(
          'SELECT credit_balance, credits_reserved FROM accounts WHERE id = $1',
          [user.id],
        );
        assert.deepEqual(
          account,
          { credit_balance: 4, credits_reserved: 3 },
          "the other transaction's 3 reserved credits were not spent",
        );
      });

      it("settles a blocked account's members alone in the group's order: the uncharged first (PostgreSQL, concurrent)", async () => {
        // 8 credits; a (5 credits), b (failed), c (3 credits), 1 reserved each. An
        // operator deducts 2 while the group runs: its snapshot covers a and c, its UPDATE finds 3
        // free, below the 5 they need, so the account is blocked and its members go alone. In the
        // group's order b's reservation ends first: a (3 free + b's 1 + its own 1) is charged and c
        // (its own 1) is refused, as the statement itself would have decided.
        const user = await createUser(t, 8);
        const accept = createAcceptanceBatcher(t.services.shortsRequests, {
          enqueueFetches: (tx, ids) => t.services.jobs.enqueueShortsFetches(tx, ids),
        });
        const [a, b, c] = [webhookRequest(user.id), webhookRequest(user.id), webhookRequest(user.id)];
        for (const request of [a, b, c]) await accept.accept(request);
        const settle = queuedSettler();
        const [ofA, ofB, ofC] = await whileHeld(
          async (tx) => assert.notEqual(await deductCredits(tx, user.id, 2, 'review'), null),
          () => Promise.all([settle(a, 5), settle(b, 0, true), settle(c, 3)]),
        );
        assert.deepEqual([ofA.final.status, ofB.final.status, ofC.final.status], ['completed', 'failed', 'failed']);
        assert.equal(ofC.final.errorCode, 'INSUFFICIENT_CREDITS');
        const [account] = await t.services.db.query<{ credit_balance: number; credits_reserved: number }>(
          'SELECT credit_balance, credits_reserved FROM accounts WHERE id = $1',
          [user.id],
        );
        assert.deepEqual(account, { credit_balance: 1, credits_reserved: 0 });
      });

      it('does not charge a request that another settlement failed while the group waited for it (PostgreSQL, concurrent)', async () => {
        const {
          user,
          requests: [x, y],
        } = await acceptedPair(t, 10);
        const db = t.services.db;
        const failed: Outcome = {
          status: 'failed',
          httpStatus: 404,
          itemCount: null,
          creditsCharged: 0,
          errorCode: 'CHANNEL_NOT_FOUND',
          result: { success: false },
          quotaUnits: 1,
        };
        const settle = queuedSettler();
        // Another run of x's job records its failure and holds its transaction open; the group's
        // statement waits for x's row, then the other run commits.
        const [ofX, ofY] = await whileHeld(
          async (tx) => {
            await releaseReservation(tx, x.id);
            await settleRequest(tx, x.id, failed);
          },
          () => Promise.all([settle(x, 2), settle(y, 1)]),
        );
        assert.deepEqual([ofX.changed, ofY.changed], [false, true]);
        const [row] = await db.query<{ status: string; charges: number }>(
          `SELECT status, (SELECT count(*)::int FROM credit_ledger WHERE request_id = $1 AND kind = 'charge') AS charges FROM shorts_requests WHERE id = $1`,
          [x.id],
        );
        assert.deepEqual(row, { status: 'failed', charges: 0 }, 'failed by the other run, and not charged');
        const [account] = await db.query<{ credit_balance: number; credits_reserved: number }>(
          'SELECT credit_balance, credits_reserved FROM accounts WHERE id = $1',
          [user.id],
        );
        assert.deepEqual(
          account,
          { credit_balance: 9, credits_reserved: 0 },
          'only y was charged; both reservations ended',
        );
      });
    }

    it('records webhook attempts that finish together in one INSERT; one that cannot be written fails alone', async () => {
      const user = await createUser(t, 5);
      const accept = createAcceptanceBatcher(t.services.shortsRequests, {
        enqueueFetches: (tx, ids) => t.services.jobs.enqueueShortsFetches(tx, ids),
      });
      const requests = Array.from({ length: 4 }, () => webhookRequest(user.id));
      await Promise.all(requests.map((r) => accept.accept(r)));
      const record = createAttemptRecorder(t.services.db);
      const result = (i: number) => ({
        outcome: 'delivered' as const,
        statusCode: 200,
        latencyMs: 10 + i,
        error: null,
        retryAfterSeconds: null,
        requestHeaders: { 'webhook-id': `msg_${i}`, 'content-type': 'application/json' },
        responseExcerpt: 'ok',
      });
      const context = { accountId: user.id, nextAttemptAt: null };
      const outcomes = await Promise.allSettled([
        ...requests.map((r, i) => record({ target: { requestId: r.id }, attempt: 1, result: result(i), context })),
        record({ target: { requestId: 'req_missing_request' }, attempt: 1, result: result(9), context }),
      ]);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected'],
        'only the attempt of a request that does not exist fails',
      );
      const rows = await t.services.db.query<{
        request_id: string;
        latency_ms: number;
        request_headers: Record<string, string>;
        webhook_id: string;
        account_id: string;
      }>(
        'SELECT request_id, latency_ms, request_headers, webhook_id, account_id FROM webhook_deliveries WHERE request_id = ANY($1::text[]) ORDER BY latency_ms',
        [requests.map((r) => r.id)],
      );
      assert.deepEqual(
        rows.map((r) => r.request_id),
        requests.map((r) => r.id),
        'each attempt recorded once',
      );
      assert.deepEqual(
        Object.keys(rows[0]!.request_headers),
        ['webhook-id', 'content-type'],
        'headers kept in the order they were sent',
      );
      assert.ok(rows.every((r, i) => r.webhook_id === `msg_${requests[i]!.id}` && r.account_id === user.id));
    });

    it("reads concurrent fetch jobs' requests and deliveries' requests in one statement each, exactly as one by one", async () => {
      const user = await createUser(t, 5);
      const accept = createAcceptanceBatcher(t.services.shortsRequests, {
        enqueueFetches: (tx, ids) => t.services.jobs.enqueueShortsFetches(tx, ids),
      });
      const requests = Array.from({ length: 4 }, () => webhookRequest(user.id));
      await Promise.all(requests.map((r) => accept.accept(r)));
      // A Queryable that counts the statements it is given.
      const statements: string[] = [];
      const counted: Queryable = {
        query: (sql, params) => {
          statements.push(sql);
          return t.services.db.query(sql, params);
        },
      };

      const findQueued = createQueuedRequestReader(counted);
      const ids = [...requests.map((r) => r.id), requests[0]!.id, 'req_missing_request'];
      const found = await Promise.all(ids.map((id) => findQueued(id)));
      assert.equal(statements.length, 1, 'six lookups, one statement');
      for (const [i, row] of found.entries()) {
        const alone = await findRequest(t.services.db, ids[i]!, { withResult: false });
        assert.deepEqual(row, alone, `lookup ${i} answers what findRequest does`);
      }
      assert.equal(found[5], undefined);

      // Deliveries: the request, whether this attempt was recorded, the signing secrets.
      statements.length = 0;
      await t.services.db.query(
        `UPDATE shorts_requests SET status = 'completed', result = '{"n":1}', completed_at = now() WHERE id = $1`,
        [requests[1]!.id],
      );
      await createAttemptRecorder(t.services.db)({
        target: { requestId: requests[1]!.id },
        attempt: 1,
        result: {
          outcome: 'failed',
          statusCode: 500,
          latencyMs: 5,
          error: null,
          retryAfterSeconds: null,
          requestHeaders: {},
          responseExcerpt: '',
        },
        context: { accountId: user.id, nextAttemptAt: null },
      });
      const read = createRequestAttemptReader(counted);
      const [first, second, other, missing] = await Promise.all([
        read({ requestId: requests[1]!.id, attempt: 1 }),
        read({ requestId: requests[1]!.id, attempt: 2 }),
        read({ requestId: requests[2]!.id, attempt: 1 }),
        read({ requestId: 'req_missing_request', attempt: 1 }),
      ]);
      assert.equal(statements.length, 1, 'four lookups, one statement');
      assert.deepEqual(
        [first?.attempt_recorded, second?.attempt_recorded, other?.attempt_recorded, missing],
        [true, false, false, undefined],
      );
      assert.deepEqual(first?.result, { n: 1 });
      assert.equal(first?.status, 'completed');
      assert.equal(other?.status, 'processing');
      assert.ok(
        Array.isArray(first?.secrets) &&
          first.secrets.length > 0 &&
          first.secrets.every((secret) => secret.startsWith('whsec_')),
        "signed with the account's secrets",
      );
    });
  });
}

describe('group commit while the database does not answer (found by CI)', () => {
  it('fails the members queued behind a group the database did not answer, at once, instead of writing them in turn; the next item starts afresh', async () => {
    let writes = 0;
    let answering = false;
    const unavailable = Object.assign(new Error('Query read timeout'), { code: undefined });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const submit = keyedGroupCommit<number, string>(10, async (_key, members) => {
      writes++;
      if (!answering) {
        await held;
        throw unavailable;
      }
      for (const member of members) member.resolve(`ok ${member.item}`);
    });
    const first = submit('bucket', 1);
    await new Promise((r) => setImmediate(r)); // the first group is being written
    const queued = [submit('bucket', 2), submit('bucket', 3)];
    release();
    const outcomes = await Promise.allSettled([first, ...queued]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', 'rejected', 'rejected'],
    );
    for (const o of outcomes) assert.equal((o as PromiseRejectedResult).reason, unavailable);
    assert.equal(writes, 1, 'the queued members did not wait out a second timeout');
    answering = true;
    assert.equal(await submit('bucket', 4), 'ok 4');
    // Another failure is the members' own: the next group is still written.
    let other = 0;
    const plain = keyedGroupCommit<number, string>(10, async (_key, members) => {
      other++;
      if (other === 1) {
        await new Promise((r) => setTimeout(r, 20));
        throw new Error('a constraint of this group');
      }
      for (const member of members) member.resolve('written');
    });
    const a = plain('k', 1);
    await new Promise((r) => setImmediate(r));
    const b = plain('k', 2);
    await assert.rejects(a, /constraint/);
    assert.equal(await b, 'written');
  });
});
