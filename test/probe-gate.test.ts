// The probe gate (src/domain/quota/probe-gate.ts): how many of one account's probes run at once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createProbeGate, PROBE_UNITS, type ProbeGate } from '../src/domain/quota/probe-gate.ts';
import { QuotaMeter } from '../src/domain/quota/quota-meter.ts';
import type { Queryable } from '../src/infra/db/database.ts';
import type { PriceSettings } from '../src/domain/shorts/pricing.ts';

/** Whether the promise has settled after the turns already queued have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('probe gate', () => {
  it("an account's first probe starts at once, without reading the allowance", async () => {
    const gate = createProbeGate();
    let reads = 0;
    const release = await gate.enter('a', async () => {
      reads++;
      return 0;
    });
    assert.equal(reads, 0);
    release();
  });

  it('another starts while the allowance left covers every running probe at its largest, else waits for one to end', async () => {
    const gate = createProbeGate();
    let left = 2 * PROBE_UNITS;
    const first = await gate.enter('a', async () => left);
    const second = await gate.enter('a', async () => left); // 2 × PROBE_UNITS covers both
    const third = gate.enter('a', async () => left);
    assert.equal(await settled(third), false, 'three do not fit in what is left');
    const otherAccount = gate.enter('b', async () => 0);
    assert.equal(await settled(otherAccount), true, "another account's probes are not held up");
    left = 3 * PROBE_UNITS; // the first gave its units back as it committed
    first();
    assert.equal(await settled(third), true);
    first(); // a second release changes nothing
    left = 2 * PROBE_UNITS; // the running two took some
    const fourth = gate.enter('a', async () => left);
    assert.equal(await settled(fourth), false, 'two running (the release above counted once): a third does not fit');
    second();
    assert.equal(await settled(fourth), true);
    (await third)();
    (await fourth)();
    (await otherAccount)();
  });

  it('waits no longer than its bound (a slot never given back delays, never blocks)', async () => {
    const gate = createProbeGate({ maxWaitMs: 0 });
    const held = await gate.enter('a', async () => 0);
    assert.equal(await settled(gate.enter('a', async () => 0)), true);
    held();
  });
});

describe('quota meter at the probe gate', () => {
  it('a probe whose first calls start together takes one place, and gives it back once', async () => {
    let enters = 0;
    let leaves = 0;
    const probes: ProbeGate = {
      enter: async () => {
        enters++;
        await new Promise((resolve) => setImmediate(resolve));
        return () => {
          leaves++;
        };
      },
    };
    // The statements the meter runs, answered as an account with allowance to spare.
    const db = { query: async () => [{ units: 1, unpaid_units: 1 }] } as unknown as Queryable;
    const settings = {
      unitsPerCredit: 4,
      allowanceUnits: 50,
      pricing: { shortsPerBlock: 50, creditsPerBlock: 1, minimumCredits: 1 } as PriceSettings,
    };
    const meter = new QuotaMeter({
      db,
      accountId: 'a',
      requestId: 'r',
      settings,
      now: Date.now,
      reservationExpiresAt: new Date(Date.now() + 60_000),
      reserved: 1,
      probes,
    });
    await Promise.all([meter.take(1), meter.take(1)]); // the channel and the first page, side by side
    assert.equal(enters, 1);
    await meter.finishUnpaid();
    await meter.finishUnpaid();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(leaves, 1);
  });
});
