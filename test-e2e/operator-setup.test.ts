// End-to-end: an operator sees what the configuration needs as a banner (here: the
// Data API source without a key); a customer does not. Each screen is checked with axe (0 violations, light and dark) and
// photographed at desktop and phone width (test-output/screenshots/).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { checkScreen, skipWithoutBrowser } from '../support/browser.ts';
import {
  type DashboardService,
  type E2eBrowser,
  ensureDashboardBuilt,
  openBrowser,
  startDashboardService,
} from '../support/dashboard-e2e.ts';

const PASSWORD = 'correct horse battery staple';

describe('operator configuration banner (browser end-to-end)', { skip: skipWithoutBrowser() }, () => {
  let server: DashboardService | undefined;
  let opened: E2eBrowser | undefined;
  let page: Page;
  let pageErrors: string[] = [];

  async function signIn(email: string) {
    await page.goto(`${server!.base}/dashboard/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
  }

  before(
    async () => {
      await ensureDashboardBuilt();
      server = await startDashboardService({
        prefix: 'channel-shorts-setup-e2e-',
        users: [
          { email: 'ops@example.com', password: PASSWORD, credits: 10, role: 'operator' },
          { email: 'customer@example.com', password: PASSWORD, credits: 10, role: 'customer' },
        ],
        // The Data API source without any key: the configuration problem the banner reports.
        env: { YOUTUBE_API_KEY: '', YOUTUBE_API_KEYS: '', YOUTUBE_SOURCE: 'data-api' },
      });
      opened = await openBrowser();
      ({ page, pageErrors } = opened);
    },
    { timeout: 180_000 },
  );

  after(async () => {
    await opened?.browser.close().catch(() => {});
    await server?.stop();
  });

  it('/readyz lists the problem as a code', async () => {
    const ready = (await (await fetch(`${server!.base}/readyz`)).json()) as { setup?: { warnings: string[] } };
    assert.deepEqual(ready.setup, { warnings: ['NO_DATA_API_KEY'] });
  });

  it('an operator sees the banner on every page, with what to do; it can be dismissed', async () => {
    await signIn('ops@example.com');
    const banner = page.getByRole('region', { name: 'Configuration needs attention' });
    await banner.waitFor();
    assert.match(
      (await banner.locator('li[data-code="NO_DATA_API_KEY"]').textContent()) ?? '',
      /YOUTUBE_SOURCE=data-api but no YouTube Data API key is set .* 502/,
    );
    await checkScreen(page, 'operator-setup-banner');
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Operator', exact: true })
      .click();
    await banner.waitFor();
    await checkScreen(page, 'operator-setup-banner-operator-area');
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Log out' }).click();
  });

  it('a customer does not see it', async () => {
    // The role comes from the account (GET /accounts); a customer's dashboard asks no operator
    // route, so its console shows no 403 (it asked /operator/me before).
    const refused: string[] = [];
    const collect = (r: { status(): number; url(): string }) => {
      if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
    };
    page.on('response', collect);
    const account = page.waitForResponse((r) => new URL(r.url()).pathname === '/accounts');
    await signIn('customer@example.com');
    assert.equal((await account).status(), 200);
    await page.waitForLoadState('networkidle');
    page.off('response', collect);
    assert.equal(await page.getByTestId('operator-setup-banner').count(), 0);
    assert.equal(
      await page
        .getByRole('navigation', { name: 'Dashboard' })
        .getByRole('link', { name: 'Operator', exact: true })
        .count(),
      0,
    );
    assert.deepEqual(refused, [], 'no refused call while a customer signs in');
  });

  it('had no uncaught errors in the page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
