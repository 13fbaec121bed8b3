// Jobs one process queues wake the idle workers of the others: on PostgreSQL an API process
// without workers announces the fetches it queued (NOTIFY), and worker processes listen.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipWithout } from '../support/databases.ts';
import { QUEUES } from '../src/infra/queue.ts';
import { createUser, bearer } from './helpers/test-app.ts';
import { useHarness, type Harness } from './helpers/harness.ts';
import { until } from '../support/webhook-receiver.ts';

describe('job wake-ups across processes (PostgreSQL)', { skip: skipWithout('postgres') }, () => {
  const api = useHarness({ mode: 'postgres', runWorker: false });
  let worker: Harness;
  // Job batches the worker process ran: its activity, for its idle memory release (worker.ts).
  let batches = 0;
  before(async () => {
    // A second process on the same PostgreSQL database that runs the workers (it does not drop the database).
    worker = await api.peer({ env: { DATABASE_POOL_SIZE: '5' }, runWorker: true, onJobs: () => batches++ });
  });

  it('delivers what committed transactions announced, in commit order, and nothing of a rolled-back one', async (ctx) => {
    const db = api.services.db;
    assert.ok(db.listen, 'PostgreSQL can listen');
    const heard: string[] = [];
    const stop = await db.listen('test_channel', (payload) => heard.push(payload));
    try {
      await db.transaction(async (tx) => {
        await tx.query("SELECT pg_notify('test_channel', 'first')");
      });
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.query("SELECT pg_notify('test_channel', 'rolled back')");
          throw new Error('roll back');
        }),
      );
      await db.query("SELECT pg_notify('test_channel', 'second')");
      await until(async () => heard.length >= 2);
      assert.deepEqual(heard, ['first', 'second']);
    } finally {
      await stop();
    }
    // Stopped: a notification sent now reaches nobody (the one after it proves the channel works).
    const later: string[] = [];
    const again = await db.listen('test_channel', (payload) => later.push(payload));
    ctx.after(() => again());
    await db.query("SELECT pg_notify('test_channel', 'third')");
    await until(async () => later.length >= 1);
    assert.deepEqual(heard, ['first', 'second']);
    assert.deepEqual(later, ['third']);
  });

  it('a webhook request accepted by the API process wakes the fetch worker of the worker process, which delivers it', async () => {
    const receiver = await api.receiver();
    const wakeups = async () =>
      (await worker.services.metrics.jobWakeups.get()).values.find((v) => v.labels.queue === QUEUES.shortsFetch)
        ?.value ?? 0;
    assert.equal(await wakeups(), 0);
    const user = await createUser(api, 10);
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(user.key),
      payload: { channelUrl: 'https://www.youtube.com/@demo', webhookUrl: receiver.url() },
    });
    assert.equal(res.statusCode, 202, res.body);
    await until(async () => (await wakeups()) >= 1);
    await receiver.waitFor(1);
    const payload = JSON.parse(receiver.deliveries[0]!.body) as { type: string; data: { requestId: string } };
    assert.deepEqual([payload.type, payload.data.requestId], ['shorts.completed', res.json().requestId]);
    assert.ok(batches >= 1, "the fetch job counted as the worker process's activity");
  });
});
