// Which door a call came through: the REST API, or a tool of the MCP server (which answers each
// tool call by sending the REST call through the app). The MCP server marks its calls with a header
// holding a token made at start and known only to this process, so a client cannot claim the mark.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

export type CallSource = 'api' | 'mcp';

export const CALL_SOURCE_HEADER = 'x-channel-shorts-call-source';
const TOKEN = randomBytes(24).toString('base64url');

/** The header value that marks a call as made by the MCP server. */
export const MCP_CALL_MARK = `mcp ${TOKEN}`;

export function callSourceOf(request: Pick<FastifyRequest, 'headers'>): CallSource {
  const value = request.headers[CALL_SOURCE_HEADER];
  if (typeof value !== 'string') return 'api';
  const given = Buffer.from(value);
  const expected = Buffer.from(MCP_CALL_MARK);
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'mcp' : 'api';
}
