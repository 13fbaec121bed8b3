// /api/youtube/watches: a channel checked on a schedule (and on WebSub pushes) for new Shorts,
// reported to a webhook; one operation per file in watches/ (one watch's read, change and delete
// together). Thin: the use cases are in domain/watches/.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createWatch, createWatchRoute } from './watches/create.ts';
import { listWatches, listWatchesRoute } from './watches/list.ts';
import {
  deleteWatch,
  deleteWatchRoute,
  getWatch,
  getWatchRoute,
  updateWatch,
  updateWatchRoute,
} from './watches/one-watch.ts';
import { checkWatch, checkWatchRoute } from './watches/check.ts';

export const watchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({ ...createWatchRoute(app.services.config), handler: createWatch });
  app.route({ ...listWatchesRoute, handler: listWatches });
  app.route({ ...getWatchRoute, handler: getWatch });
  app.route({ ...updateWatchRoute, handler: updateWatch });
  app.route({ ...deleteWatchRoute, handler: deleteWatch });
  app.route({ ...checkWatchRoute, handler: checkWatch });
};
