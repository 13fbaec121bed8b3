// End-to-end: open sign-up in the dashboard (SIGNUP=open) in headless Chromium against the real server.
// Sign-up answers the same for a new and a registered email and gives no session; the page signs the
// new user in with the password just chosen. A registered email with another password gets no way in.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { skipWithoutBrowser } from '../support/browser.ts';
import {
  type DashboardService,
  type E2eBrowser,
  ensureDashboardBuilt,
  openBrowser,
  startDashboardService,
} from '../support/dashboard-e2e.ts';

const PASSWORD = 'correct horse battery staple';
const TAKEN = 'taken@example.com';
const skip = skipWithoutBrowser();

describe('open sign-up (browser end-to-end)', { skip }, () => {
  let service: DashboardService | undefined;
  let opened: E2eBrowser | undefined;
  let base: string;
  let page: Page;
  let pageErrors: string[] = [];
  const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });

  async function signUp(email: string, password: string) {
    await page.goto(`${base}/dashboard/#/signup`);
    await heading('Create an account').waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Repeat the password').fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
  }

  before(
    async () => {
      await ensureDashboardBuilt({ ifStale: true });
      service = await startDashboardService({
        prefix: 'channel-shorts-e2e-signup-',
        users: [{ email: TAKEN, password: PASSWORD, credits: 100 }],
        env: { SIGNUP: 'open', SIGNUP_CREDITS: '30' },
      });
      base = service.base;
      opened = await openBrowser();
      ({ page, pageErrors } = opened);
    },
    { timeout: 180_000 },
  );

  after(async () => {
    await opened?.browser.close().catch(() => {});
    await service?.stop();
  });

  it('a new email signs up and is signed in with its starting credits', async () => {
    await signUp('newcomer@example.com', PASSWORD);
    await heading('Account').waitFor();
    assert.equal(await page.getByTestId('credit-balance').textContent(), '30');
  });

  it('a registered email with another password is not let in, and the account is not changed', async () => {
    // A tab of its own: no session from the first test.
    page = await opened!.browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await signUp(TAKEN, 'a different long passphrase');
    await page.getByText('This email and password do not sign in').waitFor();
    assert.equal(await heading('Account').count(), 0);
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: TAKEN, password: PASSWORD }),
    });
    assert.equal(login.status, 200, 'the owner still signs in with their own password');
  });

  it('had no uncaught errors in the page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
