// Refused calls per day, the account-wide webhook delivery log and "send test event"; one operation
// per file in requests-log/. The filtered, paged requests list itself is GET /api/youtube/shorts
// (shorts/list.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rejections, rejectionsRoute } from './requests-log/rejections.ts';
import { deliveryLog, deliveryLogRoute } from './requests-log/deliveries.ts';
import { testEvent, testEventRoute } from './requests-log/test-event.ts';

export const requestsLogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({ ...rejectionsRoute, handler: rejections });
  app.route({ ...deliveryLogRoute, handler: deliveryLog });
  app.route({ ...testEventRoute, handler: testEvent });
};
