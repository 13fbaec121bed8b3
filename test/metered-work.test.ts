// The lifecycle of metered work (src/domain/quota/metered-work.ts): settled once on every exit
// path, and a failure while settling is logged with the request id and counted as the service's
// loss, never dropped. On the real embedded database, through a wrapper that records the statements
// it is sent and makes those a test names fail, as a database that went away would.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MeteredWork } from '../src/domain/quota/metered-work.ts';
import type { Queryable } from '../src/infra/db/database.ts';
import type { PriceSettings } from '../src/domain/shorts/pricing.ts';
import { useHarness } from './helpers/harness.ts';
import type { TestUser } from './helpers/test-app.ts';

describe('metered work', () => {
  const h = useHarness({ fake: false });
  let account: TestUser;
  before(async () => {
    account = await h.user(10);
  });

  /** The service's database, recording every statement and failing those `failing` matches. */
  function recordingDb(failing?: RegExp) {
    const statements: string[] = [];
    const db: Queryable = {
      query: async (sql, params) => {
        statements.push(sql);
        if (failing?.test(sql)) throw new Error('the database went away');
        return h.services.db.query(sql, params);
      },
    } as Queryable;
    return { db, statements };
  }

  function work(db: Queryable, logged: unknown[], releaseOnFailure = true) {
    return new MeteredWork(
      {
        db,
        accountId: account.id,
        requestId: 'req_lifecycle',
        settings: {
          unitsPerCredit: 4,
          allowanceUnits: 50,
          pricing: { shortsPerBlock: 50, creditsPerBlock: 1, minimumCredits: 1 } as PriceSettings,
          onSettleFailure: (failure) => logged.push(failure),
        },
        now: Date.now,
        reservationExpiresAt: new Date(Date.now() + 60_000),
        releaseOnFailure,
      },
      { held: () => 1, paidFrom: 'This test costs' },
    );
  }

  it("run() settles a thrown failure once: the hold released, the units the service's loss when the failure is its own", async () => {
    const { db, statements } = recordingDb();
    const opened = await work(db, []).open();
    await assert.rejects(
      opened.run(async (w) => {
        await w.take(2);
        throw new Error('Connection is closed.');
      }),
      /Connection is closed/,
    );
    await opened.failed(new Error('a second end changes nothing'));
    assert.equal(statements.filter((s) => /DELETE FROM credit_reservations/.test(s)).length, 1, 'released once');
    assert.equal(statements.filter((s) => /lost_units/.test(s)).length, 1, "counted once, as the service's loss");
  });

  it("a failure counting a successful work's units settles them as the service's loss, and is thrown to the caller", async () => {
    const logged: Array<{ requestId: string }> = [];
    const { db, statements } = recordingDb(/unpaid_units = q\.unpaid_units/);
    const opened = await work(db, logged).open();
    await opened.take(2);
    await assert.rejects(opened.succeeded(), /the database went away/);
    assert.ok(
      statements.some((s) => /lost_units/.test(s)),
      "the units are settled as the service's loss",
    );
    assert.deepEqual(logged, [], 'the loss was recorded: nothing left to log');
  });

  it('a failure settling a failed work is logged with its request id, never thrown over the failure it ends with', async () => {
    const logged: Array<{ requestId: string; what: string }> = [];
    const { db } = recordingDb(/lost_units|credit_reservations/);
    const opened = await work(db, logged).open();
    await opened.take(1);
    await opened.failed(new Error('Connection is closed.'));
    assert.deepEqual(
      logged.map((l) => l.requestId),
      ['req_lifecycle', 'req_lifecycle'],
      'the release and the count, each logged',
    );
  });

  it('a work that never opened has nothing to settle', async () => {
    const { db, statements } = recordingDb();
    const unopened = work(db, []);
    await unopened.failed(new Error('402 before any upstream call'));
    assert.equal(await unopened.succeeded(), undefined);
    assert.deepEqual(statements, []);
  });
});
