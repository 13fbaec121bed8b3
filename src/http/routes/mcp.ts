// The MCP server for AI agents (Model Context Protocol, Streamable HTTP, stateless): POST /mcp with
// the same bearer credential as the REST API. Each request gets its own server and transport, so
// any instance answers any message; each tool call is the REST call it stands for (mcp/tools.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type CallToolResult,
  fromJsonSchema,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { configuredPricing } from '../pricing.ts';
import { describeTool, mcpTools, type ToolDefinition } from '../mcp/tools.ts';
import { CALL_SOURCE_HEADER, MCP_CALL_MARK } from '../mcp/call-source.ts';
import { ErrorBody, errorResponse } from '../schemas/common.ts';

const SERVER_INFO = { name: 'channel-shorts', version: '1.0.0' };
const JSON_RPC = {
  type: 'object',
  required: ['jsonrpc'],
  properties: { jsonrpc: { const: '2.0' } },
  additionalProperties: true,
} as const;

/** Sends the tool's REST call through the app with the caller's credential and reads the answer. */
async function answer(
  app: FastifyInstance,
  request: FastifyRequest,
  tool: ToolDefinition,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const call = tool.call(args);
  const response = await app.inject({
    method: call.method,
    url: call.url,
    headers: {
      authorization: request.headers.authorization ?? '',
      [CALL_SOURCE_HEADER]: MCP_CALL_MARK,
      ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
      ...(call.payload ? { 'content-type': 'application/json' } : {}),
    },
    remoteAddress: request.ip,
    ...(call.payload ? { payload: call.payload } : {}),
  });
  const body = response.body === '' ? undefined : (JSON.parse(response.body) as Record<string, unknown>);
  if (response.statusCode >= 400) {
    const error = body ?? { error: `HTTP_${response.statusCode}`, message: response.statusMessage };
    const text =
      `${String(error.error)}: ${String(error.message)}` +
      `${error.requestId ? ` (requestId ${String(error.requestId)})` : ''}`;
    const retryAfter = response.headers['retry-after'];
    return {
      isError: true,
      content: [{ type: 'text', text: retryAfter ? `${text} Retry after ${String(retryAfter)} s.` : text }],
      structuredContent: { ...error, status: response.statusCode },
    };
  }
  const result = body ?? {};
  return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
}

/** A tool with its schemas compiled, once per process: every message builds a server from these. */
interface PreparedTool {
  tool: ToolDefinition;
  input: ReturnType<typeof fromJsonSchema<Record<string, unknown>>>;
  output: ReturnType<typeof fromJsonSchema<Record<string, unknown>>>;
}

/**
 * The schema without `format: "iri"`, which the SDK's validator does not know (it would warn on
 * every compile); the REST call the tool makes validates the address in full.
 */
function withKnownFormats(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withKnownFormats);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'format' && value === 'iri'))
      .map(([key, value]) => [key, withKnownFormats(value)]),
  );
}

function prepare(tools: ToolDefinition[]): PreparedTool[] {
  return tools.map((tool) => ({
    tool,
    input: fromJsonSchema<Record<string, unknown>>(withKnownFormats(tool.input) as never),
    output: fromJsonSchema<Record<string, unknown>>(withKnownFormats(tool.output) as never),
  }));
}

function buildServer(app: FastifyInstance, request: FastifyRequest, tools: PreparedTool[]): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      "Lists a YouTube channel's Shorts with the channel's details, metered in credits; watches channels for new " +
      'Shorts. Read get_account for the balance before large reads.',
  });
  for (const { tool, input, output } of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: describeTool(tool),
        inputSchema: input,
        outputSchema: output,
      },
      (args) => answer(app, request, tool, args),
    );
  }
  return server;
}

async function handle(app: FastifyInstance, tools: PreparedTool[], request: FastifyRequest, reply: FastifyReply) {
  const server = buildServer(app, request, tools);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const web = new Request(`http://${request.host}${request.url}`, { method: 'POST', headers });
    const response = await transport.handleRequest(web, { parsedBody: request.body });
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      reply.header(name, value);
    });
    const text = await response.text();
    return reply.send(text === '' ? null : text);
  } finally {
    await transport.close();
    await server.close();
  }
}

export async function mcpRoutes(app: FastifyInstance): Promise<void> {
  const defined = mcpTools(configuredPricing(app.services.config));
  const tools = prepare(defined);
  app.post(
    '/mcp',
    {
      config: { auth: true, innerCallsCounted: true },
      schema: {
        tags: ['agents'],
        summary: 'The MCP server for AI agents (Streamable HTTP, JSON-RPC 2.0; see the Agents guide).',
        description:
          'One JSON-RPC message (or a batch) per POST, answered as JSON (no event stream, no session). Send ' +
          '`Accept: application/json, text/event-stream` as MCP clients do. Tools: ' +
          defined.map((t) => `\`${t.name}\``).join(', ') +
          '. A tool call is the REST call it names: the same scopes, limits, credits and error codes.',
        response: {
          200: {
            ...JSON_RPC,
            description: 'The JSON-RPC response.',
            examples: [
              {
                jsonrpc: '2.0',
                id: 2,
                result: {
                  content: [{ type: 'text', text: '{"credits":{"balance":97,"reserved":0,"available":97}}' }],
                  structuredContent: { credits: { balance: 97, reserved: 0, available: 97 } },
                },
              },
            ],
          },
          202: { type: 'null', description: 'A notification or response from the client, accepted; no body.' },
          400: {
            description:
              'Not a valid JSON-RPC message (a JSON-RPC error object), or input every route refuses (the error body).',
            anyOf: [JSON_RPC, ErrorBody],
            examples: [{ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: Invalid JSON' } }],
          },
          401: errorResponse('No credential, or not a valid one.', ['UNAUTHORIZED']),
          406: {
            ...JSON_RPC,
            description: 'Accept must list application/json and text/event-stream.',
            examples: [
              {
                jsonrpc: '2.0',
                id: null,
                error: {
                  code: -32000,
                  message: 'Not Acceptable: Client must accept both application/json and text/event-stream',
                },
              },
            ],
          },
          413: errorResponse('The body is over 64 KiB.', ['PAYLOAD_TOO_LARGE']),
          415: errorResponse('The body must be application/json.', ['UNSUPPORTED_MEDIA_TYPE']),
        },
      },
    },
    (request, reply) => handle(app, tools, request, reply),
  );
  // A stateless server offers no event stream to GET and no session to DELETE (MCP, Streamable HTTP).
  app.route({
    method: ['GET', 'DELETE'],
    url: '/mcp',
    schema: { hide: true },
    handler: (_request, reply) =>
      reply
        .code(405)
        .header('allow', 'POST')
        .send({
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method not allowed: this MCP server answers POST only.' },
          id: null,
        }),
  });
}
