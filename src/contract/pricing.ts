// The price and webhook timings, as GET /api/pricing publishes them: dashboards and clients read
// them from the server instead of keeping copies that drift from the configuration.
import { Type, type Static } from 'typebox';
import { Nullable } from './common.ts';

export const PricingSchema = Type.Object(
  {
    credits: Type.Object({
      creditsPerBlock: Type.Integer({
        description: 'Credits per started block of shortsPerBlock shorts returned (CREDITS_PER_BLOCK).',
      }),
      shortsPerBlock: Type.Integer({ description: 'SHORTS_PER_CREDIT_BLOCK.' }),
      minimumPerRequest: Type.Integer({
        description: 'Every successful request costs at least this (MIN_CREDITS_PER_REQUEST).',
      }),
      quotaUnitsPerCredit: Type.Integer({
        description:
          'Upstream units one credit pays for; a request never costs less than ceil(units / ' +
          'this) (QUOTA_UNITS_PER_CREDIT).',
      }),
      dailyAllowanceUnits: Type.Integer({
        description: 'Unpaid upstream units per account and quota day for failed lookups (QUOTA_ALLOWANCE_UNITS).',
      }),
      formula: Type.String({ description: 'The price, in words.' }),
    }),
    limits: Type.Object({
      maxShortsPerRequest: Type.Integer({
        description: 'MAX_SHORTS_PER_REQUEST: more matching shorts make the answer truncated:true.',
      }),
      resultRetentionDays: Type.Integer({
        description: 'RESULT_RETENTION_DAYS: how long stored results can be read and redelivered.',
      }),
      readsPerMinute: Type.Integer({
        description:
          'READ_RATE_LIMIT_PER_MINUTE: calls per minute per account outside the metered routes (reads, keys, ' +
          'webhook tools); 0: unlimited.',
      }),
    }),
    webhooks: Type.Object({
      timeoutSeconds: Type.Number({
        description: 'A receiver must answer 2xx within this (WEBHOOK_TIMEOUT_MS / 1000).',
      }),
      retryScheduleSeconds: Type.Array(Type.Number({ minimum: 0 }), {
        description:
          'Seconds before each retry after the first attempt (WEBHOOK_RETRY_SCHEDULE), with ' +
          'jitter; Retry-After is honoured.',
      }),
      maxAttempts: Type.Integer({ description: '1 + the retries.' }),
      retryWindowSeconds: Type.Number({
        description: 'Sum of the schedule: how long after the first attempt the last retry is sent.',
      }),
      secretOverlapSeconds: Type.Integer({
        description:
          'How long a replaced signing secret keeps signing after a rotation (WEBHOOK_SECRET_OVERLAP_SECONDS).',
      }),
    }),
    watches: Type.Object({
      minIntervalSeconds: Type.Integer({
        description: 'The shortest check interval a watch accepts, also the default (WATCH_MIN_INTERVAL_SECONDS).',
      }),
      maxIntervalSeconds: Type.Integer({ description: 'The longest check interval a watch accepts (30 days).' }),
      maxPerAccount: Type.Integer({ description: 'Watches one account may have (WATCHES_PER_ACCOUNT).' }),
      trackStats: Type.Object(
        {
          unitsPerCall: Type.Integer({ description: 'Upstream units one videos.list call costs.' }),
          shortsPerCall: Type.Integer({ description: 'Shorts one call refreshes.' }),
          maxDays: Type.Integer({ description: 'The largest trackStats.days.' }),
          perCheck: Type.String({ description: 'What tracking adds to each check, in words.' }),
        },
        { description: "A watch's trackStats: what refreshing the recent Shorts' counts costs per check." },
      ),
    }),
    supportContact: Nullable(
      Type.String({
        description: 'Where to get more credits: an email address or URL (SUPPORT_CONTACT); null when not configured.',
      }),
    ),
  },
  {
    $id: 'Pricing',
    description: 'The configured price and webhook timings.',
    examples: [
      {
        credits: {
          creditsPerBlock: 1,
          shortsPerBlock: 50,
          minimumPerRequest: 1,
          quotaUnitsPerCredit: 4,
          dailyAllowanceUnits: 50,
          formula: 'max(1, ceil(shorts / 50) × 1, ceil(upstream units / 4)) credits; nothing is charged on failure.',
        },
        limits: { maxShortsPerRequest: 5000, resultRetentionDays: 7, readsPerMinute: 600 },
        webhooks: {
          timeoutSeconds: 15,
          retryScheduleSeconds: [5, 300, 1800, 7200, 18000, 36000, 36000],
          maxAttempts: 8,
          retryWindowSeconds: 99305,
          secretOverlapSeconds: 86400,
        },
        watches: {
          minIntervalSeconds: 900,
          maxIntervalSeconds: 2592000,
          maxPerAccount: 20,
          trackStats: {
            unitsPerCall: 1,
            shortsPerCall: 50,
            maxDays: 90,
            perCheck:
              'ceil(n / 50) upstream units, n = the Shorts published within trackStats.days (and the listing ' +
              "page's), paid with the check at ceil(units / 4) credits beyond its prepaid units.",
          },
        },
        supportContact: 'billing@example.com',
      },
    ],
  },
);
export type Pricing = Static<typeof PricingSchema>;
