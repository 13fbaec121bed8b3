import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createLookupCache } from '../src/infra/cache/lookup-cache.ts';

/** A lookup the test answers by hand, counting how often it ran. */
function manualLookup<V>() {
  const calls: Array<(value: V) => void> = [];
  return { calls, load: () => new Promise<V>((resolve) => calls.push(resolve)) };
}

describe('lookup cache', () => {
  it('concurrent misses share one lookup, and its value is kept for the TTL on the injected clock', async () => {
    let clock = 1_000;
    const cache = createLookupCache<string>({ ttlMs: 1_000, now: () => clock });
    const lookup = manualLookup<string>();
    const waiting = Array.from({ length: 50 }, () => cache.get('k', lookup.load));
    assert.equal(lookup.calls.length, 1, 'one lookup for 50 concurrent callers');
    lookup.calls[0]!('first');
    assert.deepEqual(new Set(await Promise.all(waiting)), new Set(['first']));
    clock += 999;
    assert.equal(await cache.get('k', lookup.load), 'first', 'still fresh');
    clock += 1;
    const again = cache.get('k', lookup.load);
    assert.equal(lookup.calls.length, 2, 'looked up again once the TTL has passed');
    lookup.calls[1]!('second');
    assert.equal(await again, 'second');
  });

  it('a lookup in flight when its key is deleted answers its callers but is not kept', async () => {
    const cache = createLookupCache<string>({ ttlMs: 60_000 });
    const lookup = manualLookup<string>();
    const before = cache.get('key', lookup.load);
    cache.delete('key'); // e.g. the API key was revoked while its lookup ran
    const after = cache.get('key', lookup.load);
    assert.equal(lookup.calls.length, 2, 'a caller after the delete does not share the older lookup');
    lookup.calls[0]!('read before the revocation');
    lookup.calls[1]!('read after the revocation');
    assert.equal(await before, 'read before the revocation');
    assert.equal(await after, 'read after the revocation');
    assert.equal(await cache.get('key', lookup.load), 'read after the revocation', 'only the later read is kept');
    assert.equal(lookup.calls.length, 2);
  });

  it('a failed lookup is not kept, and ttlMs 0 keeps nothing', async () => {
    const cache = createLookupCache<string>({ ttlMs: 60_000 });
    await assert.rejects(
      cache.get('x', () => Promise.reject(new Error('database down'))),
      /database down/,
    );
    assert.equal(await cache.get('x', async () => 'recovered'), 'recovered');
    const uncached = createLookupCache<number>({ ttlMs: 0 });
    let n = 0;
    assert.equal(await uncached.get('y', async () => ++n), 1);
    assert.equal(await uncached.get('y', async () => ++n), 2);
  });
});
