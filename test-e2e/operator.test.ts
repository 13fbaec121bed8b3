// End-to-end: the operator area of the dashboard in headless Chromium against the real server.
// Only operators see it; an operator finds a user, grants credits with a reason, is refused a
// deduction below zero, reads the audit trail, and invites someone whose link sets a password.
// Also at phone width without horizontal scrolling. Every screen is checked with axe (0 violations,
// light and dark) and photographed at desktop and phone width (test-output/screenshots/operator-*.png).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { assertFitsViewport, checkScreen, DESKTOP, PHONE, skipWithoutBrowser } from '../support/browser.ts';
import {
  type DashboardService,
  type E2eBrowser,
  ensureDashboardBuilt,
  openBrowser,
  startDashboardService,
} from '../support/dashboard-e2e.ts';

const PASSWORD = 'correct horse battery staple';
const OPERATOR = 'boss@example.com';
const CUSTOMER = 'client@example.com';
const skip = skipWithoutBrowser();

describe('operator dashboard (browser end-to-end)', { skip }, () => {
  let service: DashboardService | undefined;
  let base: string;
  let opened: E2eBrowser | undefined;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];

  const nav = (p: Page, name: string) =>
    p.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true });
  const heading = (p: Page, name: string | RegExp) => p.getByRole('heading', { level: 1, name });

  async function signIn(p: Page, email: string) {
    await p.goto(`${base}/dashboard/`);
    await p.getByLabel('Email').fill(email);
    await p.getByLabel('Password').fill(PASSWORD);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await heading(p, 'Account').waitFor();
  }

  before(
    async () => {
      // This suite also rebuilds a stale web/dist, so it never tests an old dashboard.
      await ensureDashboardBuilt({ ifStale: true });
      service = await startDashboardService({
        prefix: 'channel-shorts-e2e-op-',
        unset: ['OPERATOR_TOKEN'],
        users: [
          { email: OPERATOR, password: PASSWORD, role: 'operator' },
          { email: CUSTOMER, password: PASSWORD, credits: 100 },
        ],
        env: { SIGNUP: 'invite' },
      });
      base = service.base;
      opened = await openBrowser();
      ({ browser, page, pageErrors } = opened);
    },
    { timeout: 180_000 },
  );

  after(async () => {
    await opened?.browser.close().catch(() => {});
    await service?.stop();
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
    const refused = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: CUSTOMER, password: PASSWORD }),
    });
    assert.equal(refused.status, 403);
    await page.getByRole('button', { name: 'Enable user' }).click();
    await page.getByRole('status').filter({ hasText: 'enabled again' }).waitFor();

    await checkScreen(page, 'operator-user');
    await page.setViewportSize(PHONE);
    await assertFitsViewport(page, 'user page at phone width'); // once the usage chart has re-measured its width
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
    await assertFitsViewport(page, 'operator page at phone width');
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

    const again = await fetch(`${base}/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: link.split('/invite/')[1], password: PASSWORD }),
    });
    assert.equal(again.status, 404, 'the link works once');
  });

  it('had no uncaught errors in the page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
