// GET /api/pricing: the configured price and webhook timings, public, so the dashboard and API
// clients read them from the server instead of keeping copies.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PricingSchema } from '../../contract/pricing.ts';
import { configuredPricing } from '../pricing.ts';
import { json } from '../schemas/common.ts';

export const pricingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app.services;
  // Read once: the configuration does not change while the process runs.
  const pricing = configuredPricing(config);

  app.get(
    '/api/pricing',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The price of a request and the webhook timings, as configured here. No credential needed.',
        response: { 200: json('The price and timings.', PricingSchema) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return pricing;
    },
  );
};
