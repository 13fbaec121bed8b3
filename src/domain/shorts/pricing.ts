// Default price: 1 credit per started block of 50 shorts returned, at least 1 credit per call.
import type { Pricing } from '../../contract/pricing.ts';
export interface PriceSettings {
  creditsPerBlock: number;
  shortsPerBlock: number;
  minimumCredits: number;
}

export function priceFor(itemCount: number, settings: PriceSettings): number {
  return Math.max(settings.minimumCredits, Math.ceil(itemCount / settings.shortsPerBlock) * settings.creditsPerBlock);
}

/** Everything GET /api/pricing publishes, as plain numbers (the route reads them from the config). */
export interface PricingInput {
  price: PriceSettings;
  unitsPerCredit: number;
  allowanceUnits: number;
  maxShortsPerRequest: number;
  resultRetentionDays: number;
  readsPerMinute: number;
  webhookTimeoutMs: number;
  retryScheduleSeconds: number[];
  secretOverlapSeconds: number;
  watches: Pricing['watches'];
}

/** The price in words: one sentence, used by the pricing endpoint and the OpenAPI description. */
export function priceFormula(price: PriceSettings, unitsPerCredit: number): string {
  return (
    `max(${price.minimumCredits}, ceil(shorts / ${price.shortsPerBlock}) × ${price.creditsPerBlock}, ` +
    `ceil(upstream units / ${unitsPerCredit})) credits; nothing is charged on failure.`
  );
}

export function describePricing(input: PricingInput): Omit<Pricing, 'supportContact'> {
  const schedule = input.retryScheduleSeconds;
  return {
    credits: {
      creditsPerBlock: input.price.creditsPerBlock,
      shortsPerBlock: input.price.shortsPerBlock,
      minimumPerRequest: input.price.minimumCredits,
      quotaUnitsPerCredit: input.unitsPerCredit,
      dailyAllowanceUnits: input.allowanceUnits,
      formula: priceFormula(input.price, input.unitsPerCredit),
    },
    limits: {
      maxShortsPerRequest: input.maxShortsPerRequest,
      resultRetentionDays: input.resultRetentionDays,
      readsPerMinute: input.readsPerMinute,
    },
    webhooks: {
      timeoutSeconds: input.webhookTimeoutMs / 1000,
      retryScheduleSeconds: [...schedule],
      maxAttempts: 1 + schedule.length,
      retryWindowSeconds: schedule.reduce((sum, s) => sum + s, 0),
      secretOverlapSeconds: input.secretOverlapSeconds,
    },
    watches: { ...input.watches },
  };
}
