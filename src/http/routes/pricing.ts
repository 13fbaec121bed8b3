// GET /api/pricing: the configured price and webhook timings, public, so the dashboard and API
// clients read them from the server instead of keeping copies (issue #16 point 4, #17 point 3).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PricingSchema } from '../../contract/pricing.ts';
import { describePricing } from '../../domain/shorts/pricing.ts';
import { parseRetrySchedule } from '../../config.ts';
import { json } from '../schemas/common.ts';

export const pricingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app.services;
  // Read once: the configuration does not change while the process runs.
  const pricing = describePricing({
    price: { creditsPerBlock: config.CREDITS_PER_BLOCK, shortsPerBlock: config.SHORTS_PER_CREDIT_BLOCK, minimumCredits: config.MIN_CREDITS_PER_REQUEST },
    unitsPerCredit: config.QUOTA_UNITS_PER_CREDIT,
    allowanceUnits: config.QUOTA_ALLOWANCE_UNITS,
    maxShortsPerRequest: config.MAX_SHORTS_PER_REQUEST,
    resultRetentionDays: config.RESULT_RETENTION_DAYS,
    webhookTimeoutMs: config.WEBHOOK_TIMEOUT_MS,
    retryScheduleSeconds: parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE),
    secretOverlapSeconds: config.WEBHOOK_SECRET_OVERLAP_SECONDS,
  });

  app.get('/api/pricing', {
    schema: {
      tags: ['accounts'],
      summary: 'The price of a request and the webhook timings, as configured here. No credential needed.',
      response: { 200: json('The price and timings.', PricingSchema) },
    },
  }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return pricing;
  });
};
