// End-to-end: the dashboard in a real headless Chromium against the real server (a child process)
// and the fake YouTube platform. Needs `vite build web` (run here when web/dist is missing) and
// Chromium at /usr/bin/chromium (otherwise the suite is skipped: apt-get install -y chromium).
//
//   node --test test-e2e/dashboard.test.ts        (npm run test:e2e)
//
// Every view is checked with axe (0 violations, light and dark) and photographed at 1280×800 and
// 375×812 (test-output/screenshots/).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { startFakePlatform } from '../src/fake-platform/server.ts';
import { fakeEnv } from '../test/helpers/harness.ts';
import { checkScreen, skipWithoutBrowser } from '../support/browser.ts';
import {
  ensureDashboardBuilt,
  openBrowser,
  startDashboardService,
  type DashboardService,
} from '../support/dashboard-e2e.ts';
import { startReceiver, type Delivery } from '../support/webhook-receiver.ts';

const EMAIL = 'e2e@example.com';
const PASSWORD = 'correct horse battery staple';
const CHANNEL_URL = 'https://www.youtube.com/@demo';

const skip = skipWithoutBrowser();

type FakePlatform = Awaited<ReturnType<typeof startFakePlatform>>;
async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`timed out waiting for ${what}${lastError ? `: ${(lastError as Error).message}` : ''}`);
}

describe('dashboard (browser end-to-end)', { skip }, () => {
  let fake: FakePlatform;
  let service: DashboardService | undefined;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  let receiverUrl: string;
  let deliveries: Delivery[] = [];
  let pageErrors: string[] = [];
  const cspViolations: string[] = [];

  let apiKey = '';
  let syncRequestId = '';
  let webhookRequestId = '';

  /** The current view: axe (0 violations) in light and dark, screenshots at desktop and phone width. */
  const screenshot = (name: string) => checkScreen(page, name);

  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true });
  const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });

  function shorts(key: string, body: Record<string, unknown>) {
    return fetch(`${base}/api/youtube/shorts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  before(
    async () => {
      await ensureDashboardBuilt();
      fake = await startFakePlatform();
      // A webhook receiver that records what it gets and answers 204.
      receiver = await startReceiver(() => ({ status: 204 }));
      deliveries = receiver.deliveries;
      receiverUrl = receiver.url('/hooks/shorts');
      service = await startDashboardService({
        users: [{ email: EMAIL, password: PASSWORD, credits: 100 }],
        env: {
          YOUTUBE_API_KEY: 'fake-api-key',
          ...fakeEnv(fake),
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        },
      });
      base = service.base;

      ({ browser, context, page, pageErrors } = await openBrowser());
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
      // The dashboard runs under the Content-Security-Policy: every violation is reported here.
      await context.exposeBinding('reportCspViolation', (_source, text: string) => cspViolations.push(text));
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) =>
          (window as unknown as { reportCspViolation(t: string): void }).reportCspViolation(
            `${e.violatedDirective} ${e.blockedURI}`,
          ),
        );
      });
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
    },
    { timeout: 180_000 },
  );

  after(async () => {
    await browser?.close().catch(() => {});
    await service?.stop();
    await receiver?.close();
    await fake?.close();
  });

  it('redirects / to the dashboard and refuses a wrong password', async () => {
    await page.goto(`${base}/`);
    assert.equal(new URL(page.url()).pathname, '/dashboard/');
    await heading('Sign in').waitFor();
    await screenshot('01-login');

    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Email or password is incorrect.' }).waitFor();
    await checkScreen(page, '01-login-refused', { screenshots: false });
  });

  it('signs in and shows the account', async () => {
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Account').waitFor();
    assert.equal(await page.getByTestId('credit-balance').textContent(), '100');
    await page.getByRole('button', { name: 'Log out' }).waitFor();
  });

  it('creates an API key and shows its secret once', async () => {
    await nav('API keys').click();
    await heading('API keys').waitFor();
    await page.getByLabel('Key name').fill('e2e key');
    await page.getByRole('button', { name: 'Create key' }).click();

    const secret = page.getByLabel('New API key');
    apiKey = await secret.inputValue();
    assert.match(apiKey, /^csk_[0-9A-Za-z]{30,}$/);
    await page.getByText('it will not be shown again').waitFor();
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('Copied', { exact: true }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), apiKey);

    const row = page.getByRole('row').filter({ hasText: 'e2e key' });
    await row.getByText('Active').waitFor();
    assert.ok((await row.textContent())!.includes(apiKey.slice(0, 12)), 'the list shows the key prefix');
    assert.deepEqual(
      await row.getByRole('cell').nth(2).locator('code').allTextContents(),
      ['shorts:write', 'shorts:read', 'account:read'],
      'and its permissions',
    );
    await screenshot('02-keys-created');
  });

  it('the new key works against the API: 200 with 120 shorts for 3 credits', async () => {
    const response = await shorts(apiKey, { channelUrl: CHANNEL_URL });
    const body = (await response.json()) as {
      success: boolean;
      requestId: string;
      itemCount: number;
      creditsCharged: number;
      data: { channel: { id: string }; shorts: unknown[] };
    };
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.equal(body.success, true);
    assert.equal(body.data.shorts.length, 120);
    assert.equal(body.itemCount, 120);
    assert.equal(body.creditsCharged, 3);
    syncRequestId = body.requestId;
  });

  it('revokes the key after a confirmation; the API then answers 401', async () => {
    await page.reload(); // the secret is gone after a reload, the key's "last used" is filled in
    await heading('API keys').waitFor();
    assert.equal(await page.getByLabel('New API key').count(), 0, 'the secret is not shown again');
    const row = page.getByRole('row').filter({ hasText: 'e2e key' });
    await row.waitFor();

    await page.getByRole('button', { name: 'Revoke e2e key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “e2e key”?' });
    await dialog.waitFor();
    await screenshot('03-keys-revoke-dialog');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('status').filter({ hasText: 'was revoked' }).waitFor();
    // Revoked keys are hidden unless asked for.
    await row.waitFor({ state: 'detached' });
    // The button that opened the dialog went with its row: focus is on the main region, not lost to the body.
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
    await page.getByRole('checkbox', { name: /Show revoked keys/ }).check();
    await row.getByText('Revoked', { exact: true }).waitFor();

    // Revocation is immediate on one instance (documented as "within a second" across instances).
    const status = await waitFor(
      '401 for the revoked key',
      async () => {
        const response = await shorts(apiKey, { channelUrl: CHANNEL_URL });
        const body = (await response.json()) as { success?: boolean; error?: string };
        return response.status === 401 ? { status: response.status, body } : undefined;
      },
      2_000,
      100,
    );
    assert.equal(status.body.success, false);
    assert.match(status.body.error ?? '', /^[A-Z_]+$/);
    await screenshot('04-keys-revoked');
  });

  it('a key created with fewer permissions is refused elsewhere (403) and shows its permissions', async () => {
    await page.getByLabel('Key name').fill('read-only key');
    await page.getByRole('checkbox', { name: /shorts:write/ }).uncheck();
    await page.getByRole('checkbox', { name: /shorts:read/ }).uncheck();
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByLabel('New API key').inputValue();
    const row = page.getByRole('row').filter({ hasText: 'read-only key' });
    assert.equal((await row.getByRole('cell').nth(2).textContent())!.trim(), 'account:read');
    const refused = await shorts(key, { channelUrl: CHANNEL_URL });
    assert.equal(refused.status, 403);
    assert.match(((await refused.json()) as { message: string }).message, /scope "shorts:write"/);
    assert.equal((await fetch(`${base}/accounts`, { headers: { authorization: `Bearer ${key}` } })).status, 200);
  });

  it('lists the request and opens its detail with the result JSON', async () => {
    await nav('Requests').click();
    await heading('Requests').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'youtube.com/@demo' });
    await row.first().waitFor();
    const text = (await row.first().textContent()) ?? '';
    assert.match(text, /Sync/);
    assert.match(text, /Completed/);
    assert.match(text, /120/);
    await screenshot('05-requests');

    await row.first().getByRole('link').click();
    await heading(/^Request /).waitFor();
    assert.equal(new URL(page.url()).hash, `#/requests/${syncRequestId}`);
    const json = page.locator('.json-tree');
    await json.waitFor();
    const tree = (await json.textContent()) ?? '';
    assert.ok(tree.includes('"itemCount"') && tree.includes('120'), `result JSON shown: ${tree.slice(0, 200)}`);
    await page.getByText('Raw JSON').click();
    const raw = JSON.parse((await page.locator('pre.raw').textContent()) ?? 'null') as {
      itemCount: number;
      creditsCharged: number;
    };
    assert.equal(raw.itemCount, 120);
    assert.equal(raw.creditsCharged, 3);
    assert.equal(
      await page.getByRole('button', { name: 'Redeliver' }).count(),
      0,
      'no Redeliver for a synchronous request',
    );
    await screenshot('06-request-detail-sync');
  });

  it('the account shows the reduced balance, the charge and the usage chart', async () => {
    await nav('Account').click();
    await heading('Account').waitFor();
    assert.equal(await page.getByTestId('credit-balance').textContent(), '97');
    const charge = page.getByRole('row').filter({ hasText: syncRequestId });
    assert.match((await charge.textContent()) ?? '', /−3/);
    await page.getByRole('img', { name: 'Requests per day, last 30 days' }).waitFor();
    await page.getByText('1 request in the last 30 days').waitFor();
    await screenshot('07-account');
  });

  it('a webhook request is delivered, signed with the secret the Webhooks page reveals', async () => {
    // A second key, used only for this.
    await nav('API keys').click();
    await page.getByLabel('Key name').fill('webhook key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByLabel('New API key').inputValue();

    const response = await shorts(key, { channelUrl: CHANNEL_URL, webhookUrl: receiverUrl });
    const accepted = (await response.json()) as { success: boolean; requestId: string; status: string };
    assert.equal(response.status, 202, JSON.stringify(accepted));
    assert.equal(accepted.status, 'processing');
    webhookRequestId = accepted.requestId;
    await waitFor('the webhook delivery', async () => deliveries.length >= 1, 60_000);

    await nav('Webhooks').click();
    await heading('Webhooks').waitFor();
    const secretEl = page.locator('#webhook-secret-value');
    assert.match((await secretEl.textContent()) ?? '', /^\s*whsec_•+\s*$/, 'hidden by default');
    await page.getByRole('button', { name: 'Reveal' }).click();
    const secret = ((await secretEl.textContent()) ?? '').trim();
    assert.match(secret, /^whsec_/);
    const first = deliveries[0]!;
    const headers = {
      'webhook-id': String(first.headers['webhook-id']),
      'webhook-timestamp': String(first.headers['webhook-timestamp']),
      'webhook-signature': String(first.headers['webhook-signature']),
    };
    const event = new Webhook(secret).verify(first.body, headers) as {
      type: string;
      data: { requestId: string; itemCount: number };
    };
    assert.equal(event.type, 'shorts.completed');
    assert.equal(event.data.requestId, webhookRequestId);
    assert.equal(event.data.itemCount, 120);
    await page.getByRole('button', { name: 'Hide' }).click();
    await screenshot('08-webhooks');

    // Rotate: confirm, and the previous secret keeps signing.
    await page.getByRole('button', { name: 'Rotate…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await dialog.getByText('keeps signing too for an overlap period').waitFor();
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('status').filter({ hasText: 'The previous secret keeps signing too until' }).waitFor();
    await page.getByRole('heading', { name: 'Previous secrets still signing' }).waitFor();
    await page.getByRole('button', { name: 'Reveal' }).click();
    const rotated = ((await secretEl.textContent()) ?? '').trim();
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, secret);

    // Redeliver from the request's page: same webhook-id, signed by both secrets.
    await page.goto(`${base}/dashboard/#/requests/${webhookRequestId}`);
    await heading(/^Request /).waitFor();
    // The stored result's tree renders a node's children the first time it is opened (JsonTree):
    // the 120 shorts are not in the page until then; closed again, they stay, hidden.
    const shortsSummary = page.locator('.json-tree summary').filter({ hasText: /^\s*"shorts"\s*:/ });
    const shortsNode = shortsSummary.locator('xpath=..');
    await shortsSummary.waitFor();
    assert.equal(await shortsNode.locator('li').count(), 0, 'a node never opened has no children in the page');
    await shortsSummary.click();
    const items = shortsNode.locator(':scope > ul > li');
    await waitFor(
      "the opened node's 120 items",
      async () => (await items.count()) === 120 && (await items.first().isVisible()),
    );
    await items.first().locator('summary').first().click(); // the first short, opened
    await shortsSummary.click();
    await waitFor('the node closed again', async () => !(await items.first().isVisible()));
    assert.equal(await items.count(), 120, 'closed again, its children stay in the page');
    await shortsSummary.click();
    await waitFor('reopened', async () => await items.first().isVisible());
    assert.equal(
      await items.first().locator(':scope > details').getAttribute('open'),
      '',
      'the first short is still open',
    );
    await shortsSummary.click();
    const attempts = page.getByRole('region', { name: 'Webhook deliveries' }).getByRole('row');
    await attempts.filter({ hasText: 'Delivered' }).first().waitFor();
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByRole('status').filter({ hasText: 'Redelivery queued' }).waitFor();
    await waitFor('the redelivery', async () => deliveries.length >= 2, 30_000);
    await waitFor(
      'two attempts in the table',
      async () => (await attempts.filter({ hasText: 'Delivered' }).count()) >= 2,
      15_000,
    );
    const second = deliveries[1]!;
    assert.equal(second.headers['webhook-id'], first.headers['webhook-id']);
    const secondHeaders = {
      'webhook-id': String(second.headers['webhook-id']),
      'webhook-timestamp': String(second.headers['webhook-timestamp']),
      'webhook-signature': String(second.headers['webhook-signature']),
    };
    new Webhook(secret).verify(second.body, secondHeaders);
    new Webhook(rotated).verify(second.body, secondHeaders);
    await screenshot('09-request-detail-webhook');
  });

  it('the quick start has a ready curl for this origin', async () => {
    await nav('Quick start').click();
    await heading('Quick start').waitFor();
    const command = (await page.locator('pre.code').first().textContent()) ?? '';
    assert.ok(command.includes(`curl -X POST ${base}/api/youtube/shorts`), command);
    assert.ok(command.includes('Content-Type: application/json'), command);
    assert.ok(command.includes(`'{"channelUrl":"${CHANNEL_URL}"}'`), command);
    // The key created in this tab (still active) is filled in; otherwise the placeholder.
    assert.match(command, /Authorization: Bearer csk_[0-9A-Za-z]+"/);
    await screenshot('10-quickstart');
  });

  it('signs out when the session expires (timer), on log out, and when the server refuses the token (401)', async () => {
    const KEY = 'channel-shorts.session';
    // The expiry timer: the same token, made to expire in eight seconds (room for a reload on a
    // loaded machine: a session already expired when the page reads it is dropped without the notice).
    await page.evaluate((key) => {
      const stored = JSON.parse(sessionStorage.getItem(key)!) as { expiresAt: string };
      stored.expiresAt = new Date(Date.now() + 8000).toISOString();
      sessionStorage.setItem(key, JSON.stringify(stored));
    }, KEY);
    await page.reload();
    await heading('Quick start').waitFor();
    await page.getByText('Your session expired, please sign in again.').waitFor({ timeout: 30_000 });
    await heading('Sign in').waitFor();
    assert.equal(await page.evaluate((key) => sessionStorage.getItem(key), KEY), null);

    // Signing in again returns to the same view; then log out.
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Quick start').waitFor();
    await page.getByRole('button', { name: 'Log out' }).click();
    await heading('Sign in').waitFor();
    await page.getByText('You have signed out.').waitFor();

    // A token the server refuses (say, signed by a previous secret): the first API call's 401.
    await page.evaluate((key) => {
      sessionStorage.setItem(
        key,
        JSON.stringify({
          token: 'not-a-valid-token',
          userId: 'x',
          email: 'someone@example.com',
          expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        }),
      );
    }, KEY);
    await page.goto(`${base}/dashboard/#/requests`);
    await page.reload(); // a same-document navigation would not re-read the storage
    await heading('Sign in').waitFor();
    await page.getByText('Your session expired, please sign in again.').waitFor();
    await screenshot('11-session-expired');
  });

  it('worked under a CSP without inline scripts, and the CSP is enforced', async () => {
    const res = await fetch(`${base}/dashboard/`);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.deepEqual(cspViolations, [], 'the dashboard needed nothing the policy forbids');
    await page.goto(`${base}/dashboard/`);
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.body.append(script);
      await new Promise((r) => setTimeout(r, 100));
      return (window as unknown as { inlineRan?: boolean }).inlineRan === true;
    });
    assert.equal(ran, false, 'an injected inline script does not run');
    const reported = () => (cspViolations as string[]).some((v) => v.startsWith('script-src'));
    await waitFor('the violation report', async () => reported(), 5000, 50);
  });

  it('the API docs render under the same policy', async () => {
    const before = cspViolations.length;
    await page.goto(`${base}/docs/`);
    await page.locator('.swagger-ui .info .title').waitFor();
    await page.locator('.opblock').first().waitFor();
    assert.deepEqual(cspViolations.slice(before), []);
  });

  it('had no uncaught errors in the page', () => {
    assert.deepEqual(pageErrors, []);
  });
});
