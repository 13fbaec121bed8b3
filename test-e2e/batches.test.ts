// End-to-end: batches and results in headless Chromium against the real server and the fake platform
// (serving its own placeholder thumbnails, as in the demo). The Batches page lists a batch with its
// progress; its page links each item to its request and shows the summary's deliveries and
// Redeliver; a batch item's request names its batch and shows its parameters, the stored result as a
// gallery read page by page, and the JSON; the delivery log links the batch; Try it runs with
// duration filters in webhook mode and shows the exact request as curl. Every screen is checked with
// axe (0 violations, light and dark, desktop and phone width) and photographed (test-output/screenshots/batches-*.png).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startFakePlatform } from '../src/fake-platform/server.ts';
import { fakeEnv } from '../test/helpers/harness.ts';
import { assertFitsViewport, checkScreen, DESKTOP, skipWithoutBrowser } from '../support/browser.ts';
import {
  type DashboardService,
  type E2eBrowser,
  ensureDashboardBuilt,
  openBrowser,
  startDashboardService,
} from '../support/dashboard-e2e.ts';
import { startReceiver, until } from '../support/webhook-receiver.ts';

const EMAIL = 'batches-e2e@example.com';
const PASSWORD = 'correct horse battery staple';

describe('dashboard: batches, request results and Try it (browser end-to-end)', { skip: skipWithoutBrowser() }, () => {
  let fake: Awaited<ReturnType<typeof startFakePlatform>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let service: DashboardService | undefined;
  let base: string;
  let opened: E2eBrowser | undefined;
  let page: Page;
  let pageErrors: string[] = [];
  let token: string;
  let batchId: string;

  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true });
  const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });

  async function api(path: string, init: { method?: string; body?: unknown } = {}) {
    const res = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  before(
    async () => {
      await ensureDashboardBuilt({ ifStale: true });
      fake = await startFakePlatform({ localImages: true });
      receiver = await startReceiver(() => ({ status: 204 }));
      service = await startDashboardService({
        prefix: 'channel-shorts-e2e-batches-',
        // An operator: the header then holds every link there is.
        users: [{ email: EMAIL, password: PASSWORD, credits: 200, role: 'operator' }],
        env: {
          YOUTUBE_API_KEY: 'fake-api-key',
          ...fakeEnv(fake),
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOK_TIMEOUT_MS: '4000',
        },
      });
      base = service.base;
      const login = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
      });
      token = ((await login.json()) as { token: string }).token;
      const accepted = await api('/api/youtube/shorts/batch', {
        method: 'POST',
        body: {
          webhookUrl: receiver.url('/hooks/batch'),
          items: [
            { channelUrl: 'https://www.youtube.com/@demo', limit: 30, sort: 'popular' },
            { channelUrl: 'https://www.youtube.com/@sparse' },
          ],
        },
      });
      assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
      batchId = accepted.body.batchId as string;
      await until(
        async () => (await api(`/api/youtube/shorts/batch/${batchId}`)).body.status === 'completed',
        60_000,
        300,
      );
      // Both items' webhooks and the summary.
      await receiver.waitFor(3, 30_000);
      opened = await openBrowser();
      ({ page, pageErrors } = opened);
      await page.goto(`${base}/dashboard/`);
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: /sign in/i }).click();
      await heading('Account').waitFor();
    },
    { timeout: 240_000 },
  );

  after(async () => {
    await opened?.browser.close().catch(() => {});
    await service?.stop();
    await receiver?.close();
    await fake?.close();
  });

  it('keeps the header to one row at 1440 px and two on a phone', async () => {
    await nav('Operator').waitFor();
    const rows = async (width: number) => {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(100);
      const tops = await page
        .locator('header.topbar .brand, header.topbar nav li, header.topbar .user')
        .evaluateAll((els) =>
          els.map((el) => {
            const box = el.getBoundingClientRect();
            return box.top + box.height / 2;
          }),
        );
      // Items whose middles are within 16 px of each other share a row.
      return tops.sort((a, b) => a - b).filter((top, i, all) => i === 0 || top - all[i - 1]! > 16).length;
    };
    try {
      assert.equal(await rows(1440), 1, 'one row at 1440 px');
      assert.equal(await rows(375), 2, 'brand and Log out, then the links');
      await assertFitsViewport(page, 'the header at phone width');
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('lists the batch with its progress, and its page links items, shows the summary deliveries and redelivers', async () => {
    await nav('Batches').click();
    await heading('Batches').waitFor();
    const row = page.getByRole('row').filter({ hasText: batchId });
    await row.getByText('Completed').waitFor();
    assert.match((await row.textContent()) ?? '', /2\/2 settled/);
    await checkScreen(page, 'batches-00-list');

    await row.getByRole('link', { name: batchId }).click();
    await heading(new RegExp(batchId)).waitFor();
    const items = page.getByRole('region', { name: 'Batch items table' });
    await items.getByRole('row').nth(2).waitFor();
    assert.equal(await items.getByRole('row').count(), 3, 'a heading row and one row per item');
    const summary = page.getByRole('region', { name: 'Delivery attempts' });
    await summary.getByText('Delivered').first().waitFor();
    await checkScreen(page, 'batches-01-detail');

    await page.getByRole('button', { name: 'Redeliver summary' }).click();
    await page.getByText(/Redelivery of the summary queued \(attempt 2\)/).waitFor();
    await receiver.waitFor(4, 30_000);
    await until(async () => (await summary.getByRole('row').count()) === 3, 30_000, 300);
    assert.deepEqual(pageErrors, []);
  });

  it("a batch item's request names its batch and shows its parameters, the stored shorts page by page and the JSON", async () => {
    await page.goto(`${base}/dashboard/#/batches/${batchId}`);
    const items = page.getByRole('region', { name: 'Batch items table' });
    await items.getByRole('row').filter({ hasText: '@demo' }).getByRole('link').click();
    await heading(/Request/).waitFor();
    await page.getByTestId('request-batch').filter({ hasText: batchId }).waitFor();
    const parameters = page.getByTestId('request-parameters');
    assert.match((await parameters.textContent()) ?? '', /At most limit\s*30/);
    assert.match((await parameters.textContent()) ?? '', /Most viewed first/);
    const gallery = page.getByRole('region', { name: 'Shorts' });
    await gallery.getByText('24 of 30 shown').waitFor();
    assert.equal(await gallery.getByRole('listitem').count(), 24);
    // The fake's own placeholder thumbnails load (the CSP allows the configured upstream's origin).
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll<HTMLImageElement>('.gallery img')).some((img) => img.naturalWidth > 0),
    );
    await gallery.getByRole('button', { name: 'Show more shorts' }).click();
    await gallery.getByText('30 of 30 shown').waitFor();
    assert.equal(await gallery.getByRole('button', { name: 'Show more shorts' }).count(), 0);
    await page.getByText('Result JSON').waitFor();
    await checkScreen(page, 'batches-02-request-detail');

    // The delivery log links the batch whose summary it sent.
    await nav('Webhooks').click();
    const log = page.getByRole('region', { name: 'Delivery log' });
    await log.getByRole('link', { name: batchId }).first().waitFor();
    assert.deepEqual(pageErrors, []);
  });

  it('Try it runs with duration filters in webhook mode, scrolls to the answer and shows the exact request as curl', async () => {
    await nav('Try it').click();
    await heading('Try it').waitFor();
    await page.getByLabel('Channel URL').fill('https://www.youtube.com/@demo');
    await page.getByLabel('Shortest (seconds)').fill('10');
    await page.getByLabel('Longest (seconds)').fill('40');
    await page.getByLabel('Webhook URL').fill(receiver.url('/hooks/try'));
    await page.getByRole('button', { name: 'Run request' }).click();
    const answer = page.getByRole('heading', { name: 'Accepted (202)' });
    await answer.waitFor();
    await until(async () => (await answer.isVisible()) && (await answer.boundingBox())!.y < 800, 5_000, 100);
    await page.getByText('The request just run, as curl').click();
    const curl = (await page.getByRole('region', { name: 'The request as curl' }).textContent()) ?? '';
    assert.match(curl, /curl -X POST http:\/\/127\.0\.0\.1:\d+\/api\/youtube\/shorts/);
    const body = JSON.parse(/-d '(.*)'$/m.exec(curl)![1]!) as Record<string, unknown>;
    assert.deepEqual(body, {
      channelUrl: 'https://www.youtube.com/@demo',
      sort: 'newest',
      limit: 24,
      maxCredits: 10,
      minDurationSeconds: 10,
      maxDurationSeconds: 40,
      webhookUrl: receiver.url('/hooks/try'),
    });
    await checkScreen(page, 'batches-03-try-it-webhook');
    await page.getByRole('link', { name: /Follow request/ }).click();
    await heading(/Request/).waitFor();
    const parameters = page.getByTestId('request-parameters');
    await parameters.getByText('10 s').waitFor();
    await parameters.getByText('40 s').waitFor();
    assert.deepEqual(pageErrors, []);
  });

  it('the test event counts down the seconds the receiver has left to answer', async () => {
    const hanging = await startReceiver(() => ({ status: 200, hang: true }));
    try {
      await nav('Webhooks').click();
      await page.getByLabel('Receiver URL').fill(hanging.url('/slow'));
      await page.getByRole('button', { name: 'Send test event' }).click();
      const countdown = page.getByTestId('test-countdown');
      await countdown.filter({ hasText: /it has [1-4] s left to answer/ }).waitFor();
      await page.getByText(/No answer within 4000 ms/).waitFor({ timeout: 20_000 });
      assert.equal(await countdown.count(), 0, 'the countdown ends with the answer');
    } finally {
      await hanging.close();
    }
  });

  it('the sign-in page offers the email last signed in with', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    assert.equal(await page.getByLabel('Email').inputValue(), EMAIL);
    assert.deepEqual(pageErrors, []);
  });
});
