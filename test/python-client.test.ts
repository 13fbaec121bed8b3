// The Python client (clients/python) against the real service: its unittest suite runs in python3
// with the service's URL, a key, and a webhook delivery the service really signed. Its types must be
// what the generator makes from this service's OpenAPI document.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { startReceiver } from '../support/webhook-receiver.ts';
import { useHarness } from './helpers/harness.ts';
import { PYTHON_TYPES_PATH, renderPythonTypes } from '../scripts/generate-python-types.ts';
import { bearer, createUser } from './helpers/test-app.ts';

const CLIENT_DIR = fileURLToPath(new URL('../clients/python', import.meta.url));
const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const pythonMissing = python.status !== 0 ? 'python3 is not on this machine' : false;
// CI must run these: a missing python3 there is a failure, not a skip.
const skip = process.env.CI === 'true' ? false : pythonMissing;
if (skip) console.log(`# python client tests skipped: ${skip}`);

describe('the Python client', { skip }, () => {
  // Every fresh read stores a snapshot, and every read is fresh: the client's statistics tests read
  // a series of three reads made within a second.
  const t = useHarness({
    listen: true,
    runWorker: true,
    env: { STATS_SNAPSHOT_MIN_SECONDS: '0', CACHE_TTL_SECONDS: '0' },
  });
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let dir: string;

  before(async () => {
    t.fake.addChannel({ handle: 'python', shortsCount: 23 });
    t.fake.addChannel({ handle: 'python-stats', shortsCount: 3 });
    receiver = await t.receiver();
    dir = await mkdtemp(join(tmpdir(), 'cs-python-'));
    t.defer(() => rm(dir, { recursive: true, force: true }));
  });

  it('has the TypedDicts the generator makes from this OpenAPI document', async () => {
    assert.equal(await readFile(PYTHON_TYPES_PATH, 'utf8'), renderPythonTypes(t.app.swagger() as never));
  });

  it('passes its unittest suite against the running service', async () => {
    const user = await createUser(t, 1000);
    const channelUrl = 'https://www.youtube.com/@python';
    // One real delivery, signed by the service, for the client's verify_webhook to check.
    const accepted = await t.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(user.key),
      payload: { channelUrl, webhookUrl: receiver.url() },
    });
    assert.equal(accepted.statusCode, 202, accepted.body);
    await receiver.waitFor(1, 30_000);
    const secret = (
      await t.app.inject({ method: 'GET', url: '/accounts/webhook-secret', headers: bearer(user.token) })
    ).json().secrets[0].secret as string;
    const delivery = receiver.deliveries[0]!;
    const webhookFile = join(dir, 'delivery.json');
    await writeFile(
      webhookFile,
      JSON.stringify({
        body: delivery.body,
        headers: delivery.headers,
        secret,
        receivedAt: Math.floor(delivery.receivedAt / 1000),
      }),
    );

    const { port } = t.app.server.address() as { port: number };
    // Run asynchronously: the service answering it lives in this process.
    const run = await promisify(execFile)('python3', ['-m', 'unittest', 'discover', '-s', 'tests', '-v'], {
      cwd: CLIENT_DIR,
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        ...process.env,
        PYTHONPATH: join(CLIENT_DIR, 'src'),
        PYTHONDONTWRITEBYTECODE: '1',
        CHANNEL_SHORTS_BASE_URL: `http://127.0.0.1:${port}`,
        CHANNEL_SHORTS_API_KEY: user.key,
        CHANNEL_SHORTS_CHANNEL: channelUrl,
        CHANNEL_SHORTS_STATS_CHANNEL: 'https://www.youtube.com/@python-stats',
        CHANNEL_SHORTS_FAKE_PLATFORM_URL: t.fake.innertubeBaseUrl,
        CHANNEL_SHORTS_WEBHOOK_URL: receiver.url('/python'),
        CHANNEL_SHORTS_WEBHOOK_FILE: webhookFile,
      },
    });
    const output = `${run.stdout}${run.stderr}`;
    const ran = Number(/Ran (\d+) tests?/.exec(output)?.[1]);
    assert.ok(ran >= 28, output);
    // Every test ran: none skipped for want of a service or a delivery.
    assert.doesNotMatch(output, /skipped/, output);
    console.log(`# python client: ${ran} tests passed`);
  });
});
