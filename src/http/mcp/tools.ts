// The MCP tools: each stands for one REST operation and is answered by it. A call is sent through
// the app itself (inject) with the caller's own credential, so it meets the same authentication,
// scopes, validation, rate-limit windows, credits and ledger as the REST call, and fails with the
// same error code. The input schemas are the REST request schemas (less what an agent cannot use).
import { Type, type TSchema } from 'typebox';
import type { Pricing } from '../../contract/pricing.ts';
import { AccountSchema } from '../../contract/accounts.ts';
import { RequestDetailSchema, SuccessBodySchema } from '../../contract/shorts.ts';
import { RequestLogPageSchema } from '../../contract/requests-log.ts';
import { WatchListSchema, WatchSchema } from '../../contract/watches.ts';
import { ShortsRequestBody } from '../schemas/shorts.ts';
import { RequestLogQuerySchema } from '../schemas/requests-log.ts';
import { CreateWatchBody } from '../schemas/watches.ts';
import { ChannelStatsSchema, VideoStatsSchema } from '../../contract/stats.ts';
import { ChannelStatsParams, ChannelStatsQuery, VideoStatsParams, VideoStatsQuery } from '../schemas/stats.ts';

/** The REST call a tool stands for, built from the tool's validated arguments. */
export interface RestCall {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  payload?: Record<string, unknown>;
}

export interface ToolDefinition {
  name: string;
  title: string;
  /** What the tool does; the description agents read adds `cost` and `rest`. */
  summary: string;
  /** What a call costs. */
  cost: string;
  /** The REST operation it stands for, e.g. "GET /accounts". */
  rest: string;
  input: TSchema;
  /** The REST answer's shape on success. */
  output: TSchema;
  call(args: Record<string, unknown>): RestCall;
}

const REQUEST_ID = Type.String({ pattern: '^req_[a-z0-9]{1,40}$', description: 'The id of a shorts request (req_…).' });
const WATCH_ID = Type.String({ pattern: '^wch_[a-z0-9]{1,40}$', description: 'The id of a watch (wch_…).' });

/** A copy of a request schema for a tool: its own shape, without the component name or some fields. */
function toolInput(schema: TSchema, omit: string[] = []): TSchema {
  const { $id: _id, ...rest } = schema as TSchema & { $id?: string; properties: Record<string, TSchema> };
  const properties = Object.fromEntries(Object.entries(rest.properties).filter(([key]) => !omit.includes(key)));
  const required = ((rest as { required?: string[] }).required ?? []).filter((key) => !omit.includes(key));
  return { ...rest, properties, required } as unknown as TSchema;
}

/** A query-string schema as a tool input: defaults become optional (the route fills them in). */
function queryInput(schema: TSchema): TSchema {
  const input = toolInput(schema) as TSchema & {
    required: string[];
    properties: Record<string, { default?: unknown }>;
  };
  return {
    ...input,
    required: input.required.filter((key) => input.properties[key]?.default === undefined),
  } as TSchema;
}

/** A GET operation's path parameters and query string as one tool input (the path parameters required). */
function pathAndQueryInput(path: TSchema, search: TSchema): TSchema {
  const params = toolInput(path) as TSchema & { properties: Record<string, TSchema>; required: string[] };
  const rest = queryInput(search) as TSchema & { properties: Record<string, TSchema>; required: string[] };
  return {
    type: 'object',
    properties: { ...params.properties, ...rest.properties },
    required: [...params.required, ...rest.required],
    additionalProperties: false,
  } as unknown as TSchema;
}

const query = (args: Record<string, unknown>) => {
  const search = new URLSearchParams(
    Object.entries(args)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, String(value)]),
  ).toString();
  return search ? `?${search}` : '';
};

const FREE = 'Free; counts in the read limit.';

/** Every tool the MCP server offers, in the order tools/list lists them. */
export function mcpTools(pricing: Pricing): ToolDefinition[] {
  return [...requestTools(pricing), ...statsTools(), ...accountTools(pricing)];
}

/** Reading a channel's Shorts, and the requests made so far. */
function requestTools(pricing: Pricing): ToolDefinition[] {
  return [
    {
      name: 'list_channel_shorts',
      title: "List a YouTube channel's Shorts",
      summary:
        "A channel's Shorts (newest first by default) with the channel's details: ids, titles, publish dates, " +
        'durations, view/like/comment counts, thumbnails. Use limit, oldestDate (Unix milliseconds) or the ' +
        'duration filters to read and pay less.',
      cost: `${pricing.credits.formula} Counts in the metered limits.`,
      rest: 'POST /api/youtube/shorts (without webhookUrl)',
      input: toolInput(ShortsRequestBody, ['webhookUrl']),
      output: SuccessBodySchema,
      call: (args) => ({ method: 'POST', url: '/api/youtube/shorts', payload: args }),
    },
    {
      name: 'get_request',
      title: 'Get one shorts request',
      summary:
        'One earlier shorts request: its status, parameters, result summary, credits charged and webhook attempts.',
      cost: FREE,
      rest: 'GET /api/youtube/shorts/{requestId}',
      input: Type.Object({ requestId: REQUEST_ID }, { additionalProperties: false }),
      output: RequestDetailSchema,
      call: (args) => ({ method: 'GET', url: `/api/youtube/shorts/${encodeURIComponent(String(args.requestId))}` }),
    },
    {
      name: 'list_requests',
      title: 'List recent shorts requests',
      summary:
        "The account's shorts requests, newest first, filtered by status, mode, key, channel text " +
        'or time; page with nextCursor.',
      cost: FREE,
      rest: 'GET /api/youtube/shorts',
      input: queryInput(RequestLogQuerySchema),
      output: RequestLogPageSchema,
      call: (args) => ({ method: 'GET', url: `/api/youtube/shorts${query(args)}` }),
    },
  ];
}

/** Statistics over time: free reads of stored snapshots. */
function statsTools(): ToolDefinition[] {
  return [
    {
      name: 'get_short_stats',
      title: "Get a Short's counts over time",
      summary:
        "A Short's stored view/like/comment counts over time (oldest first, from/to as ISO 8601 times, default " +
        'the last 30 days) and its growth over 24 hours, 7 days and 30 days. Only Shorts the service has read ' +
        'have history (VIDEO_NOT_TRACKED otherwise).',
      cost: FREE,
      rest: 'GET /api/youtube/videos/{videoId}/stats',
      input: pathAndQueryInput(VideoStatsParams, VideoStatsQuery),
      output: VideoStatsSchema,
      call: ({ videoId, ...rest }) => ({
        method: 'GET',
        url: `/api/youtube/videos/${encodeURIComponent(String(videoId))}/stats${query(rest)}`,
      }),
    },
    {
      name: 'get_channel_movers',
      title: "Get a channel's fastest-growing Shorts",
      summary:
        "A channel's Shorts with stored history ranked by views gained in the window (24h, 7d or 30d), with " +
        "their last counts and growth, and the channel's own counts over the window.",
      cost: FREE,
      rest: 'GET /api/youtube/channels/{channelId}/stats',
      input: pathAndQueryInput(ChannelStatsParams, ChannelStatsQuery),
      output: ChannelStatsSchema,
      call: ({ channelId, ...rest }) => ({
        method: 'GET',
        url: `/api/youtube/channels/${encodeURIComponent(String(channelId))}/stats${query(rest)}`,
      }),
    },
  ];
}

/** The account and its watches. */
function accountTools(pricing: Pricing): ToolDefinition[] {
  return [
    {
      name: 'get_account',
      title: 'Get the account',
      summary:
        'The balance (credits, reserved, available), rate limits, usage and low-balance alert of ' +
        'the account the key belongs to.',
      cost: FREE,
      rest: 'GET /accounts',
      input: Type.Object({}, { additionalProperties: false }),
      output: AccountSchema,
      call: () => ({ method: 'GET', url: '/accounts' }),
    },
    {
      name: 'create_watch',
      title: 'Watch a channel for new Shorts',
      summary:
        `Checks the channel every intervalSeconds (at least ${pricing.watches.minIntervalSeconds}) and ` +
        'POSTs a signed shorts.created webhook to webhookUrl for each new Short; at ' +
        `most ${pricing.watches.maxPerAccount} watches per account.`,
      cost:
        'Creating it reads the channel once, priced like a check; each check costs the upstream units it ' +
        'spends, in credits (GET /api/pricing).',
      rest: 'POST /api/youtube/watches',
      input: toolInput(CreateWatchBody),
      output: WatchSchema,
      call: (args) => ({ method: 'POST', url: '/api/youtube/watches', payload: args }),
    },
    {
      name: 'list_watches',
      title: 'List watches',
      summary: "The account's watches, oldest first, with their state and last check.",
      cost: FREE,
      rest: 'GET /api/youtube/watches',
      input: Type.Object({}, { additionalProperties: false }),
      output: WatchListSchema,
      call: () => ({ method: 'GET', url: '/api/youtube/watches' }),
    },
    {
      name: 'delete_watch',
      title: 'Delete a watch',
      summary: 'Stops and deletes a watch and answers it as it was; its checks stop at once.',
      cost: FREE,
      rest: 'DELETE /api/youtube/watches/{watchId}',
      input: Type.Object({ watchId: WATCH_ID }, { additionalProperties: false }),
      output: WatchSchema,
      call: (args) => ({ method: 'DELETE', url: `/api/youtube/watches/${encodeURIComponent(String(args.watchId))}` }),
    },
  ];
}

/** What an agent reads: what the tool does, what it costs, and the REST call it stands for. */
export const describeTool = (tool: ToolDefinition): string =>
  `${tool.summary} Cost: ${tool.cost} Same as ${tool.rest}.`;
