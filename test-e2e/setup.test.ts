// End-to-end: a service without users. Its start-up output has the setup link; the link opens the
// setup page, which creates the first operator and signs in; the sign-in page says how to get an
// account. Then Try it: the maxCredits field (10 by default), the expected price once the channel's
// size is known, and a run the cap truncates. Each screen is checked with axe (0 violations, light
// and dark, desktop and phone width) and photographed (test-output/screenshots/).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
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
import { until } from '../support/webhook-receiver.ts';

const EMAIL = 'first-operator@example.com';
const PASSWORD = 'correct horse battery staple';
const LINK = /http:\/\/127\.0\.0\.1:\d+\/dashboard\/setup\?token=cssetup_[A-Za-z0-9_-]+/;

describe('first run: the setup link, the setup page and Try it with maxCredits (browser end-to-end)', {
  skip: skipWithoutBrowser(),
}, () => {
  let fake: Awaited<ReturnType<typeof startFakePlatform>> | undefined;
  let service: DashboardService | undefined;
  let opened: E2eBrowser | undefined;
  let page: Page;

  before(
    async () => {
      await ensureDashboardBuilt({ ifStale: true });
      fake = await startFakePlatform();
      service = await startDashboardService({
        prefix: 'channel-shorts-e2e-setup-',
        env: { YOUTUBE_API_KEY: 'fake-api-key', ...fakeEnv(fake) },
      });
      opened = await openBrowser();
      page = opened.page;
    },
    { timeout: 180_000 },
  );

  after(async () => {
    await opened?.browser.close();
    await service?.stop();
    await fake?.close();
  });

  it('opens the printed link, creates the first operator, and refuses a second setup', async () => {
    const link = await until(async () => LINK.exec(service!.output())?.[0], 30_000);
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Set up channel-shorts' }).waitFor();
    await checkScreen(page, 'setup');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create the operator and sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
    // An operator: the operator area is listed.
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Operator' }).waitFor();

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByText(/first operator comes from the setup link it prints when it starts/).waitFor();
    await checkScreen(page, 'sign-in-first-run');

    // The same link again, now that a user exists: the page says the service is set up.
    await page.goto(link);
    await page.getByLabel('Email').fill('second@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create the operator and sign in' }).click();
    await page.getByText('This service is set up already').waitFor();
    assert.deepEqual(opened!.pageErrors, []);
  });

  it('Try it: maxCredits defaults to 10, caps a run, and the price shows once the channel size is known', async () => {
    // Credits for the operator, as the operator area grants them.
    const session = await page.goto(`${service!.base}/dashboard/`).then(async () => {
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
      return page.evaluate(() => JSON.parse(sessionStorage.getItem('channel-shorts.session') ?? 'null'));
    });
    const granted = await fetch(`${service!.base}/operator/users/${session.userId}/credits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ direction: 'grant', amount: 20, reason: 'first run' }),
    });
    assert.equal(granted.status, 200, await granted.text());

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Try it' }).click();
    await page.getByRole('heading', { level: 1, name: 'Try it' }).waitFor();
    const cap = page.getByLabel('Credit cap');
    assert.equal(await cap.inputValue(), '10');
    await page.getByLabel('Channel URL').fill('https://www.youtube.com/@fake-120');
    // The channel's size is not known yet: no price line.
    assert.equal(await page.getByTestId('expected-price').count(), 0);
    await page.getByLabel('At most', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Run request' }).click();
    await page
      .getByText(/120 shorts/)
      .first()
      .waitFor();

    // Read whole once: now the price is known before running.
    const price = page.getByTestId('expected-price');
    await price.waitFor();
    assert.match((await price.textContent()) ?? '', /Expected price: 3 credits for 120 of this channel's 120 shorts\./);
    await cap.fill('1');
    assert.match(
      (await price.textContent()) ?? '',
      /Expected price: 1 credit for 50 of this channel's 120 shorts \(maxCredits stops the read there\)\./,
    );
    await page.getByRole('button', { name: 'Run request' }).click();
    await page
      .locator('p.msg')
      .getByText(/maxCredits \(1\) pays for reading the newest 50 shorts/)
      .waitFor();
    await page.getByText('Charged 1 credit').waitFor();
    await checkScreen(page, 'try-it-max-credits');
    assert.deepEqual(opened!.pageErrors, []);
  });
});
