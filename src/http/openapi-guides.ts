// The guides of the API reference (/docs): markdown in docs/guides/ (written once, read by people in
// the repository too), with the numbers this service is configured with and the errors catalog
// filled in, so the text never repeats a value that could drift.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../infra/paths.ts';
import { ERROR_CATALOG } from '../errors.ts';
import type { Pricing } from '../contract/pricing.ts';
import type { RateLimits } from '../contract/common.ts';
import { mcpTools } from './mcp/tools.ts';

const GUIDES_DIR = join(ROOT, 'docs', 'guides');

/** The guides, in reading order: file name and the title of its section. */
export const GUIDES = [
  { file: 'authentication.md', title: 'Authentication' },
  { file: 'errors.md', title: 'Errors' },
  { file: 'credits.md', title: 'Credits and pricing' },
  { file: 'limits.md', title: 'Limits and headers' },
  { file: 'webhooks.md', title: 'Webhooks' },
  { file: 'statistics.md', title: 'Statistics over time' },
  { file: 'agents.md', title: 'Agents' },
] as const;

const table = (head: string[], rows: Array<Array<string | number>>) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join(
    '\n',
  );

export function errorsTable(): string {
  return table(
    ['HTTP', 'error', 'default message'],
    Object.entries(ERROR_CATALOG)
      .sort(([, a], [, b]) => a.status - b.status)
      .map(([code, e]) => [e.status, `\`${code}\``, e.message]),
  );
}

const duration = (seconds: number) =>
  seconds < 60
    ? `${seconds} s`
    : seconds < 3600
      ? `${Math.round(seconds / 60)} min`
      : `${Math.round((seconds / 3600) * 10) / 10} h`;

export function renderGuides(pricing: Pricing, limits: RateLimits): string {
  const { credits, webhooks } = pricing;
  const values: Record<string, string> = {
    errors: errorsTable(),
    pricing: table(
      ['setting', 'value'],
      [
        ['price of a request', credits.formula],
        ['credits per started block', `${credits.creditsPerBlock} per ${credits.shortsPerBlock} shorts`],
        ['minimum per successful request', credits.minimumPerRequest],
        ['upstream units one credit pays for', credits.quotaUnitsPerCredit],
        ['unpaid upstream units per account and day (failed lookups)', credits.dailyAllowanceUnits],
      ],
    ),
    limits: table(
      ['window', 'requests'],
      [
        ['minute', limits.perMinute],
        ['hour', limits.perHour],
        ['UTC day', limits.perDay],
      ],
    ),
    // What a first request of a fresh minute shows (the reset times are an illustration).
    rateLimitHeaders: [
      `RateLimit-Policy: "minute";q=${limits.perMinute};w=60, "hour";q=${limits.perHour};w=3600, ` +
        `"day";q=${limits.perDay};w=86400`,
      `RateLimit: "minute";r=${limits.perMinute - 1};t=42, "hour";r=${limits.perHour - 1};t=1242, ` +
        `"day";r=${limits.perDay - 1};t=40242`,
    ].join('\n'),
    readLimit: pricing.limits.readsPerMinute > 0 ? String(pricing.limits.readsPerMinute) : 'unlimited',
    maxShorts: String(pricing.limits.maxShortsPerRequest),
    retentionDays: String(pricing.limits.resultRetentionDays),
    mcpTools: table(
      ['tool', 'what it does', 'cost', 'REST call'],
      mcpTools(pricing).map((tool) => [`\`${tool.name}\``, tool.summary, tool.cost, `\`${tool.rest}\``]),
    ),
    webhooks: table(
      ['setting', 'value'],
      [
        ['answer within', `${webhooks.timeoutSeconds} s`],
        ['retries after the first attempt', webhooks.retryScheduleSeconds.map(duration).join(', ')],
        ['attempts at most', webhooks.maxAttempts],
        ['last retry, after the first attempt', duration(webhooks.retryWindowSeconds)],
        ['a replaced signing secret keeps signing for', duration(webhooks.secretOverlapSeconds)],
      ],
    ),
  };
  return GUIDES.map(({ file }) =>
    readFileSync(join(GUIDES_DIR, file), 'utf8')
      .replace(/\{\{(\w+)\}\}/g, (match, name: string) => values[name] ?? match)
      .trim(),
  ).join('\n\n');
}
