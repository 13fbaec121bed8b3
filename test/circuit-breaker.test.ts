// The breaker's states on an injected clock: opens after the streak, lets one trial through when
// the pause is over, doubles the pause on a failed trial, closes on success, and never stays open
// for good when a trial's outcome is not reported.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCircuitBreaker } from '../src/infra/circuit-breaker.ts';

function breaker() {
  let now = 1_000_000;
  const b = createCircuitBreaker({ threshold: 3, baseMs: 30_000, maxMs: 120_000, now: () => now });
  return { b, advance: (ms: number) => (now += ms) };
}

describe('circuit breaker', () => {
  it('opens after the streak, lets one trial through after the pause, and doubles the pause when it fails', () => {
    const { b, advance } = breaker();
    for (let i = 0; i < 3; i++) {
      assert.equal(b.allows(), true);
      b.failure();
    }
    assert.equal(b.state, 'open');
    assert.equal(b.allows(), false);
    assert.equal(b.retryInMs(), 30_000);
    advance(30_000);
    assert.equal(b.state, 'half-open');
    assert.equal(b.allows(), true, 'the trial');
    assert.equal(b.allows(), false, 'one trial at a time');
    b.failure();
    assert.equal(b.retryInMs(), 60_000);
    advance(60_000);
    assert.equal(b.allows(), true);
    b.success();
    assert.equal(b.state, 'closed');
    assert.equal(b.allows(), true);
    assert.equal(b.allows(), true);
  });

  it('lets another trial through when the one in flight was never reported', () => {
    const { b, advance } = breaker();
    for (let i = 0; i < 3; i++) b.failure();
    advance(30_000);
    assert.equal(b.allows(), true, 'a trial whose caller then gives up without a word');
    advance(29_999);
    assert.equal(b.allows(), false, 'still within its time');
    advance(1);
    assert.equal(b.allows(), true, 'lapsed: the next caller tries');
    b.success();
    assert.equal(b.state, 'closed');
  });
});
