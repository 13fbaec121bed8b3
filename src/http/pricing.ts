// The configured price and webhook timings (GET /api/pricing, the /docs guides): read from the
// config once, described by the domain.
import type { Config } from '../config.ts';
import { parseRetrySchedule } from '../config.ts';
import type { Pricing } from '../contract/pricing.ts';
import { describePricing } from '../domain/shorts/pricing.ts';
import { MAX_WATCH_INTERVAL_SECONDS } from '../domain/watches/watches.ts';
import { IDS_PER_CALL } from '../domain/stats/tracking.ts';

export function configuredPricing(config: Config): Pricing {
  const described = describePricing({
    price: {
      creditsPerBlock: config.CREDITS_PER_BLOCK,
      shortsPerBlock: config.SHORTS_PER_CREDIT_BLOCK,
      minimumCredits: config.MIN_CREDITS_PER_REQUEST,
    },
    unitsPerCredit: config.QUOTA_UNITS_PER_CREDIT,
    allowanceUnits: config.QUOTA_ALLOWANCE_UNITS,
    maxShortsPerRequest: config.MAX_SHORTS_PER_REQUEST,
    resultRetentionDays: config.RESULT_RETENTION_DAYS,
    readsPerMinute: config.READ_RATE_LIMIT_PER_MINUTE,
    webhookTimeoutMs: config.WEBHOOK_TIMEOUT_MS,
    retryScheduleSeconds: parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE),
    secretOverlapSeconds: config.WEBHOOK_SECRET_OVERLAP_SECONDS,
    watches: {
      minIntervalSeconds: config.WATCH_MIN_INTERVAL_SECONDS,
      maxIntervalSeconds: MAX_WATCH_INTERVAL_SECONDS,
      maxPerAccount: config.WATCHES_PER_ACCOUNT,
      trackStats: {
        unitsPerCall: 1,
        shortsPerCall: IDS_PER_CALL,
        maxDays: 90,
        perCheck:
          `ceil(n / ${IDS_PER_CALL}) upstream units, n = the Shorts published within trackStats.days (and the ` +
          `listing page's), paid with the check at ceil(units / ${config.QUOTA_UNITS_PER_CREDIT}) credits beyond ` +
          'its prepaid units.',
      },
    },
  });
  return { ...described, supportContact: config.SUPPORT_CONTACT.trim() || null };
}
