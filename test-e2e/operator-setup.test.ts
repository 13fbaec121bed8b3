// End-to-end (issue #16.7): an operator sees what the configuration needs as a banner (here: the
// Data API source without a key); a customer does not. Each screen is checked with axe (0 violations, light and dark) and
// photographed at desktop and phone width (test-output/screenshots/).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startChild, type ChildService } from '../support/child-service.ts';
import { CHROMIUM, checkScreen, SCREENSHOTS, skipWithoutBrowser } from '../support/browser.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'correct horse battery staple';
const run = promisify(execFile);

describe('operator configuration banner (browser end-to-end)', { skip: skipWithoutBrowser() }, () => {
  let dataDir: string;
  let server: ChildService;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  async function signIn(email: string) {
    await page.goto(`${server.url}/dashboard/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
  }

  before(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    if (!existsSync(join(ROOT, 'web', 'dist', 'index.html'))) {
      await run(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', 'web', '--logLevel', 'warn'], { cwd: ROOT });
    }
    dataDir = await mkdtemp(join(tmpdir(), 'channel-shorts-setup-e2e-'));
    const env = { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', YOUTUBE_API_KEY: '', YOUTUBE_API_KEYS: '', YOUTUBE_SOURCE: 'data-api' };
    for (const [email, role] of [['ops@example.com', 'operator'], ['customer@example.com', 'customer']]) {
      await run(process.execPath, ['src/cli.ts', 'users', 'create', '--email', email!, '--password', PASSWORD, '--credits', '10', '--role', role!], { cwd: ROOT, env: { ...process.env, ...env } });
    }
    server = await startChild('src/server.ts', env);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', timezoneId: 'UTC' })).newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, { timeout: 180_000 });

  after(async () => {
    await browser?.close().catch(() => {});
    await server?.kill('SIGTERM');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('/readyz lists the problem as a code', async () => {
    const ready = (await (await fetch(`${server.url}/readyz`)).json()) as { setup?: { warnings: string[] } };
    assert.deepEqual(ready.setup, { warnings: ['NO_DATA_API_KEY'] });
  });

  it('an operator sees the banner on every page, with what to do; it can be dismissed', async () => {
    await signIn('ops@example.com');
    const banner = page.getByRole('region', { name: 'Configuration needs attention' });
    await banner.waitFor();
    assert.match((await banner.locator('li[data-code="NO_DATA_API_KEY"]').textContent()) ?? '', /YOUTUBE_SOURCE=data-api but no YouTube Data API key is set .* 502/);
    await checkScreen(page, 'operator-setup-banner');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Operator', exact: true }).click();
    await banner.waitFor();
    await checkScreen(page, 'operator-setup-banner-operator-area');
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Log out' }).click();
  });

  it('a customer does not see it', async () => {
    // The banner asks only once /operator/me said "operator": for a customer it answers 403.
    const me = page.waitForResponse((r) => r.url().endsWith('/operator/me'));
    await signIn('customer@example.com');
    assert.equal((await me).status(), 403);
    assert.equal(await page.getByTestId('operator-setup-banner').count(), 0);
  });

  it('had no uncaught errors in the page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
