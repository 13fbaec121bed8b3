// End-to-end: the keys page (30-day usage per key, expiry, revoked keys hidden
// by default) and the account's credits (balance chart, paged statement with channels, CSV export,
// low-balance alert and banner) in headless Chromium against the real server and the fake platform.
// Every screen is checked with axe (0 violations, light and dark) and photographed at desktop and
// phone width (test-output/screenshots/credits-*.png).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startFakePlatform } from '../src/fake-platform/server.ts';
import { fakeEnv } from '../test/helpers/harness.ts';
import { checkScreen, skipWithoutBrowser } from '../support/browser.ts';
import {
  type DashboardService,
  type E2eBrowser,
  ensureDashboardBuilt,
  openBrowser,
  startDashboardService,
} from '../support/dashboard-e2e.ts';

const EMAIL = 'credits-e2e@example.com';
const PASSWORD = 'correct horse battery staple';

describe('credits and keys (browser end-to-end)', { skip: skipWithoutBrowser() }, () => {
  let fake: Awaited<ReturnType<typeof startFakePlatform>>;
  let server: DashboardService;
  let opened: E2eBrowser | undefined;
  let page: Page;
  let downloads: string;
  let pageErrors: string[] = [];
  let usedKey = '';
  let revokedKey = '';

  /** axe (0 violations) in light and dark, and screenshots at desktop and phone width. */
  const screenshot = (name: string) => checkScreen(page, `credits-${name}`);
  const heading = (name: string) => page.getByRole('heading', { level: 1, name });
  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true });
  const shorts = (key: string, channelUrl: string) =>
    fetch(`${server.base}/api/youtube/shorts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channelUrl }),
    });

  before(
    async () => {
      await ensureDashboardBuilt();
      fake = await startFakePlatform();
      server = await startDashboardService({
        prefix: 'channel-shorts-credits-e2e-',
        users: [{ email: EMAIL, password: PASSWORD, credits: 100 }],
        env: {
          YOUTUBE_API_KEY: 'fake-api-key',
          ...fakeEnv(fake),
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          SUPPORT_CONTACT: 'billing@example.com',
        },
      });
      // The CSV export is saved here; it goes with the data dir.
      downloads = join(server.dataDir, 'downloads');
      opened = await openBrowser({ acceptDownloads: true });
      ({ page, pageErrors } = opened);
    },
    { timeout: 180_000 },
  );

  after(async () => {
    await opened?.browser.close().catch(() => {});
    await server?.stop();
    await fake?.close();
  });

  it('signs in; creates keys, one with an expiry date', async () => {
    await page.goto(`${server.base}/dashboard/`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Account').waitFor();
    await nav('API keys').click();
    for (const name of ['backend', 'old script']) {
      await page.getByLabel('Key name').fill(name);
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByRole('row').filter({ hasText: name }).waitFor();
      const secret = await page.getByLabel('New API key').inputValue();
      if (name === 'backend') usedKey = secret;
      else revokedKey = secret;
    }
    assert.notEqual(usedKey, revokedKey);
    await page.getByLabel('Key name').fill('contractor');
    const nextYear = new Date().getUTCFullYear() + 1;
    await page.getByLabel(/Expires/).fill(`${nextYear}-06-30`);
    await page.getByRole('button', { name: 'Create key' }).click();
    const row = page.getByRole('row').filter({ hasText: 'contractor' });
    await row.getByText('expires').waitFor();
    assert.match((await row.textContent()) ?? '', new RegExp(`Jun 30, ${nextYear}`));
    await screenshot('keys-expiry');
  });

  it("shows each key's requests and credits of the last 30 days", async () => {
    // 22 requests of 1 credit each (channels of 10 shorts), one more with the key revoked next.
    for (let i = 0; i < 22; i++)
      assert.equal((await shorts(usedKey, `https://www.youtube.com/@fake-${10 + i}`)).status, 200);
    assert.equal((await shorts(revokedKey, 'https://www.youtube.com/@demo')).status, 200);
    await page.reload();
    await heading('API keys').waitFor();
    const backend = page.getByRole('row').filter({ hasText: 'backend' });
    assert.equal(await backend.getByTestId('key-requests').textContent(), '22');
    assert.equal(await backend.getByTestId('key-credits').textContent(), '22');
    const old = page.getByRole('row').filter({ hasText: 'old script' });
    assert.equal(await old.getByTestId('key-credits').textContent(), '3');
    await screenshot('keys-usage');
  });

  it('hides revoked keys by default, shows them on request', async () => {
    await page.getByRole('button', { name: 'Revoke old script' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('status').filter({ hasText: 'was revoked' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'old script' }).waitFor({ state: 'detached' });
    const toggle = page.getByRole('checkbox', { name: 'Show revoked keys (1)' });
    await screenshot('keys');
    await toggle.check();
    await page.getByRole('row').filter({ hasText: 'old script' }).getByText('Revoked', { exact: true }).waitFor();
    await screenshot('keys-revoked-shown');
    await toggle.uncheck();
    assert.equal(await page.getByRole('row').filter({ hasText: 'old script' }).count(), 0);
  });

  it('the account shows the balance over time and the statement, paged, with channels', async () => {
    await nav('Account').click();
    await heading('Account').waitFor();
    assert.equal(await page.getByTestId('credit-balance').textContent(), '75');
    await page.getByRole('img', { name: 'Credit balance, every change, last 30 days' }).waitFor();
    // Every change is a step, the many of today too, not only the day's closing balance.
    const line = (await page.locator('.chart path.line').first().getAttribute('d')) ?? '';
    assert.ok((line.match(/V/g) ?? []).length >= 20, `a step per ledger entry: ${line.slice(0, 120)}`);
    assert.match(
      (await page.getByTestId('balance-summary').textContent()) ?? '',
      /^75 credits at the end of .*: 100 added and 25 spent in 30 days\.$/,
    );
    const statement = page.getByRole('region', { name: 'Credit activity' });
    // The statement loads after the chart: wait for its first page before counting.
    await statement.getByRole('row').filter({ hasText: 'Fake 31' }).first().waitFor();
    assert.equal(await statement.getByTestId('table-count').textContent(), '20 entries shown');
    await page.getByRole('button', { name: 'Show older entries' }).click();
    await statement.getByTestId('table-count').filter({ hasText: '24 entries shown, that is all' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Show older entries' }).count(), 0);
    await statement.getByRole('row').filter({ hasText: 'Grant' }).waitFor();
    await screenshot('account-statement');
  });

  it('exports the whole ledger as CSV', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^ledger-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = join(downloads, download.suggestedFilename());
    await download.saveAs(file);
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\r\n');
    assert.equal(lines[0], 'id,createdAt,kind,amount,balanceAfter,requestId,channelUrl,channelTitle,note');
    assert.equal(lines.length, 25, 'header + 24 entries');
  });

  it('sets a low-balance alert: banner on every page, threshold on the chart, one credits.low event per crossing', async () => {
    await page.getByLabel('Alert when the balance falls below').fill('75');
    await page.getByLabel('Send account events to').fill('https://hooks.example.com/account');
    await page.getByRole('button', { name: 'Save alert' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: alert below 75 credits.' }).waitFor();
    assert.equal(await page.getByTestId('low-balance-banner').count(), 0, 'exactly at the threshold is not below it');
    assert.equal((await shorts(usedKey, 'https://www.youtube.com/@fake-40')).status, 200);
    // A call made through the API, outside the dashboard: the next page shows the banner.
    await nav('Requests').click();
    await page.getByTestId('low-balance-banner').waitFor();
    // How to get credits: the operator's SUPPORT_CONTACT.
    assert.equal(await page.getByTestId('support-contact').getAttribute('href'), 'mailto:billing@example.com');
    await screenshot('requests-low-balance');
    await nav('Account').click();
    await page.getByTestId('low-balance-banner').waitFor();
    await page.locator('svg text', { hasText: 'alert below 75' }).waitFor();
    await screenshot('account-low-balance');
    const token = await page.evaluate(
      () => (JSON.parse(sessionStorage.getItem('channel-shorts.session')!) as { token: string }).token,
    );
    const events = (await (
      await fetch(`${server.base}/accounts/events`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { events: Array<{ payload: { type: string; data: { balance: number; threshold: number } } }> };
    assert.deepEqual(
      events.events.map((e) => [e.payload.type, e.payload.data.balance, e.payload.data.threshold]),
      [['credits.low', 74, 75]],
    );
  });

  it('at zero credits every page says so and how to get more', async () => {
    // 3,700 shorts cost 74 credits (1 per 50): the whole balance.
    assert.equal((await shorts(usedKey, 'https://www.youtube.com/@fake-3700')).status, 200);
    await nav('API keys').click();
    const banner = page.getByTestId('low-balance-banner');
    await banner.filter({ hasText: 'You have no credits left.' }).waitFor();
    assert.match((await banner.textContent()) ?? '', /write to billing@example\.com/);
    await screenshot('keys-no-credits');
  });

  it('had no uncaught errors in the page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
