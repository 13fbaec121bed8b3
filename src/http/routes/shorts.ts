// /api/youtube/shorts: the metered operation, the caller's requests, one request and its redelivery;
// one operation per file in shorts/. Every /api/youtube/shorts… error is the failure body, with
// success: false (docs/guides/errors.md), so each route sets config.failureBody.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { submitShorts, submitShortsRoute } from './shorts/submit.ts';
import { listShortsRequests, listShortsRequestsRoute } from './shorts/list.ts';
import { getShortsRequest, getShortsRequestRoute, redeliver, redeliverRoute } from './shorts/one-request.ts';

export const shortsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({ ...submitShortsRoute(app.services.config), handler: submitShorts });
  app.route({ ...listShortsRequestsRoute, handler: listShortsRequests });
  app.route({ ...getShortsRequestRoute, handler: getShortsRequest });
  app.route({ ...redeliverRoute, handler: redeliver });
};
