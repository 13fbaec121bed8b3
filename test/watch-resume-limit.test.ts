// Resuming a watch checks it at once, so it counts in the account's metered windows like POST
// …/check: pause/resume cycles cannot run checks past the per-minute limit. A clock held still
// keeps every call in one minute.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Watch } from '../src/contract/watches.ts';
import { harness } from './helpers/harness.ts';

it('a resume past the metered per-minute limit is 429, and runs no check', async (t) => {
  const now = Date.parse('2026-07-01T12:00:20Z');
  const h = await harness(t, { now: () => now, env: { RATE_LIMIT_PER_MINUTE: '3' } });
  h.fake.addChannel({ handle: 'cycled', shortsCount: 3 });
  const user = await h.user(100);
  const as = h.as(user);
  const created = await as.post<unknown, Watch>('/api/youtube/watches', {
    channelUrl: 'https://www.youtube.com/@cycled',
    webhookUrl: 'https://example.com/hook',
  });
  assert.equal(created.status, 201, created.text);
  const url = `/api/youtube/watches/${created.body.id}`;
  const statuses: number[] = [];
  for (let cycle = 0; cycle < 4; cycle++) {
    assert.equal((await as.patch(url, { status: 'paused' })).status, 200, 'pausing is never refused');
    const resumed = await as.patch<unknown, { error?: string }>(url, { status: 'active' });
    statuses.push(resumed.status);
    if (resumed.status === 429) {
      assert.equal(resumed.body.error, 'RATE_LIMITED');
      assert.match(String(resumed.headers.ratelimit), /"minute";r=0/);
    }
  }
  // The creation counted once, so two resumes fit in the minute's 3 calls.
  assert.deepEqual(statuses, [200, 200, 429, 429]);
  const [{ checks }] = (await h.services.db.query<{ checks: number }>(
    'SELECT count(*)::int AS checks FROM watch_checks WHERE watch_id = $1',
    [created.body.id],
  )) as [{ checks: number }];
  assert.ok(checks <= 3, `${checks} checks for 3 metered calls`);
});
