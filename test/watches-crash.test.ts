// Watches survive kill -9: the real service (embedded mode) is killed while a check is in
// flight; after a restart the schedule goes on from the database, the interrupted check's job is
// retried, and every short published before, during and after the outage is reported exactly once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startChild, freePort } from '../support/child-service.ts';
import { startReceiver, until } from '../support/webhook-receiver.ts';
import { childServiceFixture, sessionHeaders } from './helpers/child-fixture.ts';
import { fakeEnv } from './helpers/harness.ts';

describe('watches across kill -9 and restart (embedded mode, real child process)', () => {
  const fixture = childServiceFixture('watch-crash', 'watch-crash@example.com');

  it('reports every short exactly once across a crash mid-check', async () => {
    const { fake, dataDir } = fixture;
    fake.addChannel({ handle: 'crash-watch', shortsCount: 10 });
    const receiver = await startReceiver();
    fixture.receiver = receiver;
    const env = {
      DATA_DIR: dataDir,
      YOUTUBE_API_KEY: 'fake-api-key',
      YOUTUBE_SOURCE: 'data-api',
      ...fakeEnv(fake),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1',
      JOB_HEARTBEAT_SECONDS: '10',
      WATCH_MIN_INTERVAL_SECONDS: '1',
      WATCH_SWEEP_SECONDS: '0.5',
    };
    const port = await freePort();
    const first = await startChild('src/server.ts', env, { port });
    fixture.service = first;
    const headers = await sessionHeaders(first.url, 'watch-crash@example.com');
    const created = await fetch(`${first.url}/api/youtube/watches`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        channelUrl: 'https://www.youtube.com/@crash-watch',
        webhookUrl: receiver.url(),
        intervalSeconds: 1,
      }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const watch = await created.json();

    const published: string[] = [];
    published.push((await fake.publishShort('crash-watch')).videoId);
    await receiver.waitFor(1, 30_000);

    // The next check hangs in the platform's answer: kill -9 while it is in flight.
    published.push((await fake.publishShort('crash-watch')).videoId);
    fake.setLatency(60_000);
    const before = fake.received();
    await until(async () => fake.received() > before, 10_000, 20);
    await first.kill('SIGKILL');
    fake.setLatency(0);
    published.push((await fake.publishShort('crash-watch')).videoId);

    const second = await startChild('src/server.ts', env, { port });
    fixture.service = second;
    published.push((await fake.publishShort('crash-watch')).videoId);

    const reported = () => {
      // Retried deliveries share their webhook-id: count each event once.
      const events = new Map<string, string[]>();
      for (const d of receiver.deliveries) {
        const body = JSON.parse(d.body) as { type: string; data: { shorts?: Array<{ id: string }> } };
        if (body.type === 'shorts.created')
          events.set(
            String(d.headers['webhook-id']),
            body.data.shorts!.map((s) => s.id),
          );
      }
      return [...events.values()].flat();
    };
    await until(async () => published.every((id) => reported().includes(id)), 60_000, 250);
    // A few more checks after everything was reported: nothing is reported again.
    const checks = async () =>
      (
        (await (await fetch(`${second.url}/api/youtube/watches/${watch.id}`, { headers })).json()) as {
          watch: { stats: { checks: number } };
        }
      ).watch.stats.checks;
    const after = await checks();
    await until(async () => (await checks()) >= after + 3, 30_000, 250);
    const all = reported();
    assert.deepEqual([...all].sort(), [...published].sort(), 'each published short reported exactly once');
    assert.equal(new Set(all).size, all.length);
  });
});
