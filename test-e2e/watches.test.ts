// End-to-end: the dashboard's Watches page (#15) in headless Chromium against the real server and
// the fake platform: create a watch, publish a short on the fake, check now, see the delivered
// shorts.created event, pause and delete. Every screen is checked with axe (0 violations, light
// and dark) and photographed at 1280×800 and 375×812 (test-output/screenshots/watches-*.png).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startFakePlatform } from '../src/fake-platform/server.ts';
import { freePort } from '../support/child-service.ts';
import { CHROMIUM, checkScreen, DESKTOP, SCREENSHOTS, skipWithoutBrowser } from '../support/browser.ts';
import { startReceiver, until } from '../support/webhook-receiver.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EMAIL = 'watches-e2e@example.com';
const PASSWORD = 'correct horse battery staple';
const run = promisify(execFile);

describe('dashboard: Watches page (browser end-to-end)', { skip: skipWithoutBrowser() }, () => {
  let fake: Awaited<ReturnType<typeof startFakePlatform>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let dataDir: string;
  let server: ChildProcess | undefined;
  let output = '';
  let base: string;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  /** axe (0 violations) in light and dark, and screenshots at desktop and phone width. */
  const screenshot = (name: string) => checkScreen(page, name);

  before(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    if (!existsSync(join(ROOT, 'web', 'dist', 'index.html'))) {
      await run(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', 'web', '--logLevel', 'warn'], { cwd: ROOT });
    }
    fake = await startFakePlatform();
    receiver = await startReceiver(() => ({ status: 204 }));
    dataDir = await mkdtemp(join(tmpdir(), 'channel-shorts-e2e-watches-'));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    await run(process.execPath, ['src/cli.ts', 'users', 'create', '--email', EMAIL, '--password', PASSWORD, '--credits', '100'], { cwd: ROOT, env });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['src/server.ts'], {
      cwd: ROOT,
      env: { ...env, PORT: String(port), HOST: '127.0.0.1', YOUTUBE_API_KEY: 'fake-api-key', YOUTUBE_SOURCE: 'data-api', YOUTUBE_API_BASE_URL: fake.baseUrl, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WATCH_MIN_INTERVAL_SECONDS: '60' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    server.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    await until(async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.ok, 60_000, 200).catch(() => {
      throw new Error(`server did not start:\n${output}`);
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-US', timezoneId: 'UTC', colorScheme: 'light' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
  }, { timeout: 180_000 });

  after(async () => {
    await browser?.close().catch(() => {});
    if (server && server.exitCode === null && server.signalCode === null) {
      const gone = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await gone;
    }
    await receiver?.close();
    await fake?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('creates a watch, shows its delivered shorts.created event, pauses and deletes it', async () => {
    await page.goto(`${base}/dashboard/`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Watches', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Watches' }).waitFor();
    await page.getByText('No watches yet').waitFor();
    await screenshot('watches-00-empty');

    // A bad address is refused with the API's message.
    await page.getByLabel('Channel address').fill('https://example.com/nope');
    await page.getByLabel('Webhook URL').fill(receiver.url('/hooks/watch'));
    await page.getByRole('button', { name: 'Create watch' }).click();
    await page.getByText(/not a recognised channel address|channel address/i).first().waitFor();
    await checkScreen(page, 'watches-00-refused', { screenshots: false });

    await page.getByLabel('Channel address').fill('https://www.youtube.com/@demo');
    await page.getByLabel('Check every (minutes)').fill('5');
    await page.getByRole('button', { name: 'Create watch' }).click();
    await page.getByText(/Watching “Demo Channel”/).waitFor();
    const row = page.getByRole('row', { name: /Demo Channel/ });
    await row.getByText('Active').waitFor();
    assert.match(await row.textContent() ?? '', /5 min/);
    await page.getByText('No events yet').waitFor();

    // A short published now, then "Check now": the event arrives at the receiver and on the page.
    const published = await (await fetch(`${fake.innertubeBaseUrl}/__admin/channels/demo/shorts`, { method: 'POST' })).json() as { videoId: string };
    await row.getByRole('button', { name: /Check now/ }).click();
    await receiver.waitFor(1, 30_000);
    const body = JSON.parse(receiver.deliveries[0]!.body) as { type: string; data: { shorts: Array<{ id: string }> } };
    assert.equal(body.type, 'shorts.created');
    assert.deepEqual(body.data.shorts.map((s) => s.id), [published.videoId]);
    await until(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return (await page.getByText('Delivered').count()) > 0;
    }, 20_000, 500);
    await page.getByText('1 new short').waitFor();
    await screenshot('watches-01-list-and-events');

    await row.getByRole('button', { name: /Pause/ }).click();
    await row.getByText('Paused').first().waitFor();
    await screenshot('watches-02-paused');

    await row.getByRole('button', { name: /Delete/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await checkScreen(page, 'watches-03-delete-dialog', { screenshots: false });
    await dialog.getByRole('button', { name: 'Delete watch' }).click();
    await page.getByText(/Stopped watching “Demo Channel”/).waitFor();
    assert.equal(await page.getByRole('row', { name: /Demo Channel/ }).count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
