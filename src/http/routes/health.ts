// Liveness, readiness and Prometheus metrics (public, outside the API's authentication); one
// operation per file in health/.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { liveness, livenessRoute } from './health/liveness.ts';
import { readiness, readinessRoute } from './health/readiness.ts';
import { metrics, metricsRoute } from './health/metrics.ts';

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({ ...livenessRoute, handler: liveness });
  app.route({ ...readinessRoute, handler: readiness });
  app.route({ ...metricsRoute, handler: metrics });
};
