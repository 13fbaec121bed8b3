// The job queues on a database created before the fetch queue had its dead-letter queue: starting
// the service gives it one (src/infra/queue.ts), so a fetch job that uses up its retries is settled.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openPglite } from '../src/infra/db/pglite.ts';
import { createBoss, QUEUES, startQueue } from '../src/infra/queue.ts';

describe('job queues on an existing database', () => {
  it('the fetch queue, created before it had a dead-letter queue, gets one when the service starts', async (ctx) => {
    const db = await openPglite(null);
    ctx.after(() => db.close());
    const old = createBoss(db, { databaseUrl: undefined, onError: () => {} });
    await old.start();
    await old.createQueue(QUEUES.shortsFetch, { policy: 'standard', retryLimit: 20 });
    assert.equal((await old.getQueue(QUEUES.shortsFetch))?.deadLetter ?? null, null);
    const queuedBefore = await old.send(QUEUES.shortsFetch, { requestId: 'req_before' });
    await old.stop({ close: false, graceful: false });

    const boss = await startQueue(db, { databaseUrl: undefined, heartbeatSeconds: 30, onError: () => {} });
    try {
      assert.equal((await boss.getQueue(QUEUES.shortsFetch))?.deadLetter, QUEUES.shortsFetchGaveUp);
      assert.ok(await boss.getQueue(QUEUES.shortsFetchGaveUp));
      // A job queued now carries it, and so does one queued before that is still to run.
      const id = await boss.send(QUEUES.shortsFetch, { requestId: 'req_x' });
      const jobs = await db.query<{ id: string; dead_letter: string | null }>(
        'SELECT id, dead_letter FROM pgboss.job WHERE id = ANY($1::uuid[]) ORDER BY id',
        [[id, queuedBefore]],
      );
      assert.deepEqual(
        jobs.map((j) => j.dead_letter),
        [QUEUES.shortsFetchGaveUp, QUEUES.shortsFetchGaveUp],
      );
    } finally {
      await boss.stop({ close: false, graceful: false });
    }
  });
});
