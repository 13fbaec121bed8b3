// End-to-end: the dashboard's Watches page in headless Chromium against the real server and
// the fake platform: create a watch, publish a short on the fake, check now, see the delivered
// shorts.created event, pause and delete. Every screen is checked with axe (0 violations, light
// and dark) and photographed at 1280×800 and 375×812 (test-output/screenshots/watches-*.png).
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
import { startReceiver, until } from '../support/webhook-receiver.ts';

const EMAIL = 'watches-e2e@example.com';
const PASSWORD = 'correct horse battery staple';

describe('dashboard: Watches page (browser end-to-end)', { skip: skipWithoutBrowser() }, () => {
  let fake: Awaited<ReturnType<typeof startFakePlatform>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let service: DashboardService | undefined;
  let base: string;
  let opened: E2eBrowser | undefined;
  let page: Page;
  let pageErrors: string[] = [];

  /** axe (0 violations) in light and dark, and screenshots at desktop and phone width. */
  const screenshot = (name: string) => checkScreen(page, name);

  before(
    async () => {
      await ensureDashboardBuilt();
      fake = await startFakePlatform();
      receiver = await startReceiver(() => ({ status: 204 }));
      service = await startDashboardService({
        prefix: 'channel-shorts-e2e-watches-',
        users: [{ email: EMAIL, password: PASSWORD, credits: 100 }],
        env: {
          YOUTUBE_API_KEY: 'fake-api-key',
          YOUTUBE_SOURCE: 'data-api',
          ...fakeEnv(fake),
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          WATCH_MIN_INTERVAL_SECONDS: '60',
        },
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
    await receiver?.close();
    await fake?.close();
  });

  it('creates a watch, shows its delivered shorts.created event, pauses and deletes it', async () => {
    await page.goto(`${base}/dashboard/`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Watches', exact: true })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Watches' }).waitFor();
    await page.getByText('No watches yet').waitFor();
    await screenshot('watches-00-empty');
    // The interval field takes the server's bounds (WATCH_MIN_INTERVAL_SECONDS=60 here, 30 days), and starts at the shortest.
    const intervalField = page.getByLabel('Check every (minutes)');
    await page.waitForFunction(
      () => (document.getElementById('watch-interval') as HTMLInputElement | null)?.max === '43200',
    );
    assert.equal(await intervalField.getAttribute('min'), '1');
    assert.equal(await intervalField.inputValue(), '1');
    await page.getByText(/1 credit buys 4\), new shorts\s+1 credit per 50/).waitFor();

    // A bad address is refused with the API's message.
    await page.getByLabel('Channel address').fill('https://example.com/nope');
    await page.getByLabel('Webhook URL').fill(receiver.url('/hooks/watch'));
    await page.getByRole('button', { name: 'Create watch' }).click();
    await page
      .getByText(/not a recognised channel address|channel address/i)
      .first()
      .waitFor();
    await checkScreen(page, 'watches-00-refused', { screenshots: false });

    await page.getByLabel('Channel address').fill('https://www.youtube.com/@demo');
    await page.getByLabel('Check every (minutes)').fill('5');
    await page.getByRole('button', { name: 'Create watch' }).click();
    await page.getByText(/Watching “Demo Channel”/).waitFor();
    const row = page.getByRole('row', { name: /Demo Channel/ });
    await row.getByText('Active').waitFor();
    assert.match((await row.textContent()) ?? '', /5 min/);
    // The watch's webhook is shown, and got a signed test ping at once.
    assert.match((await row.textContent()) ?? '', /127\.0\.0\.1:\d+\/hooks\/watch/);
    await page
      .getByTestId('watch-ping')
      .filter({ hasText: /delivered \(HTTP 204\)/ })
      .waitFor();
    await receiver.waitFor(1, 30_000);
    assert.equal((JSON.parse(receiver.deliveries[0]!.body) as { type: string }).type, 'webhook.test');
    await page.getByText('No events yet').waitFor();

    // A short published now, then "Check now": the event arrives at the receiver and on the page.
    const published = (await (
      await fetch(`${fake.innertubeBaseUrl}/__admin/channels/demo/shorts`, { method: 'POST' })
    ).json()) as { videoId: string };
    await row.getByRole('button', { name: /Check now/ }).click();
    await receiver.waitFor(2, 30_000);
    const body = JSON.parse(receiver.deliveries[1]!.body) as { type: string; data: { shorts: Array<{ id: string }> } };
    assert.equal(body.type, 'shorts.created');
    assert.deepEqual(
      body.data.shorts.map((s) => s.id),
      [published.videoId],
    );
    await until(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return (await page.getByText('Delivered').count()) > 0;
      },
      20_000,
      500,
    );
    await page.getByText('1 new short').waitFor();
    // The check stored the new short's counts: the channel's movers list it, with its views chart.
    await page.getByRole('heading', { name: 'Movers' }).waitFor();
    await page.getByRole('button', { name: published.videoId }).waitFor();
    await page
      .getByTestId('views-summary')
      .getByText(/views at .* 1 snapshot/)
      .waitFor();
    await screenshot('watches-01-list-and-events');

    // Edit: a longer interval through PATCH, shown in the row.
    await row.getByRole('button', { name: /Edit/ }).click();
    await page.getByRole('form', { name: /Edit “Demo Channel”/ }).waitFor();
    await checkScreen(page, 'watches-01-edit', { screenshots: false });
    await page.locator('#edit-interval').fill('30');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(/“Demo Channel” is checked every 30 min/).waitFor();
    assert.match((await row.textContent()) ?? '', /30 min/);

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
