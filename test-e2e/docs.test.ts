// The API reference (/docs) in a real headless Chromium: the product's header with the dashboard
// link, the guides, an operation's examples and snippets, no CSP violation, no horizontal scrolling
// at phone width; and the dashboard's price and webhook timings come from the server. Screenshots at 1280×800 and 375×812 go to test-output/screenshots/docs-*.png.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import {
  assertFitsViewport,
  CHROMIUM,
  checkScreen,
  DESKTOP,
  PHONE,
  SCREENSHOTS,
  skipWithoutBrowser,
} from '../support/browser.ts';
import { createUser, PASSWORD } from '../test/helpers/test-app.ts';
import { useHarness } from '../test/helpers/harness.ts';
import { GUIDES } from '../src/http/openapi-guides.ts';

const skip = skipWithoutBrowser();
// axe checks what we own on /docs: our header, and the information container (title, version,
// spec link and the guides rendered from docs/guides/), whose contrast and landmark we fix in
// src/http/docs-ui.ts. The operations below are Swagger UI's own markup, with violations we cannot
// fix from our CSS or header script (nested-interactive summary buttons, unlabelled selects and
// request-body textarea, unfocusable scrollable examples, the Schemas h4 heading order), so they
// are left out.
const DOCS_AXE_SCOPE = { include: ['header.cs-header', '.swagger-ui .information-container'] };

describe('API reference at /docs (browser)', { skip }, () => {
  // Not the defaults: the dashboard must show what this server is configured with.
  const t = useHarness({
    env: {
      YOUTUBE_API_KEY: 'fake-api-key',
      CREDITS_PER_BLOCK: '3',
      SHORTS_PER_CREDIT_BLOCK: '25',
      WEBHOOK_TIMEOUT_MS: '9000',
      WEBHOOK_RETRY_SCHEDULE: '5,60,3600',
    },
    listen: true,
  });
  let base: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    base = t.url;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-US', colorScheme: 'light' });
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
        problems.push(`CSP: ${message.text()}`);
    });
  });
  after(async () => {
    await browser?.close();
  });

  it('shows the product name, a link to the dashboard and every guide', async () => {
    await page.goto(`${base}/docs/`);
    assert.match(await page.title(), /channel-shorts API reference/);
    const header = page.locator('header.cs-header');
    await header.waitFor();
    assert.equal(await header.locator('.cs-product').textContent(), 'channel-shorts');
    assert.equal(await header.getByRole('link', { name: 'Dashboard' }).getAttribute('href'), '/dashboard/');
    assert.equal(await page.locator('.swagger-ui .topbar').isVisible(), false, 'the stock Swagger header is hidden');
    for (const guide of GUIDES) {
      const heading = page.locator('.information-container h2', { hasText: guide.title }).first();
      await heading.waitFor();
      assert.ok(await heading.getAttribute('id'), `${guide.title} has an anchor`);
      await header.getByRole('link', { name: guide.title }).waitFor();
    }
    // The errors guide holds the generated catalog.
    await page.getByRole('cell', { name: 'INSUFFICIENT_CREDITS' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-guides-desktop.png') });
    await page.setViewportSize(PHONE);
    await assertFitsViewport(page, 'the guides at phone width');
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-guides-phone.png') });
    await page.setViewportSize(DESKTOP);
    await checkScreen(page, 'docs-reference', DOCS_AXE_SCOPE);
  });

  it('shows the shorts operation with the demo channel in its example and its snippets', async () => {
    await page.goto(`${base}/docs/`);
    const operation = page.locator('.opblock-post', { has: page.locator('[data-path="/api/youtube/shorts"]') }).first();
    await operation.waitFor();
    await operation.locator('.opblock-summary').first().click();
    await operation.getByText('https://www.youtube.com/@demo').first().waitFor();
    await operation.getByText('curl -sS -X POST').first().waitFor();
    await operation.getByText('import os, requests').first().waitFor();
    await operation.locator('pre', { hasText: 'INSUFFICIENT_CREDITS' }).first().waitFor();
    await operation.screenshot({ path: join(SCREENSHOTS, 'docs-operation-desktop.png') });
    assert.deepEqual(problems, []);
  });

  it('the dashboard shows the price and webhook timings the server is configured with', async () => {
    const user = await createUser(t, 10);
    await page.goto(`${base}/dashboard/`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.goto(`${base}/dashboard/#/account`);
    const price = page.getByTestId('price');
    await price.waitFor();
    assert.equal(await price.textContent(), '3 credits per started block of 25 shorts, at least 1 per call.');
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-dashboard-price-desktop.png') });
    await checkScreen(page, 'docs-dashboard-account', { screenshots: false });
    await page.goto(`${base}/dashboard/#/webhooks`);
    const timeout = page.getByTestId('webhook-timeout');
    await timeout.waitFor();
    assert.equal(await timeout.textContent(), '9 s');
    await page.getByText('3 times with backoff (5 s, 1 min, 1 hour)').waitFor();
    // The verification snippets are the guide's, one tab a language, reachable by keyboard.
    const tabs = page.getByRole('tablist', { name: 'Verification code by language' }).getByRole('tab');
    assert.deepEqual(await tabs.allTextContents(), [
      'Node',
      'Python',
      'Go',
      'PHP',
      'Ruby',
      'Shell',
      'Node without a package',
    ]);
    await tabs.nth(0).focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await tabs.nth(1).getAttribute('aria-selected'), 'true');
    const snippet = page.getByTestId('webhook-snippet');
    assert.equal(await snippet.getAttribute('data-language'), 'python');
    assert.match((await snippet.textContent()) ?? '', /hmac\.compare_digest/);
    await snippet.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-dashboard-webhook-snippets-desktop.png') });
    await checkScreen(page, 'docs-dashboard-webhooks', { screenshots: false });
    await page.setViewportSize(PHONE);
    await page.getByTestId('webhook-timeout').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-dashboard-webhook-timings-phone.png') });
    await page.setViewportSize(DESKTOP);
    assert.deepEqual(problems, []);
  });

  it('"Try it out" with the prefilled example succeeds: 200 with the demo channel\'s shorts', async () => {
    const user = await createUser(t, 10);
    await page.goto(`${base}/docs/`);
    await page.locator('.btn.authorize').first().click();
    const dialog = page.locator('.modal-ux');
    await dialog.locator('input').first().fill(user.key);
    await dialog.locator('button.modal-btn.authorize').click();
    await dialog.locator('button.btn-done').click();
    const operation = page.locator('.opblock-post', { has: page.locator('[data-path="/api/youtube/shorts"]') }).first();
    await operation.locator('.opblock-summary').first().click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    const live = operation.locator('.live-responses-table tbody .response-col_status').first();
    await live.waitFor();
    assert.equal((await live.textContent())?.trim(), '200');
    await operation.locator('.live-responses-table').getByText('"channelHandle": "@demo"').first().waitFor();
    await operation.locator('.live-responses-table').screenshot({ path: join(SCREENSHOTS, 'docs-try-it-desktop.png') });
    assert.deepEqual(problems, []);
  });

  it('is readable on a phone, and Try it out is authorised with the dashboard session of the tab', async () => {
    // The previous test signed in to the dashboard in this tab: its session is in sessionStorage.
    await page.goto(`${base}/docs/`);
    await page.locator('header.cs-header').getByText('Try it out uses your dashboard session.').waitFor();
    assert.equal(
      await page.evaluate(() => document.querySelector('meta[name="viewport"]')?.getAttribute('content')),
      'width=device-width, initial-scale=1',
    );
    await page.setViewportSize(PHONE);
    await page.locator('.opblock').first().waitFor();
    await assertFitsViewport(page, '/docs at phone width');
    await page.screenshot({ path: join(SCREENSHOTS, 'docs-phone.png') });
    await page.setViewportSize(DESKTOP);
    const operation = page.locator('.opblock-get', { has: page.locator('[data-path="/accounts"]') }).first();
    await operation.locator('.opblock-summary').first().click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    await operation.locator('.live-responses-table .response-col_status', { hasText: '200' }).first().waitFor();
    assert.deepEqual(problems, []);
  });
});
