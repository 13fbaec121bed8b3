// kill -9 the real service while webhook jobs are queued and mid-delivery; after a restart every
// job completes and every webhook is delivered (at least once, with its stable webhook-id).
// The service runs as `npm start` runs it: the bundle (dist/server.mjs, with PGlite's thread as its
// own entry), so this also tests what ships.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startChild, freePort, type ChildService } from '../support/child-service.ts';
import { startReceiver, until } from '../support/webhook-receiver.ts';
import { childServiceFixture, sessionHeaders } from './helpers/child-fixture.ts';
import { fakeEnv } from './helpers/harness.ts';

describe('crash safety (embedded mode, real child process)', () => {
  const fixture = childServiceFixture('crash', 'crash@example.com', { latencyMs: 20 });

  it('delivers every webhook after kill -9 and restart', async () => {
    // The receiver is slow at first, so deliveries are in flight when the process dies.
    const { fake, dataDir } = fixture;
    let slow = true;
    const receiver = await startReceiver(() => (slow ? { status: 0, hang: true } : { status: 200 }));
    fixture.receiver = receiver;
    const env = {
      DATA_DIR: dataDir,
      YOUTUBE_API_KEY: 'fake-api-key',
      ...fakeEnv(fake),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_TIMEOUT_MS: '5000',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1',
      JOB_HEARTBEAT_SECONDS: '10',
      WORKER_CONCURRENCY: '3',
      CACHE_TTL_SECONDS: '0',
    };
    const port = await freePort();
    const first: ChildService = await startChild('dist/server.mjs', env, { port });
    fixture.service = first;
    const headers = await sessionHeaders(first.url, 'crash@example.com');
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res: Response = await fetch(`${first.url}/api/youtube/shorts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          channelUrl: `https://www.youtube.com/@fake-${60 + i}`,
          webhookUrl: receiver.url(`/hook/${i}`),
        }),
      });
      assert.equal(res.status, 202);
      ids.push((await res.json()).requestId);
    }
    await receiver.waitFor(1, 30_000); // deliveries are under way (and hanging)
    await first.kill('SIGKILL');
    slow = false;

    const second: ChildService = await startChild('dist/server.mjs', env, { port });
    fixture.service = second;
    // Only deliveries this receiver answered with 200 count: the ones that hung before the kill
    // were never acknowledged and must be retried after the restart.
    const expected = new Set(ids.map((id) => `msg_${id}`));
    await until(
      async () => {
        const delivered = new Set(
          receiver.deliveries
            .filter((d) => d.answered === 200 && expected.has(String(d.headers['webhook-id'])))
            .map((d) => String(d.headers['webhook-id'])),
        );
        return delivered.size === expected.size;
      },
      90_000,
      250,
    );
    // The service records the attempt after the receiver answers, so poll until it shows.
    for (const id of ids) {
      const detail = await until(
        async () => {
          const res: Response = await fetch(`${second.url}/api/youtube/shorts/${id}`, { headers });
          const body = (await res.json()) as { status: string; deliveries: Array<{ outcome: string }> };
          return body.deliveries.some((d) => d.outcome === 'delivered') ? body : undefined;
        },
        20_000,
        200,
      );
      assert.equal(detail.status, 'completed', id);
    }
    const account = await (await fetch(`${second.url}/accounts`, { headers })).json();
    const ledger = await (await fetch(`${second.url}/accounts/ledger?limit=100`, { headers })).json();
    const charges = ledger.entries.filter((e: { kind: string }) => e.kind === 'charge');
    assert.equal(charges.length, 12, 'each request charged exactly once');
    assert.equal(new Set(charges.map((e: { requestId: string }) => e.requestId)).size, 12);
    assert.equal(account.credits.balance, 1000 - charges.reduce((s: number, e: { amount: number }) => s - e.amount, 0));
  });
});
