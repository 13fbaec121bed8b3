// Regression tests for the security probe findings that are not covered by the generated route suite:
// 6 (parser-level errors on a real socket), 7 (webhook secret rotation), 8 (redelivery),
// 9 (security headers, CORS), 10 (query strings in logs), 11 (generic delivery errors),
// 12 (SSRF address forms), 13 (/readyz and /metrics), 15 (slow clients).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { startTestApp, createUser, bearer, clearOfWindowEnd } from '../helpers/test-app.ts';
import { harness, useHarness } from '../helpers/harness.ts';
import { freePort } from '../../support/child-service.ts';
import { startReceiver } from '../../support/webhook-receiver.ts';
import { buildApp } from '../../src/app.ts';
import { fastifyOptions } from '../../src/http/logging.ts';
import { insertRequest } from '../../src/domain/requests/request-store.ts';
import { newRequestId } from '../../src/http/request-id.ts';
import { enqueueDelivery } from '../../src/jobs/webhook-delivery-job.ts';
import { QUEUES } from '../../src/infra/queue.ts';
import { isForbiddenAddress } from '../../src/domain/webhooks/address-policy.ts';
import { assertAcceptableWebhookUrl } from '../../src/domain/webhooks/webhook-url.ts';
import { deliverOnce } from '../../src/domain/webhooks/deliver-once.ts';
import { createWebhookAgent } from '../../src/domain/webhooks/guarded-agent.ts';
import { AppError } from '../../src/errors.ts';

/** Sends raw bytes to a server and collects what comes back until the server closes. */
function raw(
  port: number,
  data: string,
  options: { keepOpenMs?: number } = {},
): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let text = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(data));
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - started }));
    if (options.keepOpenMs)
      setTimeout(() => {
        socket.destroy();
        reject(new Error(`still open after ${options.keepOpenMs} ms`));
      }, options.keepOpenMs).unref();
  });
}

function jsonOf(response: string): { status: number; body: Record<string, unknown>; headers: string } {
  const [head, body] = response.split('\r\n\r\n');
  return { status: Number(head!.split(' ')[1]), body: JSON.parse(body!), headers: head! };
}

describe('parser-level errors and slow clients on a real socket', () => {
  const t = useHarness({ fake: false, env: { HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' } });
  let port: number;
  before(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });

  for (const [label, request, status, code] of [
    ['malformed HTTP', 'NOT HTTP AT ALL\r\n\r\n', 400, 'BAD_REQUEST'],
    [
      'headers over 16 KiB',
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'HEADERS_TOO_LARGE',
    ],
  ] as const) {
    it(`${label} → ${status} in the error body with X-Request-Id`, async () => {
      const { text } = await raw(port, request, { keepOpenMs: 5000 });
      const res = jsonOf(text);
      assert.equal(res.status, status, text);
      assert.equal(res.body.error, code);
      assert.deepEqual(Object.keys(res.body).sort(), ['error', 'message', 'requestId']);
      assert.match(res.headers, new RegExp(`X-Request-Id: ${res.body.requestId}`, 'i'));
    });
  }

  it('a client that never finishes its headers is cut after HTTP_HEADERS_TIMEOUT_MS with 408', async () => {
    const { text, closedAfterMs } = await raw(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n', { keepOpenMs: 5000 });
    // 1 s plus the 0.5 s check interval; the bound leaves room for a loaded test machine and still
    // tells a cut from the client's own 5 s.
    assert.ok(closedAfterMs >= 900 && closedAfterMs < 3000, `closed after ${closedAfterMs} ms`);
    assert.equal(jsonOf(text).body.error, 'REQUEST_TIMEOUT');
  });

  it('a client that trickles its body is cut after HTTP_REQUEST_TIMEOUT_MS', async () => {
    const started = Date.now();
    const closed = await new Promise<number>((resolve) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(
          'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
        ),
      );
      const timer = setInterval(() => socket.writable && socket.write(' '), 200);
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        resolve(Date.now() - started);
      });
      setTimeout(() => socket.destroy(), 6000).unref();
    });
    // 2 s plus the 0.5 s check interval; generous for a loaded test machine (it was 90 s with a 30 s setting).
    assert.ok(closed >= 1900 && closed < 5000, `closed after ${closed} ms`);
  });
});

describe('webhook secrets, redelivery', () => {
  const t = useHarness(() => {
    // Rotations are counted per clock hour: the service's clock keeps a minute clear of the hour's end.
    const skew = clearOfWindowEnd(Date.now(), 3600, 60_000);
    return { fake: false, env: { WEBHOOK_SECRET_ROTATIONS_PER_HOUR: '3' }, now: () => Date.now() + skew };
  });

  it('at most two secrets sign, and rotation is rate limited', async () => {
    const user = await createUser(t);
    const rotate = () =>
      t.app.inject({ method: 'POST', url: '/accounts/webhook-secret/rotate', headers: bearer(user.token) });
    const created: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await rotate();
      assert.equal(res.statusCode, 200, res.body);
      created.push(res.json().secret);
    }
    const secrets = (
      await t.app.inject({ method: 'GET', url: '/accounts/webhook-secret', headers: bearer(user.token) })
    ).json().secrets;
    assert.deepEqual(
      secrets.map((s: { secret: string }) => s.secret),
      [created[2], created[1]],
      'the newest and the one it replaced',
    );
    assert.ok(secrets[1].expiresAt, 'the replaced one has an end');
    const limited = await rotate();
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.json().error, 'RATE_LIMITED');
    assert.ok(Number(limited.headers['retry-after']) > 0);
  });

  it('redeliver answers 409 DELIVERY_IN_PROGRESS while one is queued or running, and replaces a later retry', async () => {
    const user = await createUser(t);
    const id = newRequestId();
    await insertRequest(
      t.services.db,
      {
        id,
        accountId: user.id,
        apiKeyId: null,
        channelUrl: 'https://www.youtube.com/@demo',
        oldestDate: null,
        limit: null,
        webhookUrl: 'http://127.0.0.1:9/hook',
      },
      {
        status: 'completed',
        httpStatus: 200,
        itemCount: 0,
        creditsCharged: 1,
        errorCode: null,
        result: { success: true },
        quotaUnits: 0,
      },
    );
    const redeliver = () =>
      t.app.inject({ method: 'POST', url: `/api/youtube/shorts/${id}/redeliver`, headers: bearer(user.key) });
    // Within the redelivery limit of a minute (10, the calls below included): one is queued, the others find it due.
    const burst = await Promise.all(Array.from({ length: 8 }, redeliver));
    assert.equal(burst.filter((r) => r.statusCode === 202).length, 1, burst.map((r) => r.statusCode).join(','));
    const busy = burst.filter((r) => r.statusCode === 409);
    assert.equal(busy.length, 7);
    assert.equal(busy[0]!.json().error, 'DELIVERY_IN_PROGRESS');
    // The queued job runs (fetched = active): still in progress.
    const [job] = await t.services.boss.fetch(QUEUES.webhookDelivery);
    assert.ok(job);
    assert.equal((await redeliver()).statusCode, 409);
    await t.services.boss.complete(QUEUES.webhookDelivery, job.id);
    // Finished: a new redelivery is accepted. A retry scheduled an hour out is replaced, not stacked.
    await enqueueDelivery(t.services.boss, null, { requestId: id, attempt: 2 }, 3600);
    const again = await redeliver();
    assert.equal(again.statusCode, 202, again.body);
    const pending = (await t.services.boss.findJobs(QUEUES.webhookDelivery, { key: id })).filter(
      (j) => j.state === 'created',
    );
    assert.equal(pending.length, 1, 'one pending delivery');
    assert.ok(pending[0]!.startAfter.getTime() <= Date.now() + 1000, 'and it is the immediate one');
  });
});

describe('security headers and CORS', () => {
  const t = useHarness({ fake: false });
  const withCors = useHarness({ fake: false, env: { CORS_ORIGINS: 'https://app.example.com' } });
  const withFake = useHarness({});
  // Only its headers are read: nothing is fetched from YouTube.
  const withYoutube = useHarness({ fake: false, env: { YOUTUBE_INNERTUBE_BASE_URL: 'https://www.youtube.com' } });

  it('the dashboard and the docs carry CSP without inline scripts, frame protection, nosniff and Referrer-Policy', async () => {
    for (const url of ['/dashboard/', '/docs/', '/docs/static/index.html', '/openapi.json']) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.ok(res.statusCode === 200 || res.statusCode === 302, `${url}: ${res.statusCode}`);
      const csp = String(res.headers['content-security-policy']);
      assert.match(csp, /script-src 'self'(;|$)/, `${url}: ${csp}`);
      assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
    }
  });

  it("allows images from the configured upstream's origin only when it is not YouTube's (a fake's placeholders)", async () => {
    const imgSrc = (csp: string) => /img-src ([^;]*)/.exec(csp)?.[1] ?? '';
    const youtube = String(
      (await withYoutube.app.inject({ method: 'GET', url: '/dashboard/' })).headers['content-security-policy'],
    );
    assert.equal(
      imgSrc(youtube),
      "'self' data: https://i.ytimg.com https://yt3.ggpht.com https://yt3.googleusercontent.com",
    );
    const local = String(
      (await withFake.app.inject({ method: 'GET', url: '/dashboard/' })).headers['content-security-policy'],
    );
    assert.match(imgSrc(local), / http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('CORS is off by default and allows only the listed origins when configured', async () => {
    const origin = { origin: 'https://app.example.com' };
    const off = await t.app.inject({ method: 'GET', url: '/healthz', headers: origin });
    assert.equal(off.headers['access-control-allow-origin'], undefined);
    const allowed = await withCors.app.inject({ method: 'GET', url: '/healthz', headers: origin });
    assert.equal(allowed.headers['access-control-allow-origin'], 'https://app.example.com');
    const other = await withCors.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { origin: 'https://evil.example' },
    });
    assert.equal(other.headers['access-control-allow-origin'], undefined);
    const preflight = await withCors.app.inject({
      method: 'OPTIONS',
      url: '/accounts',
      headers: { ...origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(preflight.statusCode, 204);
    assert.match(String(preflight.headers['access-control-allow-headers']), /authorization/i);
    // Every method the API's routes use can be sent from an allowed origin.
    const used = new Set(withCors.app.printRoutes({ commonPrefix: false }).match(/\b(GET|POST|PUT|PATCH|DELETE)\b/g));
    const allowedMethods = String(preflight.headers['access-control-allow-methods']).split(/,\s*/);
    for (const method of used)
      assert.ok(allowedMethods.includes(method), `${method} is allowed (${allowedMethods.join(', ')})`);
    assert.ok(used.has('PATCH') && used.has('PUT'));
  });

  it('refuses a malformed CORS_ORIGINS at start', async () => {
    await assert.rejects(startTestApp('pglite', { CORS_ORIGINS: '*' }), /CORS_ORIGINS/);
  });
});

describe('logs', () => {
  it('query strings are not logged', async (ctx) => {
    const t = await harness(ctx, { fake: false });
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = await buildApp(t.services, fastifyOptions({ level: 'info', stream }, t.config));
    t.defer(() => app.close());
    const secret = 'csk_thisIsASecretPassedInTheQueryString123';
    await app.inject({ method: 'GET', url: `/accounts?api_key=${secret}` });
    await app.inject({ method: 'GET', url: `/nowhere?token=${secret}` });
    // The WebSub callback's token is a secret too.
    const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    await app.inject({ method: 'GET', url: `/websub/youtube/UCaaaaaaaaaaaaaaaaaaaaaa/${token}?hub.mode=subscribe` });
    const text = lines.join('');
    assert.ok(text.includes('/accounts?[redacted]'), text);
    assert.ok(text.includes('/websub/youtube/UCaaaaaaaaaaaaaaaaaaaaaa/[redacted]?[redacted]'), text);
    assert.ok(!text.includes(secret), 'the credential is not in the logs');
    assert.ok(!text.includes(token), 'the callback token is not in the logs');
  });
});

describe('webhook destinations', () => {
  it('refuses IPv4-compatible, SIIT and mapped forms of private addresses; allows public ones', () => {
    for (const host of [
      '[::127.0.0.1]',
      '[::7f00:1]',
      '[::ffff:0:127.0.0.1]',
      '[::ffff:0:7f00:1]',
      '[::ffff:127.0.0.1]',
      '[::8.8.8.8]',
      '[64:ff9b::10.0.0.1]',
      '[::]',
      '[::1]',
      '127.1',
      '0.0.0.0',
      '[fe80::1]',
    ]) {
      assert.equal(isForbiddenAddress(new URL(`http://${host}/`).hostname), true, host);
    }
    for (const host of ['8.8.8.8', '[2606:4700:4700::1111]', '[::ffff:8.8.8.8]', '[64:ff9b::8.8.8.8]']) {
      assert.equal(isForbiddenAddress(new URL(`http://${host}/`).hostname), false, host);
    }
  });

  it('refuses localhost with a trailing dot and the new forms at request time', () => {
    for (const url of [
      'http://localhost./x',
      'http://LOCALHOST../x',
      'http://app.localhost./x',
      'http://[::127.0.0.1]/x',
      'http://[::ffff:0:127.0.0.1]/x',
    ]) {
      assert.throws(
        () => assertAcceptableWebhookUrl(url, false),
        (e: unknown) => e instanceof AppError && e.code === 'UNSAFE_WEBHOOK_URL',
        url,
      );
    }
    assert.equal(assertAcceptableWebhookUrl('https://hooks.example.com/x', false).hostname, 'hooks.example.com');
  });

  it('customers see a generic reason; the DNS answer stays in the detail for the logs', async (ctx) => {
    const receiver = await startReceiver();
    const agent = createWebhookAgent({ allowPrivate: false, timeoutMs: 2000 });
    ctx.after(async () => {
      await agent.close();
      await receiver.close();
    });
    const port = new URL(receiver.url()).port;
    const base = {
      webhookId: 'msg_x',
      body: '{}',
      secrets: ['whsec_' + Buffer.alloc(32, 1).toString('base64')],
      agent,
      allowPrivate: false,
      timeoutMs: 2000,
    };
    const viaDns = await deliverOnce({ ...base, url: `http://localhost:${port}/hook` });
    assert.equal(viaDns.error, 'Destination not allowed.');
    assert.match(viaDns.detail ?? '', /forbidden address/);
    const literal = await deliverOnce({ ...base, url: `http://[::ffff:0:127.0.0.1]:${port}/hook` });
    assert.equal(literal.error, 'Destination not allowed.');
    const unknown = await deliverOnce({ ...base, url: 'http://does-not-exist.invalid/hook' });
    assert.equal(unknown.error, 'DNS lookup failed.');
    assert.equal(receiver.deliveries.length, 0, 'nothing reached the private receiver');
  });
});

describe('/readyz and /metrics', () => {
  const t = useHarness(async () => ({
    fake: false,
    env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}`, METRICS_TOKEN: 'metrics-token-0123456789' },
  }));

  it('/readyz names the store that is down, without internal error text', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(res.statusCode, 503);
    assert.deepEqual(res.json().checks.redis, { status: 'down' });
    assert.doesNotMatch(res.body, /ECONNREFUSED|127\.0\.0\.1|Error/);
  });

  it('/metrics needs the METRICS_TOKEN when one is set', async () => {
    for (const headers of [{}, bearer('wrong-token-0123456789x'), bearer('metrics-token-012345678')]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().error, 'UNAUTHORIZED');
    }
    const ok = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer('metrics-token-0123456789') });
    assert.equal(ok.statusCode, 200);
    assert.match(ok.body, /^# HELP /m);
  });
});
