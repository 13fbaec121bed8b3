// Group statements must not deadlock on PostgreSQL. A group statement (webhook acceptances,
// synchronous and queued settlements) locked its accounts in one CTE and updated them in another:
// when a transaction changed the account between the statement's snapshot and its lock, and another
// held a KEY SHARE lock on it (any insert whose foreign key names the account), two such statements
// waiting for the row deadlocked, and PostgreSQL broke it after deadlock_timeout (1 s): one of them
// was rolled back and run again (db_retries_total). Seen in the scale-out bench as rounds stalled by
// a second or more. This test builds that interleaving with real connections. With the old
// statements, two of three runs deadlocked when the KEY SHARE holder was a ledger entry (4, 3 and
// 4 of 5 per form); since the ledger has no foreign key (migration 009) the holder is a reservation,
// and the old statements deadlocked less often in some forms (acceptance 0-1 of 5, the others 2-3
// of 5, on the tree before the fix), so each form runs 20 times: the old statements then failed
// every form, twice out of twice. Now each account row is touched once per statement, by its
// UPDATE, and a group of several accounts locks them in id order first (credits/ledger.ts
// CHARGE_GROUP_SQL, withAccountsLocked), and none can.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipWithout } from '../support/databases.ts';
import pg from 'pg';
import { createUser, untilLockWaiters } from './helpers/test-app.ts';
import { useHarness } from './helpers/harness.ts';
import { createAcceptanceBatcher } from '../src/domain/requests/acceptances.ts';
import { createSettlementBatcher } from '../src/domain/requests/charge-and-record.ts';
import { createQueuedSettlementBatcher } from '../src/domain/requests/queued-settlements.ts';
import { settleQueuedAlone } from '../src/domain/requests/shorts-requests.ts';
import type { NewRequest, Outcome } from '../src/domain/requests/request-store.ts';

let serial = 0;
const request = (accountId: string, webhook: boolean): NewRequest => ({
  id: `req_deadlock${process.pid}x${++serial}`,
  accountId,
  apiKeyId: null,
  channelUrl: 'https://www.youtube.com/@fake-1',
  oldestDate: null,
  limit: 20,
  freshness: null,
  webhookUrl: webhook ? 'https://hooks.example.com/shorts' : null,
  options: {},
});
const completed = (id: string): Outcome => ({
  status: 'completed',
  httpStatus: 200,
  itemCount: 10,
  creditsCharged: 1,
  errorCode: null,
  result: { success: true, requestId: id },
  quotaUnits: 2,
});

type Form =
  | 'webhook acceptance'
  | 'synchronous settlement'
  | 'synchronous settlement, two accounts'
  | 'queued settlement';
const RUNS = 20;

describe('group statements on PostgreSQL under a concurrent account update and a KEY SHARE holder', {
  skip: skipWithout('postgres'),
}, () => {
  const t = useHarness({ mode: 'postgres', fake: false });

  const retries = async () => (await t.services.metrics.dbRetries.get()).values.reduce((sum, v) => sum + v.value, 0);

  /**
   * One run: a transaction holds a KEY SHARE on the account (an uncommitted insert referencing it),
   * another has updated the account and not committed; two groups (two instances) then queue for the
   * row, the update commits and both go on.
   */
  async function interleave(
    accountId: string,
    groups: [() => Promise<unknown>, () => Promise<unknown>],
  ): Promise<void> {
    const url = t.config.DATABASE_URL!;
    const keyShare = new pg.Client({ connectionString: url });
    const updater = new pg.Client({ connectionString: url });
    await Promise.all([keyShare.connect(), updater.connect()]);
    try {
      await keyShare.query('BEGIN');
      // A reservation's foreign key names the account (the ledger's and the request records' do not since migration 009).
      await keyShare.query(
        "INSERT INTO credit_reservations (request_id, account_id, credits, expires_at) VALUES ($1, $2, 0, now() + interval '1 hour')",
        [`req_keyshare${process.pid}x${++serial}`, accountId],
      );
      await updater.query('BEGIN');
      await updater.query('UPDATE accounts SET credits_reserved = credits_reserved WHERE id = $1', [accountId]);
      const first = groups[0]();
      await untilLockWaiters(t.services.db, 1);
      const second = groups[1]();
      await untilLockWaiters(t.services.db, 2);
      await updater.query('COMMIT');
      await keyShare.query('ROLLBACK');
      await Promise.all([first, second]);
    } finally {
      await Promise.all([keyShare.end(), updater.end()]);
    }
  }

  const forms: Record<Form, (accountId: string) => Promise<[() => Promise<unknown>, () => Promise<unknown>]>> = {
    'webhook acceptance': async (accountId) => {
      const instance = () =>
        createAcceptanceBatcher(t.services.shortsRequests, {
          enqueueFetches: (tx, ids) => t.services.jobs.enqueueShortsFetches(tx, ids),
        });
      const [a, b] = [instance(), instance()];
      return [
        () => Promise.all([a.accept(request(accountId, true)), a.accept(request(accountId, true))]),
        () => Promise.all([b.accept(request(accountId, true)), b.accept(request(accountId, true))]),
      ];
    },
    'synchronous settlement': async (accountId) => {
      const [a, b] = [createSettlementBatcher(t.services.db), createSettlementBatcher(t.services.db)];
      const settle = (batcher: typeof a) => {
        const r = request(accountId, false);
        return batcher.settle({ request: r, credits: 1, outcome: completed(r.id) });
      };
      return [() => Promise.all([settle(a), settle(a)]), () => Promise.all([settle(b), settle(b)])];
    },
    'synchronous settlement, two accounts': async (accountId) => {
      // Each group also charges another account: the accounts are locked in id order first (PostgreSQL).
      const other = await createUser(t, 1000);
      const [a, b] = [createSettlementBatcher(t.services.db), createSettlementBatcher(t.services.db)];
      const settle = (batcher: typeof a, account: string) => {
        const r = request(account, false);
        return batcher.settle({ request: r, credits: 1, outcome: completed(r.id) });
      };
      return [
        () => Promise.all([settle(a, other.id), settle(a, accountId), settle(a, accountId)]),
        () => Promise.all([settle(b, accountId), settle(b, other.id), settle(b, accountId)]),
      ];
    },
    'queued settlement': async (accountId) => {
      // Four requests accepted beforehand (reservations held), settled by two instances, two each.
      const accepted = Array.from({ length: 4 }, () => request(accountId, true));
      const accept = createAcceptanceBatcher(t.services.shortsRequests, {
        enqueueFetches: (tx, ids) => t.services.jobs.enqueueShortsFetches(tx, ids),
      });
      await Promise.all(accepted.map((r) => accept.accept(r)));
      const [a, b] = [
        createQueuedSettlementBatcher(t.services.db, { insertJobs: async () => {} }),
        createQueuedSettlementBatcher(t.services.db, { insertJobs: async () => {} }),
      ];
      const settle = (batcher: typeof a, r: NewRequest) => {
        const settlement = { request: r, credits: 1, outcome: completed(r.id), quotaUnits: 2 };
        return batcher.settle({ ...settlement, alone: () => settleQueuedAlone(t.services.db, settlement) });
      };
      return [
        () => Promise.all([settle(a, accepted[0]!), settle(a, accepted[1]!)]),
        () => Promise.all([settle(b, accepted[2]!), settle(b, accepted[3]!)]),
      ];
    },
  };

  for (const [form, build] of Object.entries(forms) as Array<[Form, (typeof forms)[Form]]>) {
    it(`${form}: two instances' groups never deadlock (${RUNS} runs), and each writes exactly once`, async () => {
      const user = await createUser(t, 1000);
      const before = await retries();
      for (let run = 0; run < RUNS; run++) {
        await interleave(user.id, await build(user.id));
      }
      assert.equal(
        (await retries()) - before,
        0,
        'no statement or transaction was a deadlock victim (db_retries_total)',
      );
      const [account] = await t.services.db.query<{
        credit_balance: number;
        credits_reserved: number;
        charges: number;
      }>(
        `SELECT credit_balance, credits_reserved, (SELECT count(*)::int FROM credit_ledger WHERE account_id = $1 AND kind = 'charge') AS charges FROM accounts WHERE id = $1`,
        [user.id],
      );
      const requests = RUNS * 4;
      if (form === 'webhook acceptance')
        assert.deepEqual(
          account,
          { credit_balance: 1000, credits_reserved: requests, charges: 0 },
          'each request reserved once',
        );
      else
        assert.deepEqual(
          account,
          { credit_balance: 1000 - requests, credits_reserved: 0, charges: requests },
          'each request charged once, every reservation ended',
        );
    });
  }
});
