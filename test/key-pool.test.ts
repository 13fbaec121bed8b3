// The key pool counts units in the database a lease at a time: calls spend in memory, the
// budget is never overspent however many processes share it, and what a process holds goes back
// when it closes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { STORAGE_MODES, skipWithout } from './helpers/test-app.ts';
import { useHarness } from './helpers/harness.ts';
import { createKeyPool, keyIdOf, type KeyPool } from '../src/domain/quota/key-pool.ts';
import { quotaDay } from '../src/domain/quota/quota-day.ts';
import type { Queryable } from '../src/infra/db/database.ts';

let serial = 0;

/** A database that counts the statements sent through it. */
function counting(db: Queryable): Queryable & { statements: number } {
  const counted = {
    statements: 0,
    query<T>(sql: string, params?: unknown[]) {
      counted.statements++;
      return db.query<T>(sql, params);
    },
  };
  return counted;
}

for (const mode of STORAGE_MODES) {
  describe(`key pool leases (${mode})`, { skip: skipWithout(mode) }, () => {
    const t = useHarness({ mode, fake: false });

    const clock = () => Date.parse('2026-11-24T12:00:00Z');
    const counted = async (keyId: string) => {
      const [row] = await t.services.db.query<{ units: number }>(
        'SELECT units FROM upstream_key_usage WHERE key_id = $1 AND quota_day = $2',
        [keyId, quotaDay(clock())],
      );
      return row?.units ?? 0;
    };
    const newPool = (db: Queryable, key: string, dailyUnits: number, leaseUnits = 10): KeyPool =>
      createKeyPool(db, { keys: [key], dailyUnits, reserveUnits: 0, now: clock, leaseUnits });

    it('takes a lease per statement, spends it call by call, and gives the rest back on close', async () => {
      const key = `lease-key-${process.pid}-${++serial}`;
      const db = counting(t.services.db);
      const pool = newPool(db, key, 1000);
      const keyId = (await pool.take(1)).keyId;
      for (let i = 0; i < 11; i++) await pool.take(1);
      // 12 calls: two leases of 10, two statements.
      assert.equal(db.statements, 2);
      assert.equal(await counted(keyId), 20, 'the database counts what the process holds');
      const [state] = await pool.status();
      assert.equal(state!.unitsUsed, 12, 'this process reports what it spent');
      assert.equal(state!.unitsRemaining, 988);
      // A call larger than a lease takes what it needs, with the units still held.
      await pool.take(100);
      assert.equal(await counted(keyId), 112);
      await pool.close();
      assert.equal(await counted(keyId), 112, 'nothing was left over');
      const again = newPool(t.services.db, key, 1000);
      await again.take(3);
      await again.close();
      assert.equal(await counted(keyId), 115, 'a clean stop returns what it did not spend');
    });

    it('never overspends a budget shared by racing processes, and spends all of it', async () => {
      const key = `lease-race-${process.pid}-${++serial}`;
      // Three processes, a budget of 47 units: leases of 10 do not divide it.
      const pools = [0, 1, 2].map(() => newPool(t.services.db, key, 47));
      const results = await Promise.allSettled(Array.from({ length: 90 }, (_, i) => pools[i % 3]!.take(1)));
      const granted = results.filter((r) => r.status === 'fulfilled').length;
      assert.equal(granted, 47, 'every unit of the budget, and not one more');
      for (const r of results)
        if (r.status === 'rejected') assert.equal((r.reason as { code?: string }).code, 'UPSTREAM_QUOTA_EXHAUSTED');
      assert.equal(await counted(keyIdOf(key)), 47);
      await Promise.all(pools.map((p) => p.close()));
    });

    it('concurrent calls of one process share one refill', async () => {
      const key = `lease-burst-${process.pid}-${++serial}`;
      const db = counting(t.services.db);
      const pool = newPool(db, key, 1000);
      await Promise.all(Array.from({ length: 10 }, () => pool.take(1)));
      assert.equal(db.statements, 1, 'ten concurrent calls, one lease');
      await pool.close();
    });

    it('a call made before midnight (Los Angeles) whose quotaExceeded comes after it rests the key for that day, not the next', async () => {
      const key = `midnight-key-${process.pid}-${++serial}`;
      const beforeMidnight = Date.parse('2026-11-25T07:59:59.700Z'); // 23:59:59.7 in Los Angeles (PST)
      let now = beforeMidnight;
      const pool = createKeyPool(t.services.db, {
        keys: [key],
        dailyUnits: 1000,
        reserveUnits: 0,
        now: () => now,
        leaseUnits: 10,
      });
      const lease = await pool.take(1);
      now += 700; // the answer arrives in the new quota day
      assert.notEqual(quotaDay(now), quotaDay(beforeMidnight));
      await pool.markExhausted(lease);
      const rows = await t.services.db.query<{ quota_day: string; exhausted: boolean }>(
        'SELECT quota_day, exhausted_at IS NOT NULL AS exhausted FROM upstream_key_usage WHERE key_id = $1 ORDER BY quota_day',
        [keyIdOf(key)],
      );
      assert.deepEqual(
        rows.map((r) => [r.quota_day, r.exhausted]),
        [[quotaDay(beforeMidnight), true]],
      );
      assert.equal((await pool.take(1)).keyId, keyIdOf(key), 'the new day has the key');
      await pool.close();
    });

    it('a key exhausted upstream drops what this process held', async () => {
      const key = `lease-out-${process.pid}-${++serial}`;
      const pool = newPool(t.services.db, key, 1000);
      const lease = await pool.take(1);
      await pool.markExhausted(lease);
      await assert.rejects(pool.take(1), (error: { code?: string }) => error.code === 'UPSTREAM_QUOTA_EXHAUSTED');
      const [state] = await pool.status();
      assert.equal(state!.state, 'exhausted');
      await pool.close();
    });
  });
}
