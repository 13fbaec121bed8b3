// GET /llms.txt (llmstxt.org): the API summarised for language models — what it does, how to
// authenticate, the main operations, the configured prices and limits, and where the full reference
// is. Built from the same config and tool list as /docs, so it cannot drift from the service.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Pricing } from '../../contract/pricing.ts';
import type { RateLimits } from '../../contract/common.ts';
import { defaultRateLimits } from '../../domain/limits/windows.ts';
import { configuredPricing } from '../pricing.ts';
import { mcpTools } from '../mcp/tools.ts';

const OPERATIONS = [
  [
    'POST /api/youtube/shorts',
    "a channel's Shorts with the channel's details, at once (200) or by signed webhook (202)",
  ],
  ['POST /api/youtube/shorts/batch', 'up to 50 channels at once, each by webhook, then a batch.completed summary'],
  ['GET /api/youtube/shorts/{requestId}', 'one request: status, result summary, credits, webhook attempts'],
  ['GET /api/youtube/shorts/{requestId}/items', 'a stored result, page by page'],
  ['GET /api/youtube/shorts', 'the requests log, newest first'],
  ['POST /api/youtube/watches', 'watch a channel: a signed shorts.created webhook for each new Short'],
  ['GET /accounts', 'balance, limits and usage'],
  ['GET /api/pricing', 'the configured prices and webhook timings (no credential)'],
] as const;

export function renderLlmsTxt(pricing: Pricing, limits: RateLimits): string {
  const lines = [
    '# channel-shorts',
    '',
    "> A metered HTTP API that returns the Shorts of a YouTube channel together with the channel's details, in " +
      'the response or later through a signed webhook (Standard Webhooks), and watches channels for new Shorts. ' +
      'Also an MCP server for agents.',
    '',
    '- Authentication: `Authorization: Bearer <key>` on every call, an API key (`csk_…`) or a session token from ' +
      '`POST /auth/login`. Keys have scopes: `shorts:write`, `shorts:read`, `account:read`.',
    `- Price: ${pricing.credits.formula} Reads, watches' management and account calls are free.`,
    `- Limits per account: ${limits.perMinute} metered calls a minute, ${limits.perHour} an ` +
      `hour, ${limits.perDay} a day; other ` +
      `calls ${pricing.limits.readsPerMinute > 0 ? `${pricing.limits.readsPerMinute} a minute` : 'unlimited'}. 429 ` +
      'answers carry Retry-After and RateLimit headers.',
    `- At most ${pricing.limits.maxShortsPerRequest} shorts per request; stored results are ` +
      `kept ${pricing.limits.resultRetentionDays} days.`,
    '- Errors: `{error, message, requestId}` with an UPPER_SNAKE code (shorts routes add `success: false`).',
    '',
    '## Main operations',
    '',
    ...OPERATIONS.map(([operation, what]) => `- \`${operation}\`: ${what}`),
    '',
    '## MCP server',
    '',
    'Streamable HTTP at `/mcp` with the same bearer key; each tool call is the REST call it names (same ' +
      'credits, limits and error codes).',
    '',
    ...mcpTools(pricing).map((tool) => `- \`${tool.name}\`: ${tool.summary} (${tool.rest})`),
    '',
    '## Docs',
    '',
    '- [OpenAPI document](/openapi.json): every operation, schema, example and error',
    '- [API reference](/docs): the same with guides: authentication, errors, credits and pricing, limits and ' +
      'headers, webhooks (signature verification in six languages), agents (MCP client set-up)',
    '- [Pricing](/api/pricing): the configured numbers, as JSON',
    '',
  ];
  return lines.join('\n');
}

export const llmsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const text = renderLlmsTxt(configuredPricing(app.services.config), defaultRateLimits(app.services.config));
  app.get(
    '/llms.txt',
    {
      schema: {
        tags: ['agents'],
        summary: 'The API summarised for language models (llmstxt.org), as Markdown.',
        security: [],
        produces: ['text/markdown'],
        response: { 200: Type.String({ description: 'Markdown.' }) },
      },
    },
    async (_request, reply) =>
      reply.type('text/markdown; charset=utf-8').header('cache-control', 'public, max-age=300').send(text),
  );
};
