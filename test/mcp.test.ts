// The MCP server at /mcp, driven by the official MCP client over Streamable HTTP: the tools, their
// schemas, and that a tool call is metered exactly like the REST call it stands for (credits,
// ledger, rate-limit windows, error codes), on one instance and across two sharing one database.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipWithout } from '../support/databases.ts';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { bearer, createUser, type TestApp, type TestUser } from './helpers/test-app.ts';
import { harness, useHarness } from './helpers/harness.ts';

const TOOLS = [
  'create_watch',
  'delete_watch',
  'get_account',
  'get_channel_movers',
  'get_request',
  'get_short_stats',
  'list_channel_shorts',
  'list_requests',
  'list_watches',
];

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
}

async function connect(t: TestApp, key: string): Promise<Client> {
  const { port } = t.app.server.address() as { port: number };
  const client = new Client({ name: 'channel-shorts-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

describe('MCP server', () => {
  const t = useHarness({ listen: true, env: { READ_RATE_LIMIT_PER_MINUTE: '600' } });
  let user: TestUser;
  let client: Client;

  before(async () => {
    t.fake.addChannel({ handle: 'agents', shortsCount: 60 });
    user = await createUser(t, 100);
    client = await connect(t, user.key);
    t.defer(() => client.close());
  });

  it('lists its tools with input schemas from the REST schemas and what each costs', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), TOOLS);
    const shorts = tools.find((tool) => tool.name === 'list_channel_shorts')!;
    const properties = Object.keys(shorts.inputSchema.properties ?? {});
    assert.ok(properties.includes('channelUrl') && properties.includes('limit') && properties.includes('oldestDate'));
    assert.ok(!properties.includes('webhookUrl'), 'no webhookUrl: an agent reads the answer');
    assert.deepEqual(shorts.inputSchema.required, ['channelUrl']);
    const pricing = (await t.app.inject({ method: 'GET', url: '/api/pricing' })).json();
    assert.ok(shorts.description?.includes(`Cost: ${pricing.credits.formula}`), shorts.description);
    assert.ok(shorts.outputSchema, 'a structured result');
  });

  it('list_channel_shorts costs what POST /api/youtube/shorts costs, with the same ledger entry, marked mcp', async () => {
    const args = { channelUrl: 'https://www.youtube.com/@agents', limit: 30 };
    const viaTool = (await client.callTool({ name: 'list_channel_shorts', arguments: args })) as ToolResult;
    assert.equal(viaTool.isError, undefined, JSON.stringify(viaTool.content));
    const result = viaTool.structuredContent as { requestId: string; itemCount: number; creditsCharged: number };
    assert.equal(result.itemCount, 30);
    const rest = await t.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(user.key),
      payload: { ...args, freshness: 'stale-ok' },
    });
    assert.equal(rest.statusCode, 200, rest.body);
    assert.equal(result.creditsCharged, rest.json().creditsCharged);
    const ledger = (await t.app.inject({ method: 'GET', url: '/accounts/ledger', headers: bearer(user.key) })).json()
      .entries as Array<{ requestId: string | null; amount: number; via?: string }>;
    const entryOf = (id: string) => ledger.find((e) => e.requestId === id);
    const [viaRest, viaMcp] = [entryOf(rest.json().requestId), entryOf(result.requestId)];
    assert.equal(viaMcp?.amount, viaRest?.amount);
    assert.deepEqual([viaMcp?.via, viaRest?.via], ['mcp', 'api']);
    const detail = (await client.callTool({
      name: 'get_request',
      arguments: { requestId: result.requestId },
    })) as ToolResult;
    assert.equal((detail.structuredContent as { via?: string }).via, 'mcp');
  });

  it('list_channel_shorts takes a channel address as people type it (@handle, youtube.com/@handle)', async () => {
    for (const channelUrl of ['@agents', 'youtube.com/@agents']) {
      const viaTool = (await client.callTool({
        name: 'list_channel_shorts',
        arguments: { channelUrl, limit: 5 },
      })) as ToolResult;
      assert.equal(viaTool.isError, undefined, JSON.stringify(viaTool.content));
      assert.equal((viaTool.structuredContent as { itemCount: number }).itemCount, 5);
    }
  });

  it('fails with the REST error code and message as a tool error', async () => {
    const invalid = (await client.callTool({
      name: 'list_channel_shorts',
      arguments: { channelUrl: 'https://example.com/not-a-channel' },
    })) as ToolResult;
    assert.equal(invalid.isError, true);
    const rest = await t.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(user.key),
      payload: { channelUrl: 'https://example.com/not-a-channel' },
    });
    assert.equal(invalid.structuredContent?.error, rest.json().error);
    assert.equal(invalid.structuredContent?.status, rest.statusCode);
    assert.match(invalid.content[0]!.text!, new RegExp(`^${rest.json().error}: `));
    const unknown = (await client.callTool({
      name: 'get_request',
      arguments: { requestId: 'req_doesnotexist' },
    })) as ToolResult;
    assert.equal(unknown.structuredContent?.error, 'NOT_FOUND');
    // Arguments the schema refuses never reach the API.
    const bad = (await client.callTool({ name: 'list_channel_shorts', arguments: { limit: 5 } })) as ToolResult;
    assert.equal(bad.isError, true);
  });

  it('get_account, watches and the request log answer as their REST calls do', async () => {
    const account = (await client.callTool({ name: 'get_account', arguments: {} })) as ToolResult;
    const rest = (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json();
    assert.equal((account.structuredContent as { credits: { balance: number } }).credits.balance, rest.credits.balance);
    const created = (await client.callTool({
      name: 'create_watch',
      arguments: { channelUrl: 'https://www.youtube.com/@agents', webhookUrl: 'https://example.com/hook' },
    })) as ToolResult;
    assert.equal(created.isError, undefined, JSON.stringify(created.content));
    const watchId = (created.structuredContent as { id: string }).id;
    const listed = (await client.callTool({ name: 'list_watches', arguments: {} })) as ToolResult;
    assert.deepEqual(
      (listed.structuredContent as { watches: Array<{ id: string }> }).watches.map((w) => w.id),
      [watchId],
    );
    const deleted = (await client.callTool({ name: 'delete_watch', arguments: { watchId } })) as ToolResult;
    assert.equal((deleted.structuredContent as { id: string }).id, watchId);
    const left = (await client.callTool({ name: 'list_watches', arguments: {} })) as ToolResult;
    assert.deepEqual((left.structuredContent as { watches: unknown[] }).watches, []);
    const log = (await client.callTool({ name: 'list_requests', arguments: { limit: 2 } })) as ToolResult;
    assert.equal((log.structuredContent as { requests: unknown[] }).requests.length, 2);
  });

  it('get_short_stats and get_channel_movers answer as their REST calls do', async () => {
    const read = await t.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(user.key),
      payload: { channelUrl: 'https://www.youtube.com/@agents', limit: 2 },
    });
    assert.equal(read.statusCode, 200, read.body);
    const { data } = read.json() as { data: { channel: { id: string }; shorts: Array<{ id: string }> } };
    const videoId = data.shorts[0]!.id;
    const stats = (await client.callTool({ name: 'get_short_stats', arguments: { videoId } })) as ToolResult;
    assert.equal(stats.isError, undefined, JSON.stringify(stats.content));
    const rest = (
      await t.app.inject({ method: 'GET', url: `/api/youtube/videos/${videoId}/stats`, headers: bearer(user.key) })
    ).json();
    assert.deepEqual((stats.structuredContent as { points: unknown[] }).points, rest.points);
    const movers = (await client.callTool({
      name: 'get_channel_movers',
      arguments: { channelId: data.channel.id, window: '7d' },
    })) as ToolResult;
    assert.equal(movers.isError, undefined, JSON.stringify(movers.content));
    const body = movers.structuredContent as { window: string; movers: Array<{ videoId: string }> };
    assert.equal(body.window, '7d');
    assert.ok(body.movers.some((m) => m.videoId === videoId));
    const untracked = (await client.callTool({
      name: 'get_short_stats',
      arguments: { videoId: 'AAAAAAAAAAA' },
    })) as ToolResult;
    assert.equal(untracked.isError, true);
    assert.match(untracked.content[0]?.text ?? '', /^VIDEO_NOT_TRACKED/);
  });

  it('counts each tool call in the window of its REST call, and not the MCP message itself', async (ctx) => {
    const reader = await createUser(t, 10);
    const agent = await connect(t, reader.key);
    ctx.after(() => agent.close());
    const before = await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(reader.key) });
    const remaining = Number(/remaining=(\d+)/.exec(String(before.headers.ratelimit))?.[1]);
    await agent.listTools();
    await agent.callTool({ name: 'get_account', arguments: {} });
    const afterwards = await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(reader.key) });
    // One read for get_account and one for this call: listing tools and the MCP messages count nothing.
    assert.equal(Number(/remaining=(\d+)/.exec(String(afterwards.headers.ratelimit))?.[1]), remaining - 2);
  });

  it('refuses a missing or wrong credential with 401, and GET with 405', async () => {
    const { port } = t.app.server.address() as { port: number };
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify(message),
    });
    assert.equal(none.status, 401);
    assert.equal(((await none.json()) as { error: string }).error, 'UNAUTHORIZED');
    const wrong = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer csk_wrong' },
      body: JSON.stringify(message),
    });
    assert.equal(wrong.status, 401);
    const get = await fetch(`http://127.0.0.1:${port}/mcp`, { headers: { authorization: `Bearer ${user.key}` } });
    assert.deepEqual([get.status, get.headers.get('allow')], [405, 'POST']);
  });

  it('a client cannot mark its own REST call as made through MCP', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: { ...bearer(user.key), 'x-channel-shorts-call-source': 'mcp' },
      payload: { channelUrl: 'https://www.youtube.com/@agents', limit: 1 },
    });
    assert.equal(res.statusCode, 200, res.body);
    const detail = (
      await t.app.inject({
        method: 'GET',
        url: `/api/youtube/shorts/${res.json().requestId}`,
        headers: bearer(user.key),
      })
    ).json();
    assert.equal(detail.via, 'api');
  });

  it('/llms.txt and the Agents guide describe the API and every tool with its configured price', async () => {
    const pricing = (await t.app.inject({ method: 'GET', url: '/api/pricing' })).json();
    const llms = await t.app.inject({ method: 'GET', url: '/llms.txt' });
    assert.equal(llms.statusCode, 200);
    assert.match(String(llms.headers['content-type']), /^text\/markdown/);
    assert.match(llms.body, /^# channel-shorts\n\n> /);
    assert.ok(llms.body.includes(pricing.credits.formula));
    for (const tool of TOOLS) assert.ok(llms.body.includes(`\`${tool}\``), tool);
    assert.ok(llms.body.includes('(/openapi.json)'));
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const guide = String(doc.info.description);
    assert.match(guide, /^## Agents$/m);
    for (const tool of TOOLS) assert.ok(guide.includes(`| \`${tool}\` |`), tool);
    assert.ok(!guide.includes('{{mcpTools}}'));
  });

  it("a key's scopes hold for tools: the REST call's 403 comes back as the tool's error", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/keys',
      headers: bearer(user.token),
      payload: { name: 'agent, read only', scopes: ['account:read'] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const reader = await connect(t, created.json().key);
    const refused = (await reader.callTool({
      name: 'list_channel_shorts',
      arguments: { channelUrl: 'https://www.youtube.com/@agents' },
    })) as ToolResult;
    assert.deepEqual(
      [refused.isError, refused.structuredContent?.error, refused.structuredContent?.status],
      [true, 'FORBIDDEN', 403],
    );
    const allowed = (await reader.callTool({ name: 'get_account', arguments: {} })) as ToolResult;
    assert.equal(allowed.isError, undefined);
    await reader.close();
  });
});

describe('MCP server behind two instances', { skip: skipWithout('postgres') }, () => {
  it('answers a tool call at an instance other than the one the client initialised with', async (ctx) => {
    const first = await harness(ctx, { mode: 'postgres', listen: true });
    const second = await first.peer({ listen: true });
    first.fake.addChannel({ handle: 'agents-two', shortsCount: 10 });
    const user = await createUser(first, 20);
    const client = await connect(first, user.key);
    first.defer(() => client.close());
    assert.ok((await client.listTools()).tools.length > 0);
    const { port } = second.app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${user.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'list_channel_shorts', arguments: { channelUrl: 'https://www.youtube.com/@agents-two' } },
      }),
    });
    assert.equal(res.status, 200);
    const answer = (await res.json()) as { id: number; result: ToolResult };
    assert.equal(answer.id, 7);
    assert.equal((answer.result.structuredContent as { itemCount: number }).itemCount, 10);
    // The charge is the account's, seen from either instance.
    const balance = (await first.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json()
      .credits.balance;
    assert.ok(balance < 20);
  });
});
