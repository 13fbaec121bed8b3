// End-to-end: the Try it panel, the requests log and the webhook tooling in a real
// Chromium against the real server (a child process), the fake platform and real webhook receivers.
// Every screen is checked with axe (0 violations) and photographed at desktop and phone width, in
// light and dark mode (test-output/screenshots/).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startFakePlatform } from '../src/fake-platform/server.ts';
import { fakeEnv } from '../test/helpers/harness.ts';
import { checkScreen, skipWithoutBrowser } from '../support/browser.ts';
import {
  ensureDashboardBuilt,
  openBrowser,
  startDashboardService,
  type DashboardService,
} from '../support/dashboard-e2e.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

const EMAIL = 'e2e-log@example.com';
const PASSWORD = 'correct horse battery staple';
const IMAGE_HOSTS = /^https:\/\/(i\.ytimg\.com|yt3\.ggpht\.com|yt3\.googleusercontent\.com)\//;

const skip = skipWithoutBrowser();

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A stand-in picture for a platform image (the machine is offline): a colour and the path's tail. */
function placeholderSvg(url: string): string {
  const hue = createHash('sha1').update(url).digest()[0]! * 1.4;
  const wide = /banner|googleusercontent/.test(url);
  const [w, h] = wide ? [1060, 175] : /ggpht/.test(url) ? [240, 240] : [480, 360];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,55%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},70%,35%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${w / 2}" cy="${h / 2}" r="${Math.min(w, h) / 6}" fill="rgba(255,255,255,.85)"/><path d="M${w / 2 - 10} ${h / 2 - 14} l26 14 l-26 14z" fill="hsl(${hue},70%,40%)"/></svg>`;
}

describe('Try it, requests log and webhook tooling (browser end-to-end)', { skip }, () => {
  let fake: Awaited<ReturnType<typeof startFakePlatform>>;
  let service: DashboardService | undefined;
  let base: string;
  let browser: Browser;
  let page: Page;
  let ok: Awaited<ReturnType<typeof startReceiver>>;
  let failing: Awaited<ReturnType<typeof startReceiver>>;
  let apiKey = '';
  let pageErrors: string[] = [];
  const cspViolations: string[] = [];
  const imagesServed: string[] = [];

  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true });
  const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });

  /** axe on the current page, light and dark; then screenshots at both widths in both schemes. */
  const check = (name: string) => checkScreen(page, name);

  async function api(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
    const res = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${init.token ?? apiKey}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  before(
    async () => {
      await ensureDashboardBuilt();
      fake = await startFakePlatform();
      ok = await startReceiver(() => ({ status: 204 }));
      failing = await startReceiver(() => ({ status: 500, headers: { 'content-type': 'text/plain' } }));
      service = await startDashboardService({
        prefix: 'channel-shorts-e2e-log-',
        users: [{ email: EMAIL, password: PASSWORD, credits: 500 }],
        env: {
          YOUTUBE_API_KEY: 'fake-api-key',
          ...fakeEnv(fake),
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          // One quick retry, then the schedule is spent: "retrying" becomes "failed" within seconds.
          WEBHOOK_RETRY_SCHEDULE: '1',
          RATE_LIMIT_PER_MINUTE: '200',
        },
      });
      base = service.base;

      let context: BrowserContext;
      ({ browser, context, page, pageErrors } = await openBrowser());
      // The platform's image hosts, served locally: the machine is offline. A request reaches this
      // handler only when the page's CSP allowed it.
      await context.route(IMAGE_HOSTS, (route) => {
        imagesServed.push(route.request().url());
        return route.fulfill({
          status: 200,
          contentType: 'image/svg+xml',
          body: placeholderSvg(route.request().url()),
        });
      });
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });

      // "Refused today" counts in the UTC day, and the screens are checked a minute or two after the
      // refused calls are made, by a service in another process (its clock is the real one): a run
      // that gets here within four minutes of midnight UTC waits for it first (this hook's timeout allows for it).
      const toMidnightUtc = 86_400_000 - (Date.now() % 86_400_000);
      if (toMidnightUtc < 4 * 60_000) await new Promise((r) => setTimeout(r, toMidnightUtc + 1000));

      // The data the screens show: an API key, 56 requests (more than a page), webhook requests that
      // are delivered and that fail until the schedule gives up, and refused calls.
      const login = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
      });
      const { token } = (await login.json()) as { token: string };
      const key = await api('/keys', { method: 'POST', token, body: { name: 'backend' } });
      apiKey = key.body.key as string;
      for (let i = 0; i < 52; i++)
        assert.equal(
          (
            await api('/api/youtube/shorts', {
              method: 'POST',
              body: { channelUrl: 'https://www.youtube.com/@demo', limit: 1 + (i % 5) },
            })
          ).status,
          200,
        );
      for (const url of [ok.url('/hooks/shorts'), failing.url('/hooks/broken')]) {
        assert.equal(
          (
            await api('/api/youtube/shorts', {
              method: 'POST',
              body: { channelUrl: 'https://www.youtube.com/@demo', limit: 3, webhookUrl: url },
            })
          ).status,
          202,
        );
      }
      assert.equal(
        (
          await api('/api/youtube/shorts', {
            method: 'POST',
            body: { channelUrl: 'https://www.youtube.com/@no-such-channel-zz' },
          })
        ).status,
        404,
      );
      for (let i = 0; i < 3; i++)
        assert.equal(
          (await api('/api/youtube/shorts', { method: 'POST', body: { channelUrl: '@demo', limit: 0 } })).status,
          400,
        );
      // Both webhook requests settled: one delivered, one given up after its retry.
      await waitFor(
        'the deliveries',
        async () => {
          const log = await api('/webhooks/deliveries');
          const list = log.body.deliveries as Array<{ outcome: string; gaveUp: boolean }>;
          return list.some((d) => d.outcome === 'delivered') && list.some((d) => d.gaveUp);
        },
        60_000,
        500,
      );
    },
    { timeout: 480_000 },
  );

  after(async () => {
    await browser?.close().catch(() => {});
    await service?.stop();
    await ok?.close();
    await failing?.close();
    await fake?.close();
  });

  it('signs in', async () => {
    await page.goto(`${base}/dashboard/`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Account').waitFor();
  });

  it('Try it: runs a request with the session and shows the channel and its shorts as a gallery, and the JSON', async () => {
    await nav('Try it').click();
    await heading('Try it').waitFor();
    await check('20-try-it-empty');
    await page.getByLabel('Channel URL').fill('https://www.youtube.com/@demo');
    await page.getByLabel('At most').fill('12');
    await page.getByText('Most viewed').click();
    await page.getByRole('button', { name: 'Run request' }).click();
    const gallery = page.getByRole('tabpanel', { name: 'Gallery' });
    await gallery.getByRole('listitem').first().waitFor();
    assert.equal(await gallery.getByRole('listitem').count(), 12);
    // Most viewed first, each a link to the short with its title, views and date.
    const first = gallery.getByRole('link').first();
    assert.match((await first.getAttribute('href'))!, /^https:\/\/www\.youtube\.com\/shorts\/[\w-]{11}$/);
    assert.equal(await first.getAttribute('rel'), 'noreferrer');
    const views = await gallery
      .locator('.meta span[title]')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('title')!.replace(/\D/g, ''))));
    assert.deepEqual(
      views,
      [...views].sort((a, b) => b - a),
      'sorted by views',
    );
    assert.ok((await gallery.locator('time').count()) === 12);
    await page.getByRole('heading', { level: 2 }).filter({ hasText: /./ }).first().waitFor();
    await page.getByText(/Charged \d+ credits?/).waitFor();
    await page.getByText('subscribers').waitFor();
    // Thumbnails, the avatar and the banner loaded from the platform's hosts under the CSP.
    await waitFor(
      'images',
      async () =>
        (await page
          .locator('.result img')
          .evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length)) >= 14,
    );
    assert.ok(imagesServed.some((u) => u.startsWith('https://i.ytimg.com/vi/')));
    assert.ok(imagesServed.some((u) => u.startsWith('https://yt3.ggpht.com/')));
    assert.deepEqual(cspViolations, []);
    await check('21-try-it-gallery');

    await page.getByRole('tab', { name: 'JSON' }).click();
    const json = page.getByRole('tabpanel', { name: 'JSON' });
    await json.getByText('Raw JSON').click();
    const raw = JSON.parse((await json.locator('pre.raw').textContent())!) as {
      itemCount: number;
      creditsCharged: number;
      data: { shorts: unknown[] };
    };
    assert.equal(raw.itemCount, 12);
    assert.equal(raw.data.shorts.length, 12);
    await check('22-try-it-json');

    // A bad address: the API's message, not a blank screen.
    await page.getByLabel('Channel URL').fill('https://example.com/not-a-channel');
    await page.getByRole('button', { name: 'Run request' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /channel/i })
      .waitFor();
  });

  it('the requests log: key, mode, delivery state, refused calls, filters and older pages', async () => {
    await nav('Requests').click();
    await heading('Requests').waitFor();
    const table = page.getByRole('table').last();
    await table.getByRole('row').nth(1).waitFor();
    assert.equal(await table.locator('tbody tr').count(), 50);
    // The webhook request whose every delivery failed says so (it is not just "Completed").
    const broken = table
      .locator('tbody tr')
      .filter({ hasText: 'Failed' })
      .filter({ hasText: 'gave up after 2 attempts' });
    assert.equal(await broken.count(), 1);
    assert.equal(await table.locator('tbody tr').filter({ hasText: 'Delivered' }).count(), 1);
    assert.ok(
      (await table.locator('tbody tr').filter({ hasText: 'backend' }).count()) > 10,
      'the key column names the key',
    );
    assert.ok((await table.locator('tbody tr').first().textContent())!.match(/just now|minute/), 'relative time');
    // Refused calls are counted: 3 invalid bodies today.
    await page.getByText(/3 calls were refused today/).waitFor();
    await page.getByText(/Last 30 days: 3 refused/).click();
    await page.getByRole('cell', { name: 'VALIDATION_FAILED' }).waitFor();
    await check('23-requests-log');

    // Older pages: 57 requests recorded (52 + 2 webhooks + 1 not found + the Try it run + its bad address, recorded as failed).
    await page.getByRole('button', { name: 'Show 50 older' }).click();
    await page.getByText(/57 shown — that is all/).waitFor();
    assert.equal(await table.locator('tbody tr').count(), 57);

    // Filters: webhook requests whose delivery failed.
    await page.getByLabel('Mode').selectOption('webhook');
    await waitFor('2 webhook rows', async () => (await table.locator('tbody tr').count()) === 2);
    await page.getByLabel('Delivery').selectOption('failed');
    await waitFor('1 failed delivery', async () => (await table.locator('tbody tr').count()) === 1);
    await page.getByLabel('Channel contains').fill('no-such');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No request matches these filters.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Key').selectOption({ label: 'Dashboard session' });
    await waitFor("the session's rows", async () => (await table.locator('tbody tr').count()) === 2);
    await check('24-requests-log-filtered');
    await page.getByRole('button', { name: 'Clear filters' }).click();
  });

  it("the request detail shows the next retry or the gave-up state and each attempt's headers and answer", async () => {
    const table = page.getByRole('table').last();
    await table.locator('tbody tr').filter({ hasText: 'gave up' }).getByRole('link').click();
    await page.getByText(/Gave up: attempt 2 was the last/).waitFor();
    await page.getByText('Headers and response').first().click();
    await page
      .getByText(/webhook-signature: v1,/)
      .first()
      .waitFor();
    await check('25-request-detail-gave-up');
  });

  it('webhooks: send a signed test event and read the delivery log', async () => {
    await nav('Webhooks').click();
    await heading('Webhooks').waitFor();
    await page.getByLabel('Receiver URL').fill(ok.url('/hooks/test'));
    await page.getByRole('button', { name: 'Send test event' }).click();
    const result = page.getByRole('status').filter({ hasText: 'Webhook id' });
    await result.getByText('Delivered').waitFor();
    await result.getByText(/HTTP 204 in \d+ ms/).waitFor();
    const received = ok.deliveries.at(-1)!;
    assert.equal(JSON.parse(received.body).type, 'webhook.test');
    assert.match(String(received.headers['webhook-signature']), /^v1,/);
    await result.getByText('Headers and response').click();

    const log = page.getByRole('region', { name: 'Delivery log' });
    await log.getByRole('row').nth(1).waitFor();
    assert.equal(
      await log.locator('tbody tr').count(),
      3,
      'the delivered one and both failed attempts (test events are not logged)',
    );
    await log.locator('tbody tr').filter({ hasText: 'gave up' }).waitFor();
    await log.getByText('Headers and response').first().click();
    await check('26-webhooks-tools');

    await page.getByLabel('Receiver URL').fill(failing.url('/hooks/test'));
    await page.getByRole('button', { name: 'Send test event' }).click();
    await result.getByText(/HTTP 500 in \d+ ms/).waitFor();
    await result.getByText('The receiver answered HTTP 500.').waitFor();
  });

  it("webhooks: the destinations table shows each URL's health", async () => {
    const table = page.getByRole('region', { name: 'Destinations' });
    await table.getByRole('button', { name: 'Refresh' }).click();
    const healthy = table.locator('tbody tr').filter({ hasText: '/hooks/shorts' });
    const broken = table.locator('tbody tr').filter({ hasText: '/hooks/broken' });
    await healthy.getByText('Healthy').waitFor();
    await healthy.getByText('100 %').waitFor();
    await broken.getByText('Failing').waitFor();
    await broken.getByText('0 %').waitFor();
    await broken.getByText('The receiver answered HTTP 500.').waitFor();
    assert.equal(await broken.getByRole('cell', { name: '2', exact: true }).count(), 1, 'two failures in a row');
    assert.equal(await broken.getByText('never').count(), 1, 'no success yet');
    assert.equal(await table.locator('tbody tr').count(), 2, 'test events are not destinations until delivered to');
    await check('27-webhooks-destinations');
  });

  it('had no uncaught errors and no CSP violations', () => {
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(cspViolations, []);
  });
});
