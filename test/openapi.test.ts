import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createUser, bearer, PASSWORD, toMidMinute } from './helpers/test-app.ts';
import { harness, useHarness } from './helpers/harness.ts';
import { assertMatchesOpenApi, compileDocumentSchema } from './helpers/openapi-check.ts';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERROR_CATALOG } from '../src/errors.ts';
import { GUIDES } from '../src/http/openapi-guides.ts';
import { signPayload } from '../src/domain/webhooks/signing.ts';
import { ComponentCollector } from '../src/http/openapi-components.ts';
import { ErrorBody } from '../src/contract/common.ts';

describe('OpenAPI document and real responses', () => {
  // The fourth shorts call must meet the per-minute limit: the test moves the service's clock to 30 s
  // into a minute first, so the calls cannot straddle a boundary (with the real clock, a CI run saw a 200).
  let skew = 0;
  let doc: Parameters<typeof assertMatchesOpenApi>[0] & {
    openapi: string;
    components: { securitySchemes: Record<string, unknown> };
    webhooks: Record<string, unknown>;
  };
  const t = useHarness({ env: { RATE_LIMIT_PER_MINUTE: '3' }, now: () => Date.now() + skew });
  before(async () => {
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });

  it('is a valid OpenAPI 3.1 document with security schemes, webhooks and error responses', async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.components.securitySchemes.bearer);
    assert.ok(doc.webhooks['shorts.result']);
    assert.ok(doc.webhooks['batch.completed']);
    const shorts = doc.paths['/api/youtube/shorts']!.post!;
    for (const status of ['200', '202', '400', '401', '402', '403', '404', '429', '502', '503', '504'])
      assert.ok(shorts.responses[status], `documents ${status}`);
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(docs.statusCode, 200);
    assert.match(docs.body, /swagger/i);
  });

  it('real responses match the documented schemas', async () => {
    skew += toMidMinute(Date.now() + skew);
    const user = await createUser(t, 100);
    const check = (method: string, route: string, res: Awaited<ReturnType<typeof t.app.inject>>) =>
      assertMatchesOpenApi(doc, method, route, res);
    check(
      'POST',
      '/auth/login',
      await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: user.email, password: PASSWORD } }),
    );
    check(
      'POST',
      '/auth/login',
      await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: user.email, password: 'wrong-password' },
      }),
    );
    check(
      'POST',
      '/keys',
      await t.app.inject({ method: 'POST', url: '/keys', headers: bearer(user.token), payload: { name: 'doc' } }),
    );
    check('GET', '/keys', await t.app.inject({ method: 'GET', url: '/keys', headers: bearer(user.token) }));
    check(
      'DELETE',
      '/keys/{id}',
      await t.app.inject({ method: 'DELETE', url: `/keys/${user.keyId}`, headers: bearer(user.token) }),
    );
    check('GET', '/accounts', await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.token) }));
    check('GET', '/accounts', await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer('junk') }));
    check(
      'GET',
      '/accounts/usage',
      await t.app.inject({ method: 'GET', url: '/accounts/usage', headers: bearer(user.token) }),
    );
    check(
      'GET',
      '/accounts/ledger',
      await t.app.inject({ method: 'GET', url: '/accounts/ledger', headers: bearer(user.token) }),
    );
    check(
      'GET',
      '/accounts/webhook-secret',
      await t.app.inject({ method: 'GET', url: '/accounts/webhook-secret', headers: bearer(user.token) }),
    );
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(user.token),
      payload: { channelUrl: 'https://www.youtube.com/@demo' },
    });
    assert.equal(ok.statusCode, 200);
    check('POST', '/api/youtube/shorts', ok);
    check(
      'POST',
      '/api/youtube/shorts',
      await t.app.inject({
        method: 'POST',
        url: '/api/youtube/shorts',
        headers: bearer(user.token),
        payload: { channelUrl: 'https://www.youtube.com/@sparse', webhookUrl: 'http://127.0.0.1:9/x' },
      }),
    );
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(user.token),
      payload: { channelUrl: 'https://www.youtube.com/@nobody-zzz' },
    });
    assert.equal(missing.statusCode, 404);
    check('POST', '/api/youtube/shorts', missing);
    const limited = await t.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(user.token),
      payload: { channelUrl: 'https://www.youtube.com/@demo' },
    });
    assert.equal(limited.statusCode, 429);
    check('POST', '/api/youtube/shorts', limited);
    check(
      'GET',
      '/api/youtube/shorts',
      await t.app.inject({ method: 'GET', url: '/api/youtube/shorts', headers: bearer(user.token) }),
    );
    check(
      'GET',
      '/api/youtube/shorts/{requestId}',
      await t.app.inject({
        method: 'GET',
        url: `/api/youtube/shorts/${ok.json().requestId}`,
        headers: bearer(user.token),
      }),
    );
    // Stored results, batches.
    const batchUser = await createUser(t, 100);
    const stored = await t.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(batchUser.key),
      payload: { channelUrl: 'https://www.youtube.com/@sparse', store: true, sort: 'oldest', maxDurationSeconds: 180 },
    });
    assert.equal(stored.statusCode, 200, stored.body);
    check('POST', '/api/youtube/shorts', stored);
    const items = async (url: string, status: number) => {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(batchUser.key) });
      assert.equal(res.statusCode, status, res.body);
      check('GET', '/api/youtube/shorts/{requestId}/items', res);
    };
    await items(`/api/youtube/shorts/${stored.json().requestId}/items?pageSize=2`, 200);
    await items(`/api/youtube/shorts/${ok.json().requestId}/items`, 404);
    await items(`/api/youtube/shorts/${stored.json().requestId}/items?cursor=x`, 400);
    const batch = await t.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts/batch',
      headers: bearer(batchUser.key),
      payload: { webhookUrl: 'http://127.0.0.1:9/x', items: [{ channelUrl: 'https://www.youtube.com/@sparse' }] },
    });
    assert.equal(batch.statusCode, 202, batch.body);
    check('POST', '/api/youtube/shorts/batch', batch);
    check(
      'POST',
      '/api/youtube/shorts/batch',
      await t.app.inject({
        method: 'POST',
        url: '/api/youtube/shorts/batch',
        headers: bearer(batchUser.key),
        payload: { webhookUrl: 'http://127.0.0.1:9/x', items: [] },
      }),
    );
    check(
      'GET',
      '/api/youtube/shorts/batch/{batchId}',
      await t.app.inject({
        method: 'GET',
        url: `/api/youtube/shorts/batch/${batch.json().batchId}`,
        headers: bearer(batchUser.key),
      }),
    );
    check(
      'GET',
      '/api/youtube/shorts/batch/{batchId}',
      await t.app.inject({
        method: 'GET',
        url: '/api/youtube/shorts/batch/bat_nothere',
        headers: bearer(batchUser.key),
      }),
    );
    check('GET', '/healthz', await t.app.inject({ method: 'GET', url: '/healthz' }));
    check('GET', '/readyz', await t.app.inject({ method: 'GET', url: '/readyz' }));
  });
});

type Media = { schema?: unknown; example?: unknown; examples?: Record<string, { value: unknown }> };
type Operation = {
  description?: string;
  'x-codeSamples'?: Array<{ lang: string; source: string }>;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
};
type Document = {
  info: { title: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
  components: { schemas: Record<string, unknown> };
};

describe('OpenAPI document: named shapes, examples, guides', () => {
  const t = useHarness({ env: { CREDITS_PER_BLOCK: '2', WEBHOOK_RETRY_SCHEDULE: '5,60,600' } });
  let doc: Document;
  before(async () => {
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ label: `${method.toUpperCase()} ${path}`, op })),
    );

  it('names every shape: responses refer to components by $ref', () => {
    for (const name of [
      'Account',
      'ApiKey',
      'CreatedKey',
      'LedgerEntry',
      'RequestSummary',
      'RequestDetail',
      'DeliveryAttempt',
      'Short',
      'Channel',
      'ShortsResult',
      'Error',
      'Failure',
      'ShortsWebhookPayload',
      'BatchWebhookPayload',
      'Pricing',
      'User',
      'Session',
    ]) {
      assert.ok(doc.components.schemas[name], `components.schemas.${name}`);
    }
    const ref = (path: string, method: string, status: string) =>
      (doc.paths[path]![method]!.responses[status]!.content!['application/json']!.schema as { $ref?: string }).$ref;
    assert.equal(ref('/accounts', 'get', '200'), '#/components/schemas/Account');
    assert.equal(ref('/accounts', 'get', '401'), '#/components/schemas/Error');
    assert.equal(ref('/api/youtube/shorts', 'post', '200'), '#/components/schemas/ShortsResult');
    assert.equal(ref('/api/youtube/shorts', 'post', '402'), '#/components/schemas/Failure');
    assert.equal(ref('/api/pricing', 'get', '200'), '#/components/schemas/Pricing');
  });

  it('query parameters with a default are optional; code samples fill in example ids and bodies the API accepts', async () => {
    const params = operations().flatMap(({ label, op }) =>
      (
        (op as { parameters?: Array<{ in: string; name: string; required?: boolean; schema?: { default?: unknown } }> })
          .parameters ?? []
      ).map((p) => ({ label, p })),
    );
    const defaulted = params.filter(({ p }) => p.in === 'query' && p.schema?.default !== undefined);
    assert.ok(defaulted.length >= 10);
    assert.deepEqual(
      defaulted.filter(({ p }) => p.required).map(({ label, p }) => `${label} ${p.name}`),
      [],
    );
    const watch = doc.paths['/api/youtube/watches/{watchId}']!.get!['x-codeSamples']![0]!.source;
    assert.match(watch, /\/api\/youtube\/watches\/wch_[a-z0-9]+/);
    // The operator's limits body example is one the API takes.
    const admin = await createUser(t, 0);
    await t.services.db.query("UPDATE accounts SET role = 'operator' WHERE id = $1", [admin.id]);
    const example = Object.values(
      doc.paths['/operator/users/{id}/limits']!.put!.requestBody!.content['application/json']!.examples!,
    )[0]!.value;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/operator/users/${admin.id}/limits`,
      headers: bearer(admin.token),
      payload: example as object,
    });
    assert.equal(res.statusCode, 200, res.body);
  });

  it('every operation has named responses with examples, and a request body example; every example matches its schema', () => {
    const checked: string[] = [];
    const checkMedia = (label: string, media: Media) => {
      const examples = media.examples
        ? Object.entries(media.examples).map(([name, e]) => [name, e.value] as const)
        : media.example !== undefined
          ? [['example', media.example] as const]
          : [];
      assert.ok(examples.length > 0, `${label}: has examples`);
      const validator = compileDocumentSchema(doc as never, media.schema);
      for (const [name, value] of examples) {
        assert.deepEqual([...validator.Errors(value)].slice(0, 3), [], `${label} example ${name} matches the schema`);
        checked.push(`${label} ${name}`);
      }
    };
    for (const { label, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        assert.ok(
          response.description && response.description !== 'Default Response',
          `${label} ${status}: a real description`,
        );
        const media = response.content?.['application/json'];
        if (media) checkMedia(`${label} ${status}`, media);
      }
      const body = op.requestBody?.content['application/json'];
      if (body) checkMedia(`${label} body`, body);
      assert.deepEqual(
        op['x-codeSamples']?.map((s) => s.lang),
        ['curl', 'JavaScript', 'Python'],
        `${label}: snippets`,
      );
      assert.match(op.description ?? '', /```bash\ncurl /, `${label}: snippets in the description`);
    }
    for (const [name, webhook] of Object.entries(doc.webhooks))
      checkMedia(`webhook ${name}`, webhook.post.requestBody!.content['application/json']!);
    const events = Object.values(doc.webhooks).flatMap((w) =>
      Object.keys(w.post.requestBody!.content['application/json']!.examples ?? {}),
    );
    assert.deepEqual(events.sort(), [
      'batch.completed',
      'credits.low',
      'shorts.completed',
      'shorts.completed.thin',
      'shorts.completed.too_large',
      'shorts.created',
      'shorts.failed',
      'shorts.growth',
      'watch.paused',
      'watch.resumed',
      'webhook.destination.paused',
      'webhook.test',
    ]);
    // Errors Fastify raises before the handler are documented where they can happen.
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const label = `${method.toUpperCase()} ${path}`;
        if (op.requestBody) assert.ok(op.responses['413'] && op.responses['415'], `${label}: 413 and 415`);
        if (/\{\w+\}/.test(path)) assert.ok(op.responses['414'], `${label}: 414`);
      }
    }
    assert.match(
      JSON.stringify(doc.paths['/api/youtube/watches/{watchId}']!.patch!.responses['415']),
      /Failure/,
      'in the failure body under /api/youtube/',
    );
    // Error examples come from the catalog: each 4xx/5xx example carries a code of the right status.
    const failed = doc.paths['/api/youtube/shorts']!.post!.responses['503']!.content!['application/json']!.examples!;
    assert.deepEqual(Object.keys(failed).sort(), [
      'SERVICE_UNAVAILABLE',
      'UPSTREAM_BLOCKED',
      'UPSTREAM_QUOTA_EXHAUSTED',
      'UPSTREAM_RATE_LIMITED',
      'UPSTREAM_UNAVAILABLE',
    ]);
    for (const [code, { value }] of Object.entries(failed)) {
      assert.equal(ERROR_CATALOG[code as keyof typeof ERROR_CATALOG].status, 503, code);
      assert.equal((value as { error: string }).error, code);
    }
    assert.ok(checked.length > 150, `${checked.length} examples checked`);
  });

  it('"Try it out" sends the first example of the shorts operation, and it succeeds against the demo channel', async () => {
    const user = await createUser(t, 100);
    const example = Object.values(
      doc.paths['/api/youtube/shorts']!.post!.requestBody!.content['application/json']!.examples!,
    )[0]!.value as { channelUrl: string };
    assert.equal(example.channelUrl, 'https://www.youtube.com/@demo');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(user.key),
      payload: example,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(res.json().itemCount > 0);
  });

  it('the guides are in the document, with the configured numbers and every code of the errors catalog', () => {
    assert.equal(doc.info.title, 'channel-shorts API');
    for (const guide of GUIDES) assert.match(doc.info.description, new RegExp(`^## ${guide.title}$`, 'm'), guide.title);
    for (const code of Object.keys(ERROR_CATALOG))
      assert.ok(doc.info.description.includes(`\`${code}\``), `errors guide lists ${code}`);
    assert.doesNotMatch(doc.info.description, /\{\{\w+\}\}/, 'no placeholder left');
    assert.match(doc.info.description, /ceil\(shorts \/ 50\) × 2/, 'CREDITS_PER_BLOCK=2 is in the pricing guide');
    assert.match(doc.info.description, /\| retries after the first attempt \| 5 s, 1 min, 10 min \|/);
  });

  it('GET /api/pricing publishes the configured price and webhook timings, without a credential', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/pricing' });
    assert.equal(res.statusCode, 200);
    assertMatchesOpenApi(doc as never, 'GET', '/api/pricing', res);
    const body = res.json();
    assert.equal(body.credits.creditsPerBlock, 2);
    assert.equal(body.credits.shortsPerBlock, t.config.SHORTS_PER_CREDIT_BLOCK);
    assert.equal(body.credits.quotaUnitsPerCredit, t.config.QUOTA_UNITS_PER_CREDIT);
    assert.deepEqual(body.webhooks.retryScheduleSeconds, [5, 60, 600]);
    assert.equal(body.webhooks.maxAttempts, 4);
    assert.equal(body.webhooks.retryWindowSeconds, 665);
    assert.equal(body.webhooks.timeoutSeconds, t.config.WEBHOOK_TIMEOUT_MS / 1000);
    const { trackStats, ...watches } = body.watches;
    assert.deepEqual(watches, {
      minIntervalSeconds: t.config.WATCH_MIN_INTERVAL_SECONDS,
      maxIntervalSeconds: 30 * 86_400,
      maxPerAccount: t.config.WATCHES_PER_ACCOUNT,
    });
    // Tracking a channel's recent Shorts: videos.list, 1 unit per 50, paid like the check's other units.
    assert.deepEqual(
      { ...trackStats, perCheck: undefined },
      {
        unitsPerCall: 1,
        shortsPerCall: 50,
        maxDays: 90,
        perCheck: undefined,
      },
    );
    assert.match(trackStats.perCheck, new RegExp(`ceil\\(units / ${t.config.QUOTA_UNITS_PER_CREDIT}\\)`));
    assert.equal(body.supportContact, null, 'SUPPORT_CONTACT is not set here');
  });

  it("GET /api/pricing names where customers get credits (SUPPORT_CONTACT), for the dashboard's balance banner", async (ctx) => {
    const h = await harness(ctx, { fake: false, env: { SUPPORT_CONTACT: ' https://example.com/billing ' } });
    const res = await h.app.inject({ method: 'GET', url: '/api/pricing' });
    assertMatchesOpenApi(doc as never, 'GET', '/api/pricing', res);
    assert.equal(res.json().supportContact, 'https://example.com/billing');
  });

  it("the webhooks guide's plain-HMAC verifier accepts a real signature and refuses a wrong one", async () => {
    const guide = readFileSync(new URL('../docs/guides/webhooks.md', import.meta.url), 'utf8');
    const code = /\*\*Node without a package\*\*[^`]*```js\n([\s\S]*?)```/.exec(guide)?.[1];
    assert.ok(code, 'the guide has the plain HMAC snippet');
    const dir = await mkdtemp(join(tmpdir(), 'guide-hmac-'));
    const file = join(dir, 'verify.mjs');
    await writeFile(file, `${code}\nexport { verify };\n`);
    const { verify } = (await import(file)) as {
      verify: (secret: string, id: string, ts: string, body: string, header: string) => boolean;
    };
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const other = `whsec_${Buffer.from('fedcba9876543210fedcba9876543210').toString('base64')}`;
    const now = new Date();
    const body = JSON.stringify({ type: 'shorts.completed', data: { success: true } });
    const header = signPayload([other, secret], 'msg_req_x', now, body);
    const ts = String(Math.floor(now.getTime() / 1000));
    assert.equal(verify(secret, 'msg_req_x', ts, body, header), true, 'accepts one of two rotation signatures');
    assert.equal(verify(secret, 'msg_req_x', ts, `${body} `, header), false, 'refuses a changed body');
    assert.equal(
      verify(secret, 'msg_req_x', String(Number(ts) - 3600), body, header),
      false,
      'refuses an old timestamp',
    );
    await rm(dir, { recursive: true, force: true });
  });
});

describe('OpenAPI components: a bare named schema as a response', () => {
  it('keeps its description and gets a $ref and an example (routes written as { ...ErrorBody, description })', () => {
    const collector = new ComponentCollector();
    const schema = collector.routeSchema(
      { response: { 404: { ...ErrorBody, description: 'No such thing.' } } },
      'GET',
      '/things/:id',
    ) as {
      response: Record<
        string,
        {
          description: string;
          content: Record<string, { schema: unknown; examples: Record<string, { value: unknown }> }>;
        }
      >;
    };
    const response = schema.response['404']!;
    assert.equal(response.description, 'No such thing.');
    assert.deepEqual(response.content['application/json']!.schema, { $ref: '#/components/schemas/Error' });
    assert.equal(
      (response.content['application/json']!.examples.example!.value as { error: string }).error,
      'UNAUTHORIZED',
    );
    assert.ok(collector.components.get('Error'));
  });
});
