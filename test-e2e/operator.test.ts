// End-to-end: the operator area of the dashboard in headless Chromium against the real server.
// Only operators see it; an operator finds a user, grants credits with a reason, is refused a
// deduction below zero, reads the audit trail, and invites someone whose link sets a password.
// Also at phone width without horizontal scrolling. Every screen is checked with axe (0 violations,
// light and dark) and photographed at desktop and phone width (test-output/screenshots/operator-*.png).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '../support/child-service.ts';
import { CHROMIUM, checkScreen, DESKTOP, PHONE, SCREENSHOTS, skipWithoutBrowser } from '../support/browser.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'correct horse battery staple';
const OPERATOR = 'boss@example.com';
const CUSTOMER = 'client@example.com';
const skip = skipWithoutBrowser();
const run = promisify(execFile);

function newestSource(dir: string): number {
  return Math.max(...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newestSource(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs)));
}

describe('operator dashboard (browser end-to-end)', { skip }, () => {
  let dataDir: string;
  let server: ChildProcess | undefined;
  let output = '';
  let base: string;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  const nav = (p: Page, name: string) => p.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true });
  const heading = (p: Page, name: string | RegExp) => p.getByRole('heading', { level: 1, name });

  async function signIn(p: Page, email: string) {
    await p.goto(`${base}/dashboard/`);
    await p.getByLabel('Email').fill(email);
    await p.getByLabel('Password').fill(PASSWORD);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await heading(p, 'Account').waitFor();
  }

  async function noHorizontalScroll(p: Page, what: string) {
    const { scroll, width } = await p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    assert.ok(scroll <= width, `${what}: the page is ${scroll}px wide in a ${width}px viewport`);
  }

  before(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    const index = join(ROOT, 'web', 'dist', 'index.html');
    if (!existsSync(index) || statSync(index).mtimeMs < newestSource(join(ROOT, 'web', 'src'))) {
      await run(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', 'web', '--logLevel', 'warn'], { cwd: ROOT });
    }
    dataDir = await mkdtemp(join(tmpdir(), 'channel-shorts-e2e-op-'));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    delete env.OPERATOR_TOKEN;
    await run(process.execPath, ['src/cli.ts', 'users', 'create', '--email', OPERATOR, '--password', PASSWORD, '--role', 'operator'], { cwd: ROOT, env });
    await run(process.execPath, ['src/cli.ts', 'users', 'create', '--email', CUSTOMER, '--password', PASSWORD, '--credits', '100'], { cwd: ROOT, env });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['src/server.ts'], { cwd: ROOT, env: { ...env, PORT: String(port), HOST: '127.0.0.1', SIGNUP: 'invite' }, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    server.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`server exited:\n${output}`);
      if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
      if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-US', timezoneId: 'UTC', colorScheme: 'light' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, { timeout: 180_000 });

  after(async () => {
    await browser?.close().catch(() => {});
    if (server && server.exitCode === null && server.signalCode === null) {
      const gone = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await gone;
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('a customer sees no operator area', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const customer = await context.newPage();
    await signIn(customer, CUSTOMER);
    await nav(customer, 'Quick start').waitFor();
    assert.equal(await nav(customer, 'Operator').count(), 0);
    await customer.goto(`${base}/dashboard/#/operator`);
    await heading(customer, 'Account').waitFor(); // falls back to the account view
    await checkScreen(customer, 'operator-customer-account', { screenshots: false });
    await context.close();
  });

  it('an operator finds a user, grants credits with a reason and sees it in the ledger and audit trail', async () => {
    await signIn(page, OPERATOR);
    await nav(page, 'Operator').click();
    await heading(page, 'Operator').waitFor();
    await page.getByLabel('Search by email or id').fill('client@');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('1 user', { exact: true }).waitFor();
    await checkScreen(page, 'operator-search');
    await page.getByRole('region', { name: 'Users' }).getByRole('link', { name: CUSTOMER }).click();
    await heading(page, CUSTOMER).waitFor();
    await page.getByLabel('Amount').fill('25');
    await page.getByLabel(/^Reason/).fill('welcome bonus');
    await page.getByRole('button', { name: 'Grant credits' }).click();
    await page.getByRole('status').filter({ hasText: 'balance is now 125' }).waitFor();
    await page.getByRole('heading', { name: 'Credits: 125' }).waitFor();
    const audit = page.getByRole('region', { name: 'Audit trail' });
    await audit.getByText('credits.grant').waitFor();
    await audit.getByText('welcome bonus').waitFor();
    await audit.getByText('credits: 100 → 125').waitFor();

    await page.getByLabel('Action').selectOption('deduct');
    await page.getByLabel('Amount').fill('1000');
    await page.getByLabel(/^Reason/).fill('too much');
    await page.getByRole('button', { name: 'Deduct credits' }).click();
    await page.getByRole('alert').filter({ hasText: 'Nothing was changed' }).waitFor();
    await page.getByRole('heading', { name: 'Credits: 125' }).waitFor();
    await checkScreen(page, 'operator-user-refused', { screenshots: false });

    await page.getByRole('button', { name: 'Disable user' }).click();
    await page.getByRole('status').filter({ hasText: 'is disabled' }).waitFor();
    const refused = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: CUSTOMER, password: PASSWORD }) });
    assert.equal(refused.status, 403);
    await page.getByRole('button', { name: 'Enable user' }).click();
    await page.getByRole('status').filter({ hasText: 'enabled again' }).waitFor();

    await checkScreen(page, 'operator-user');
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(150); // the usage chart re-measures its width
    await noHorizontalScroll(page, 'user page at phone width');
    await page.setViewportSize(DESKTOP);
  });

  it('an operator invites by email; the link sets the password once and signs the new user in', async () => {
    await nav(page, 'Operator').click();
    await heading(page, 'Operator').waitFor();
    await page.getByLabel('Email', { exact: true }).last().fill('newbie@example.com');
    await page.getByLabel('Starting credits').last().fill('40');
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    const link = await page.getByLabel(/^Invitation link/).inputValue();
    assert.match(link, /\/dashboard\/#\/invite\/csinv_/);
    await checkScreen(page, 'operator-invitation');
    await page.setViewportSize(PHONE);
    await noHorizontalScroll(page, 'operator page at phone width');
    await page.setViewportSize(DESKTOP);

    const context = await browser.newContext({ viewport: PHONE });
    const invited = await context.newPage();
    invited.on('pageerror', (error) => pageErrors.push(error.message));
    await invited.goto(link);
    await heading(invited, 'Accept your invitation').waitFor();
    await checkScreen(invited, 'operator-invite-accept');
    await invited.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await invited.getByLabel('Repeat the password').fill(PASSWORD);
    await invited.getByRole('button', { name: 'Set password and sign in' }).click();
    await heading(invited, 'Account').waitFor();
    assert.equal(await invited.getByTestId('credit-balance').textContent(), '40');
    await context.close();

    const again = await fetch(`${base}/invitations/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: link.split('/invite/')[1], password: PASSWORD }) });
    assert.equal(again.status, 404, 'the link works once');
  });

  it('had no uncaught errors in the page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
