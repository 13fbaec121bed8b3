// npm run fuzz [-- <requests> <seed>]: hostile requests built from the service's own /openapi.json,
// sent over real HTTP to an in-process service (embedded database, fake platform). Every operation is
// hit with broken and foreign credentials, hostile path parameters, query strings and bodies (wrong
// types, NUL, unpaired surrogates, huge and deeply nested values, prototype keys, unsafe URLs), odd
// methods and content types, plus raw malformed HTTP. Reports the count, the 5xx count and every
// response outside the error contract ({error, message, requestId} + X-Request-Id). Exit code 1 on
// any 5xx or contract violation.
import { connect, type AddressInfo } from 'node:net';
import { startFakePlatform } from '../src/fake-platform/server.ts';
import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/services.ts';
import { buildApp } from '../src/app.ts';
import { createAccount } from '../src/domain/accounts/accounts.ts';
import { createApiKey } from '../src/domain/keys/api-keys.ts';
import { generateApiKey } from '../src/domain/keys/api-key-format.ts';

const TOTAL = Number(process.argv[2] ?? 5000);
let seed = Number(process.argv[3] ?? 12);
const CONCURRENCY = 16;

// mulberry32: a small deterministic PRNG, so a run can be repeated.
function random(): number {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const HOSTILE_STRINGS = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  'a\ud800b',
  '\udfff',
  'x'.repeat(10_000),
  '\u202egnp.exe',
  '😀'.repeat(50),
  "' OR 1=1 --",
  '"; DROP TABLE accounts; --',
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a hostile string, not a template
  '${jndi:ldap://x}',
  '../../../../etc/passwd',
  '%00',
  '%ff',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::127.0.0.1]/',
  'http://[::ffff:0:127.0.0.1]/',
  'http://localhost./',
  'http://0x7f000001/',
  'https://www.youtube.com/@demo',
  'https://www.youtube.com/@%F0%9F%98%80',
  'https://www.youtube.com/channel/UC' + 'a'.repeat(22),
  'https://user:pass@example.com/',
  'https://example.com/' + 'a'.repeat(3000),
  'req_abc',
  '00000000-0000-0000-0000-000000000000',
];
const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  // biome-ignore lint/correctness/noConstantCondition: deliberately out-of-range numbers
  // biome-ignore lint/correctness/noPrecisionLoss: deliberately out-of-range numbers
  1e309 > 0 ? 1.7976931348623157e308 : 0,
  // biome-ignore lint/correctness/noPrecisionLoss: deliberately out-of-range numbers
  -9007199254740993,
  0.5,
  [],
  [1, 2],
  {},
  { $gt: '' },
  { __proto__: { admin: true } },
  'NaN',
];
const PATH_VALUES = [
  '%ff',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%E0%A4%A',
  'a'.repeat(500),
  '..%2f..%2fetc',
  '%2e%2e',
  'req_' + 'z'.repeat(41),
  'REQ_ABC',
  '-1',
  '0',
  '00000000-0000-4000-8000-000000000000',
  '%F0%9F%98%80',
  'null',
  '*',
  '%20',
  'req_abc%3Fx%3D1',
];
const QUERY_VALUES = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '-1',
  '0',
  '1e309',
  'abc',
  '999999999999999999999',
  '1.5',
  '',
  '%ff',
  'x'.repeat(5000),
  '[]',
  'true',
];
const QUERY_NAMES = ['limit', 'days', 'q', '__proto__', 'constructor', 'api_key', 'limit[]', 'days[x]'];

interface Operation {
  method: string;
  path: string;
  params: string[];
  bodySchema: JsonSchema | undefined;
}
interface JsonSchema {
  type?: string;
  format?: string;
  minimum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

function sample(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  if (schema.type === 'object')
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, sample(s)]));
  if (schema.type === 'string') return schema.format === 'uri' ? 'https://www.youtube.com/@demo' : 'fuzz';
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 1;
  if (schema.type === 'boolean') return true;
  return 'fuzz';
}

function hostileBody(schema: JsonSchema | undefined): { body: string; contentType: string } {
  const roll = random();
  if (roll < 0.08)
    return {
      body: pick([
        '{',
        '{"a":',
        'null',
        '[]',
        '"x"',
        '1',
        '{"__proto__":{"x":1}}',
        '{"constructor":{"prototype":{"x":1}}}',
        '\u0000',
        '',
      ]),
      contentType: 'application/json',
    };
  if (roll < 0.12) return { body: '['.repeat(5000) + ']'.repeat(5000), contentType: 'application/json' };
  if (roll < 0.15) return { body: JSON.stringify({ big: 'x'.repeat(70 * 1024) }), contentType: 'application/json' };
  if (roll < 0.2)
    return {
      body: 'email=a&password=b',
      contentType: pick([
        'application/x-www-form-urlencoded',
        'text/plain',
        'multipart/form-data; boundary=x',
        'application/json; charset=utf-16',
        'application/xml',
      ]),
    };
  const body = (sample(schema) as Record<string, unknown> | undefined) ?? {};
  const fields = Object.keys(schema?.properties ?? {});
  const mutations = 1 + Math.floor(random() * 2);
  for (let i = 0; i < mutations; i++) {
    const field =
      fields.length && random() < 0.85
        ? pick(fields)
        : pick(['extra', '__proto__', 'constructor', 'a\u0000b', '\ud800']);
    body[field] = random() < 0.6 ? pick(HOSTILE_STRINGS) : pick(HOSTILE_VALUES);
  }
  if (random() < 0.1) delete body[pick(fields.length ? fields : ['x'])];
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

const fake = await startFakePlatform();
const config = loadConfig({
  DATA_DIR: ':memory:',
  YOUTUBE_API_KEY: 'fake-api-key',
  YOUTUBE_API_BASE_URL: fake.baseUrl,
  LOG_LEVEL: 'silent',
  RATE_LIMIT_PER_MINUTE: '100000',
  RATE_LIMIT_PER_HOUR: '100000',
  RATE_LIMIT_PER_DAY: '100000',
  WEBHOOK_SECRET_ROTATIONS_PER_HOUR: '100000',
});
const serverErrors: unknown[] = [];
const services = await createServices(config, {
  runWorker: false,
  log: { error: (obj) => serverErrors.push(obj), info: () => {} },
});
const app = await buildApp(services);
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as AddressInfo).port;
const base = `http://127.0.0.1:${port}`;

const owner = await createAccount(services.db, {
  email: 'fuzz-owner@example.com',
  password: 'fuzz owner password',
  credits: 1_000_000,
});
const other = await createAccount(services.db, {
  email: 'fuzz-other@example.com',
  password: 'fuzz other password',
  credits: 10,
});
const ownerKey = (await createApiKey(services.db, owner.id, 'fuzz')).key;
const otherKey = await createApiKey(services.db, other.id, 'other');
const session = (await services.jwt.sign(owner.id, owner.email)).token;
const credentials = [
  undefined,
  `Bearer ${ownerKey}`,
  `Bearer ${session}`,
  `Bearer ${session}`,
  `Bearer ${ownerKey}`,
  'Bearer',
  'Bearer junk',
  `Bearer ${generateApiKey().key}`,
  `Basic ${Buffer.from('a:b').toString('base64')}`,
  `Bearer ${session}x`,
  `Bearer ${ownerKey.slice(0, -1)}`,
  `bearer ${'a'.repeat(5000)}`,
];

const doc = (await (await fetch(`${base}/openapi.json`)).json()) as {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema: JsonSchema }> } }>>;
  components?: { schemas?: Record<string, unknown> };
};
/** The schema with its #/components/schemas/ references replaced by what they name (named shapes are $refs). */
function inline(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(inline);
  if (schema === null || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/'))
    return inline(doc.components?.schemas?.[ref.slice('#/components/schemas/'.length)]);
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inline(value)]));
}
const operations: Operation[] = [];
for (const [path, methods] of Object.entries(doc.paths)) {
  for (const [method, op] of Object.entries(methods)) {
    operations.push({
      method: method.toUpperCase(),
      path,
      params: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
      bodySchema: inline(op.requestBody?.content?.['application/json']?.schema) as JsonSchema | undefined,
    });
  }
}

const stats = { total: 0, byStatus: new Map<number, number>(), fiveXx: [] as string[], violations: [] as string[] };
function record(label: string, status: number, body: string, requestIdHeader: string | null) {
  stats.total++;
  stats.byStatus.set(status, (stats.byStatus.get(status) ?? 0) + 1);
  if (status >= 500) stats.fiveXx.push(`${status} ${label} ${body.slice(0, 200)}`);
  if (status >= 400) {
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = JSON.parse(body);
    } catch {
      // reported below
    }
    const keys = parsed
      ? Object.keys(parsed)
          .filter((k) => k !== 'success')
          .sort()
          .join(',')
      : '';
    const ok =
      (parsed &&
        keys === 'error,message,requestId' &&
        /^[A-Z][A-Z0-9_]+$/.test(String(parsed.error)) &&
        parsed.requestId === requestIdHeader) ||
      (isMcp(label) && jsonRpcError(parsed) && typeof requestIdHeader === 'string');
    if (!ok) stats.violations.push(`${status} ${label} ${body.slice(0, 200)}`);
  }
}

/** The MCP endpoint answers protocol errors as JSON-RPC error objects, as the MCP specification says. */
const isMcp = (label: string) => /^[A-Z]+ \/mcp(\?|$)/.test(label);
function jsonRpcError(parsed: Record<string, unknown> | undefined): boolean {
  const error = parsed?.error as { code?: unknown; message?: unknown } | undefined;
  return parsed?.jsonrpc === '2.0' && typeof error?.code === 'number' && typeof error.message === 'string';
}

const MCP_TOOLS = [
  'list_channel_shorts',
  'get_request',
  'list_requests',
  'get_account',
  'create_watch',
  'list_watches',
  'delete_watch',
  'no_such_tool',
];
const MCP_ARGUMENT_NAMES = [
  'channelUrl',
  'limit',
  'oldestDate',
  'requestId',
  'watchId',
  'webhookUrl',
  'cursor',
  'sort',
  '__proto__',
];

/** A JSON-RPC message for the MCP endpoint: a tool call with hostile arguments, or a malformed message. */
function mcpMessage(): string {
  const args = Object.fromEntries(
    Array.from({ length: Math.floor(random() * 3) }, () => [
      pick(MCP_ARGUMENT_NAMES),
      random() < 0.5 ? pick(HOSTILE_STRINGS) : pick(HOSTILE_VALUES),
    ]),
  );
  const call = {
    jsonrpc: '2.0',
    id: Math.floor(random() * 1000),
    method: 'tools/call',
    params: { name: pick(MCP_TOOLS), arguments: args },
  };
  return pick([
    () => JSON.stringify(call),
    () => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    () =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: pick(HOSTILE_STRINGS),
          capabilities: pick(HOSTILE_VALUES),
          clientInfo: { name: 'fuzz', version: '1' },
        },
      }),
    () => JSON.stringify([call, call]),
    () => JSON.stringify({ jsonrpc: '1.0', id: pick(HOSTILE_VALUES), method: pick(HOSTILE_STRINGS) }),
    () => JSON.stringify(pick(HOSTILE_VALUES)),
  ])();
}

function buildRequest(): {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  label: string;
} {
  const op = pick(operations);
  let path = op.path;
  for (const param of op.params) {
    const value =
      random() < 0.5
        ? pick(PATH_VALUES)
        : param === 'id'
          ? pick([otherKey.id, '00000000-0000-4000-8000-000000000000'])
          : pick(['req_abc123', 'req_' + 'a'.repeat(40)]);
    path = path.replace(`{${param}}`, value);
  }
  if (random() < 0.4) {
    const n = 1 + Math.floor(random() * 3);
    path += '?' + Array.from({ length: n }, () => `${pick(QUERY_NAMES)}=${pick(QUERY_VALUES)}`).join('&');
  }
  const method = random() < 0.05 ? pick(['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE']) : op.method;
  const headers: Record<string, string> = {};
  const credential = pick(credentials);
  if (credential) headers.authorization = credential;
  if (random() < 0.2) headers['x-forwarded-for'] = `${Math.floor(random() * 255)}.1.2.3`;
  if (random() < 0.05) headers.origin = 'https://evil.example';
  let body: string | undefined;
  if (op.path === '/mcp' && method === 'POST' && random() < 0.8) {
    // As an MCP client sends it, carrying a hostile JSON-RPC message.
    headers.accept = 'application/json, text/event-stream';
    headers['content-type'] = 'application/json';
    body = mcpMessage();
  } else if (method === 'POST' || method === 'DELETE' || method === 'PUT' || method === 'PATCH') {
    if (op.bodySchema || random() < 0.3) {
      const hostile = hostileBody(op.bodySchema);
      body = hostile.body;
      headers['content-type'] = hostile.contentType;
    }
  }
  return {
    method,
    url: base + path,
    headers,
    ...(body !== undefined ? { body } : {}),
    label: `${method} ${path.slice(0, 120)}`,
  };
}

async function sendOne(): Promise<void> {
  const request = buildRequest();
  try {
    const res = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      redirect: 'manual',
    });
    const text = request.method === 'HEAD' ? '' : await res.text();
    if (request.method === 'HEAD' || (request.method === 'TRACE' && res.status === 404 && text === '')) {
      stats.total++;
      stats.byStatus.set(res.status, (stats.byStatus.get(res.status) ?? 0) + 1);
      if (res.status >= 500) stats.fiveXx.push(`${res.status} ${request.label}`);
      return;
    }
    record(request.label, res.status, text, res.headers.get('x-request-id'));
  } catch (error) {
    // fetch refuses some inputs itself (e.g. a TRACE with a body): not a request the server saw.
    if ((error as Error).name !== 'TypeError') throw error;
  }
}

const RAW_REQUESTS = [
  'NOT HTTP\r\n\r\n',
  'GET / HTTP/9.9\r\n\r\n',
  'GET /healthz HTTP/1.1\r\nHost: x\r\nX: ' + 'a'.repeat(20_000) + '\r\n\r\n',
  'GET /' + 'a'.repeat(20_000) + ' HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  'GET /keys/%ff HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /healthz HTTP/1.1\r\nHo st: x\r\n\r\n',
  'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
  'GET /healthz HTTP/1.1\r\nHost: x\r\nX: a\u0000b\r\n\r\n',
  'GET /\u0000 HTTP/1.1\r\nHost: x\r\n\r\n',
];
function sendRaw(data: string): Promise<void> {
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(data, 'latin1'));
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('error', () => {});
    const finish = () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const status = Number(head.split(' ')[1]);
      const requestId = /x-request-id: (\S+)/i.exec(head)?.[1] ?? null;
      if (status) record(`raw ${JSON.stringify(data.slice(0, 40))}`, status, body, requestId);
      resolve();
    };
    socket.on('close', finish);
    setTimeout(() => socket.destroy(), 3000).unref();
  });
}

const started = Date.now();
for (let r = 0; r < 5; r++) for (const data of RAW_REQUESTS) await sendRaw(data);
let sent = stats.total;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (sent < TOTAL) {
      sent++;
      await sendOne();
    }
  }),
);
const seconds = ((Date.now() - started) / 1000).toFixed(1);

console.log(
  `fuzz: ${stats.total} requests against ${operations.length} operations in ${seconds} s (seed ${process.argv[3] ?? 12})`,
);
console.log(
  `status counts: ${[...stats.byStatus.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s}×${n}`)
    .join(' ')}`,
);
console.log(`5xx: ${stats.fiveXx.length}`);
for (const line of stats.fiveXx.slice(0, 20)) console.log(`  ${line}`);
console.log(`error bodies outside the contract: ${stats.violations.length}`);
for (const line of stats.violations.slice(0, 20)) console.log(`  ${line}`);
if (serverErrors.length) console.log(`server-side errors logged: ${serverErrors.length}`);

await app.close();
await services.close();
await fake.close();
process.exit(stats.fiveXx.length || stats.violations.length ? 1 : 0);
