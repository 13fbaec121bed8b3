// The shared security suite, generated from the app's own route table (collected by
// an onRoute hook in buildApp), so a new route is covered the moment it is registered:
//   every protected route: no credential, malformed / junk / unknown / revoked / expired credentials
//   and a session token whose subject is not an account id → 401; an API key on a session-only route
//   → 403; another account's ids → 404; NUL and unpaired surrogates in any input → 400; an oversize
//   body or path parameter → 413 / 414;
//   every route: NUL in the query string → 400; every answer in {error, message, requestId} with the
//   same id in X-Request-Id, never a 5xx.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import { createUser, bearer, type TestUser } from '../helpers/test-app.ts';
import { useHarness } from '../helpers/harness.ts';
import { generateApiKey } from '../../src/domain/keys/api-key-format.ts';
import { insertRequest } from '../../src/domain/requests/request-store.ts';
import { newRequestId } from '../../src/http/request-id.ts';
import { newWatchId } from '../../src/domain/watches/watch-store.ts';
import { MAX_PARAM_LENGTH } from '../../src/http/plugins/error-handler.ts';

type Method = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';
const OPERATOR = 'operator-token-for-the-security-suite-0123456789';

interface Route {
  method: Method;
  url: string;
  auth: boolean | 'session';
  /** An operator route (/operator/...): an operator's session or OPERATOR_TOKEN, guarded by its own hook. */
  operator: boolean;
  scope: string | undefined;
  failureBody: boolean;
  /** Its calls through the app are scoped and counted, not the route itself (the MCP server). */
  innerCalls: boolean;
  params: string[];
  body: JsonSchema | undefined;
}
interface JsonSchema {
  type?: string;
  format?: string;
  minimum?: number;
  minLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

function routesOf(table: RouteOptions[]): Route[] {
  const routes: Route[] = [];
  for (const r of table) {
    for (const method of [r.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const config = (r.config ?? {}) as {
        auth?: boolean | 'session';
        operator?: boolean;
        scope?: string;
        failureBody?: boolean;
        innerCallsCounted?: boolean;
      };
      const schema = (r.schema ?? {}) as { body?: JsonSchema };
      routes.push({
        method: method as Method,
        url: r.url,
        auth: config.auth ?? false,
        operator: config.operator === true,
        scope: config.scope,
        failureBody: config.failureBody === true,
        innerCalls: config.innerCallsCounted === true,
        params: [...r.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!),
        body: schema.body,
      });
    }
  }
  return routes;
}

/** A minimal valid value for a schema: the suite then breaks one thing at a time. */
function sample(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  switch (schema.type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((name) => [name, sample(schema.properties?.[name])]));
    case 'string':
      return schema.format === 'uri'
        ? 'https://www.youtube.com/@demo'
        : schema.format === 'uuid'
          ? randomUUID()
          : 'sample text';
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    default:
      return 'sample text';
  }
}

function stringFields(schema: JsonSchema | undefined): string[] {
  return Object.entries(schema?.properties ?? {})
    .filter(([, s]) => s.type === 'string')
    .map(([name]) => name);
}

function assertErrorBody(res: LightMyRequestResponse, route: Route, label: string): void {
  assert.ok(res.statusCode < 500, `${label}: ${res.statusCode} ${res.body}`);
  const body = res.json();
  const expected = route.failureBody ? ['error', 'message', 'requestId', 'success'] : ['error', 'message', 'requestId'];
  assert.deepEqual(Object.keys(body).sort(), expected, `${label}: ${res.body}`);
  assert.match(body.error, /^[A-Z][A-Z0-9_]+$/, label);
  assert.equal(body.requestId, res.headers['x-request-id'], `${label}: X-Request-Id`);
}

describe('security suite: generated from the route table', () => {
  // Push on (PUBLIC_BASE_URL), so the WebSub callbacks validate their input as every route does; the
  // hub is unreachable, and a subscription that fails is only logged.
  const t = useHarness({
    fake: false,
    env: {
      OPERATOR_TOKEN: OPERATOR,
      SIGNUP: 'invite',
      CREDENTIAL_CACHE_MS: '0',
      PUBLIC_BASE_URL: 'http://127.0.0.1:9',
      WEBSUB_HUB_URL: 'http://127.0.0.1:9/subscribe',
      WEBSUB_TOPIC_BASE_URL: 'http://127.0.0.1:9',
    },
  });
  let alice: TestUser;
  let bob: TestUser;
  let revokedKey: string;
  let expiredToken: string;
  let foreignSubjectToken: string;
  let routes: Route[];
  const fixtures: { own: Record<string, string>; others: Record<string, string> } = { own: {}, others: {} };

  before(async () => {
    // No credential cache, so a change to an account (disabling it) applies to the next request.
    alice = await createUser(t);
    bob = await createUser(t);
    const second = await t.app.inject({
      method: 'POST',
      url: '/keys',
      headers: bearer(alice.token),
      payload: { name: 'to revoke' },
    });
    revokedKey = second.json().key;
    await t.app.inject({ method: 'DELETE', url: `/keys/${second.json().id}`, headers: bearer(alice.token) });
    const [row] = await t.services.db.query<{ value: string }>("SELECT value FROM settings WHERE key = 'jwt_secret'");
    const secret = new TextEncoder().encode(row!.value);
    expiredToken = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(alice.id)
      .setIssuer('channel-shorts')
      .setAudience('channel-shorts-api')
      .setIssuedAt(1_600_000_000)
      .setExpirationTime(1_600_000_100)
      .sign(secret);
    // Correctly signed, but its subject is no account id (before: a 500).
    foreignSubjectToken = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('admin')
      .setIssuer('channel-shorts')
      .setAudience('channel-shorts-api')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret);
    const request = (accountId: string) => ({
      id: newRequestId(),
      accountId,
      apiKeyId: null,
      channelUrl: 'https://www.youtube.com/@demo',
      oldestDate: null,
      limit: null,
      webhookUrl: 'http://127.0.0.1:9/hook',
    });
    const outcome = {
      status: 'completed' as const,
      httpStatus: 200,
      itemCount: 0,
      creditsCharged: 1,
      errorCode: null,
      result: { success: true },
      quotaUnits: 0,
    };
    const aliceRequest = request(alice.id);
    const bobRequest = request(bob.id);
    await insertRequest(t.services.db, aliceRequest, outcome);
    await insertRequest(t.services.db, bobRequest, outcome);
    // A batch each (accepted only: the suite's app runs no worker, so nothing goes upstream).
    const batchOf = async (user: TestUser) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/youtube/shorts/batch',
        headers: bearer(user.key),
        payload: { items: [{ channelUrl: 'https://www.youtube.com/@demo' }], webhookUrl: 'http://127.0.0.1:9/hook' },
      });
      if (res.statusCode !== 202) throw new Error(`batch fixture: ${res.body}`);
      return res.json().batchId as string;
    };
    // A watch each, written directly: creating one through the API reads the platform.
    const watchOf = async (user: TestUser) => {
      const id = newWatchId();
      await t.services.db.query(
        `INSERT INTO watches (id, account_id, channel_url, channel_id, channel_title, webhook_url, interval_seconds, status, next_check_at)
         VALUES ($1, $2, 'https://www.youtube.com/@demo', 'UCdemo0000000000000000', 'Demo', 'http://127.0.0.1:9/hook', 900, 'active', now() + interval '1 hour')`,
        [id, user.id],
      );
      return id;
    };
    // A webhook destination each, written directly: one is recorded with a delivery attempt.
    const destinationOf = async (user: TestUser) => {
      const [row] = await t.services.db.query<{ id: string }>(
        `INSERT INTO webhook_destinations (account_id, url, last_attempt_at) VALUES ($1, 'http://127.0.0.1:9/hook', now())
         RETURNING id`,
        [user.id],
      );
      return String(row!.id);
    };
    fixtures.own = {
      id: alice.keyId,
      destinationId: await destinationOf(alice),
      requestId: aliceRequest.id,
      batchId: await batchOf(alice),
      watchId: await watchOf(alice),
      channelId: 'UCdemo0000000000000000',
      videoId: 'AAAAAAAAAAA',
      token: 'A'.repeat(32),
    };
    fixtures.others = {
      id: bob.keyId,
      destinationId: await destinationOf(bob),
      requestId: bobRequest.id,
      batchId: await batchOf(bob),
      watchId: await watchOf(bob),
      channelId: 'UCdemo0000000000000001',
      videoId: 'BBBBBBBBBBB',
      token: 'B'.repeat(32),
    };
    routes = routesOf(t.app.routeTable);
  });

  const urlOf = (route: Route, values: Record<string, string>, raw = false) =>
    route.url
      .replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
        const value = values[name];
        if (value === undefined)
          throw new Error(
            `${route.method} ${route.url}: the security suite has no fixture for path parameter "${name}"; add one`,
          );
        return raw ? value : encodeURIComponent(value);
      })
      .replace(/\*$/, 'index.html');
  const send = (route: Route, options: { url?: string; headers?: Record<string, string>; payload?: unknown } = {}) =>
    t.app.inject({
      method: route.method,
      url: options.url ?? urlOf(route, fixtures.own),
      headers: options.headers ?? {},
      ...(options.payload !== undefined
        ? { payload: options.payload as object }
        : route.body
          ? { payload: sample(route.body) as object }
          : {}),
    });
  const protectedRoutes = () => routes.filter((r) => r.auth || r.operator);
  const customerRoutes = () => routes.filter((r) => r.auth);
  /** The credential that passes a route's guard: the operator token, alice's session, or none. */
  const credentialFor = (route: Route): Record<string, string> =>
    route.operator ? bearer(OPERATOR) : route.auth ? bearer(alice.token) : {};

  it('the route table is complete: every documented operation is in it, and the protected ones are protected', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const url = path.replace(/\{([^}]+)\}/g, ':$1');
        const route = routes.find((r) => r.url === url && r.method === method.toUpperCase());
        assert.ok(route, `${method} ${path} is in the route table`);
        if (operation.security?.length)
          assert.ok(
            route.auth || route.operator,
            `${method} ${path} documents a credential, so its route config must require one`,
          );
      }
    }
    assert.ok(protectedRoutes().length >= 12, `found ${protectedRoutes().length} protected routes`);
  });

  it('every protected route refuses missing, malformed, unknown, revoked and expired credentials with 401', async () => {
    const badCredentials: Array<[string, () => Record<string, string>]> = [
      ['no Authorization header', () => ({})],
      ['a non-Bearer scheme', () => ({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` })],
      ['an empty bearer', () => ({ authorization: 'Bearer ' })],
      ['two tokens', () => ({ authorization: `Bearer ${alice.key} ${alice.key}` })],
      ['a junk token', () => bearer('not-a-token')],
      ['a key with a bad checksum', () => bearer(alice.key.slice(0, -1) + (alice.key.endsWith('A') ? 'B' : 'A'))],
      ['a well-formed unknown key', () => bearer(generateApiKey().key)],
      ['a revoked key', () => bearer(revokedKey)],
      ['an expired session', () => bearer(expiredToken)],
      ['a session whose subject is not an account id', () => bearer(foreignSubjectToken)],
    ];
    for (const route of protectedRoutes()) {
      for (const [label, headers] of badCredentials) {
        const res = await send(route, { headers: headers() });
        assert.equal(res.statusCode, 401, `${route.method} ${route.url} with ${label}: ${res.body}`);
        assertErrorBody(res, route, `${route.method} ${route.url} with ${label}`);
      }
    }
  });

  it('session-only routes refuse an API key with 403 saying a dashboard session is needed; the others accept it', async () => {
    const sessionOnly = protectedRoutes().filter((r) => r.auth === 'session');
    assert.ok(
      sessionOnly.some((r) => r.url === '/keys'),
      'key management is session-only',
    );
    assert.ok(
      sessionOnly.some((r) => r.url.startsWith('/accounts/webhook-secret')),
      'webhook secrets are session-only',
    );
    for (const route of customerRoutes()) {
      const res = await send(route, { headers: bearer(alice.key), url: urlOf(route, fixtures.others) });
      if (route.auth === 'session') {
        assert.equal(res.statusCode, 403, `${route.method} ${route.url}: ${res.body}`);
        assertErrorBody(res, route, `${route.method} ${route.url}`);
        assert.match(res.json().message, /dashboard session/);
      } else {
        assert.ok(
          res.statusCode !== 401 && res.statusCode !== 403,
          `${route.method} ${route.url} accepts an API key: ${res.statusCode} ${res.body}`,
        );
      }
    }
  });

  it("operator routes refuse a customer's session and every API key with 403, and accept the operator token", async () => {
    const operatorRoutes = routes.filter((r) => r.operator);
    assert.ok(operatorRoutes.length >= 10, `found ${operatorRoutes.length} operator routes`);
    for (const route of operatorRoutes) {
      for (const credential of [alice.token, alice.key]) {
        const res = await send(route, { headers: bearer(credential) });
        assert.equal(res.statusCode, 403, `${route.method} ${route.url}: ${res.body}`);
        assertErrorBody(res, route, `${route.method} ${route.url}`);
      }
      const ok = await send(route, { headers: bearer(OPERATOR) });
      assert.ok(
        ok.statusCode !== 401 && ok.statusCode !== 403,
        `${route.method} ${route.url} with the operator token: ${ok.statusCode} ${ok.body}`,
      );
    }
  });

  it('every route an API key may use declares a scope; a key without it gets 403, a key with only it gets through', async () => {
    const keyWith = async (scopes: string[]) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/keys',
        headers: bearer(alice.token),
        payload: { name: `scoped ${scopes.join(' ')}`, scopes },
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.deepEqual([...res.json().scopes].sort(), [...scopes].sort());
      return res.json().key as string;
    };
    // The MCP server's scopes are its tools' REST calls' (test/mcp.test.ts), not the route's own.
    const scoped = protectedRoutes().filter((r) => r.auth === true && !r.innerCalls);
    const scopes = [...new Set(scoped.map((r) => r.scope))];
    for (const route of scoped)
      assert.ok(route.scope, `${route.method} ${route.url} is open to API keys, so it must declare a scope`);
    const keys = new Map<string, { only: string; without: string }>();
    for (const scope of scopes as string[])
      keys.set(scope, {
        only: await keyWith([scope]),
        without: await keyWith((scopes as string[]).filter((s) => s !== scope)),
      });
    for (const route of scoped) {
      const { only, without } = keys.get(route.scope!)!;
      const refused = await send(route, { headers: bearer(without), url: urlOf(route, fixtures.others) });
      assert.equal(refused.statusCode, 403, `${route.method} ${route.url} without ${route.scope}: ${refused.body}`);
      assertErrorBody(refused, route, `${route.method} ${route.url}`);
      assert.match(refused.json().message, new RegExp(`scope "${route.scope}"`));
      const allowed = await send(route, { headers: bearer(only), url: urlOf(route, fixtures.others) });
      assert.ok(
        allowed.statusCode !== 401 && allowed.statusCode !== 403,
        `${route.method} ${route.url} with only ${route.scope}: ${allowed.statusCode} ${allowed.body}`,
      );
    }
    const bad = await t.app.inject({
      method: 'POST',
      url: '/keys',
      headers: bearer(alice.token),
      payload: { name: 'bad scopes', scopes: ['admin'] },
    });
    assert.equal(bad.statusCode, 400);
    const none = await t.app.inject({
      method: 'POST',
      url: '/keys',
      headers: bearer(alice.token),
      payload: { name: 'no scopes', scopes: [] },
    });
    assert.equal(none.statusCode, 400);
  });

  it("another account's ids are not found (404), with a session and with a key", async () => {
    // Statistics of public videos and channels are shared by every account: their ids belong to no one.
    const publicFacts = new Set(['videoId', 'channelId']);
    const owned = (r: Route) => r.params.length > 0 && !r.params.every((param) => publicFacts.has(param));
    for (const route of customerRoutes().filter(owned)) {
      for (const credential of route.auth === 'session' ? [alice.token] : [alice.token, alice.key]) {
        const res = await send(route, { headers: bearer(credential), url: urlOf(route, fixtures.others) });
        assert.equal(res.statusCode, 404, `${route.method} ${route.url}: ${res.body}`);
        assertErrorBody(res, route, `${route.method} ${route.url}`);
      }
    }
    const bobKeys = (await t.app.inject({ method: 'GET', url: '/keys', headers: bearer(bob.token) })).json().keys;
    assert.equal(
      bobKeys.find((k: { id: string }) => k.id === bob.keyId).revokedAt,
      null,
      "bob's key was not revoked by alice",
    );
  });

  it('NUL and unpaired surrogates in any body field, path parameter or query string are 400 VALIDATION_FAILED', async () => {
    for (const route of routes) {
      const headers = credentialFor(route);
      for (const bad of ['a\u0000b', 'a\ud800b', '\udfff']) {
        for (const field of stringFields(route.body)) {
          const payload = { ...(sample(route.body) as object), [field]: bad };
          const res = await send(route, { headers, payload });
          assert.equal(
            res.statusCode,
            400,
            `${route.method} ${route.url} body.${field}=${JSON.stringify(bad)}: ${res.body}`,
          );
          assert.equal(res.json().error, 'VALIDATION_FAILED');
          assertErrorBody(res, route, `${route.method} ${route.url}`);
        }
      }
      // In a path: NUL percent-encoded, and the WTF-8 bytes of a lone surrogate (not valid UTF-8).
      for (const bad of ['req_a%00b', 'req_%ED%A0%80']) {
        for (const param of route.params) {
          const res = await send(route, { headers, url: urlOf(route, { ...fixtures.own, [param]: bad }, true) });
          assert.equal(res.statusCode, 400, `${route.method} ${route.url} :${param}=${bad}: ${res.body}`);
          // Bytes that are not UTF-8 are refused while the router decodes the URL, before it knows
          // the route: the body still has the route's shape (before: success was missing).
          if (bad.includes('%ED'))
            assert.equal(res.json().error, 'INVALID_URL', `${route.method} ${route.url}: ${res.body}`);
          assertErrorBody(res, route, `${route.method} ${route.url}`);
        }
      }
    }
    for (const route of routes) {
      const base = route.params.length ? urlOf(route, fixtures.own) : route.url.replace(/\*$/, 'index.html');
      const res = await send(route, { headers: credentialFor(route), url: `${base}?q=%00` });
      assert.equal(res.statusCode, 400, `${route.method} ${route.url}?q=%00: ${res.body}`);
      assertErrorBody(res, route, `${route.method} ${route.url}?q=%00`);
    }
  });

  it('oversize bodies are 413 and oversize path parameters 414, in the error body', async () => {
    for (const route of protectedRoutes()) {
      const headers = credentialFor(route);
      if (route.method !== 'GET') {
        const res = await send(route, { headers, payload: { name: 'x'.repeat(70 * 1024) } });
        assert.equal(res.statusCode, 413, `${route.method} ${route.url}: ${res.body}`);
        assert.equal(res.json().error, 'PAYLOAD_TOO_LARGE');
        assertErrorBody(res, route, `${route.method} ${route.url}`);
      }
      for (const param of route.params) {
        const res = await send(route, {
          headers,
          url: urlOf(route, { ...fixtures.own, [param]: `req_${'a'.repeat(MAX_PARAM_LENGTH)}` }),
        });
        assert.equal(res.statusCode, 414, `${route.method} ${route.url} :${param}: ${res.body}`);
        assert.equal(res.json().error, 'URI_TOO_LONG');
        assertErrorBody(res, route, `${route.method} ${route.url} :${param}`);
      }
    }
  });

  it('a disabled account gets 403 with any credential', async () => {
    const victim = await createUser(t);
    await t.services.db.query('UPDATE accounts SET disabled_at = now() WHERE id = $1', [victim.id]);
    for (const credential of [victim.key, victim.token]) {
      const res = await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(credential) });
      assert.equal(res.statusCode, 403);
    }
  });

  it('unknown routes and malformed URLs answer in the error body with X-Request-Id', async () => {
    for (const [url, status, code] of [
      ['/nope', 404, 'NOT_FOUND'],
      ['/keys/%ff', 400, 'INVALID_URL'],
      ['/api/youtube/shorts/%E0%A4%A', 400, 'INVALID_URL'],
      ['/api/youtube/nope', 404, 'NOT_FOUND'],
    ] as const) {
      const res = await t.app.inject({ method: url === '/nope' ? 'GET' : 'DELETE', url });
      assert.equal(res.statusCode, status, `${url}: ${res.body}`);
      // The /api/youtube/… operations' failure body, even before a route is found.
      assert.deepEqual(
        Object.keys(res.json()).sort(),
        url.startsWith('/api/youtube/')
          ? ['error', 'message', 'requestId', 'success']
          : ['error', 'message', 'requestId'],
      );
      assert.equal(res.json().error, code);
      assert.equal(res.json().requestId, res.headers['x-request-id']);
    }
  });
});
