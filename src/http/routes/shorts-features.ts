// Batches of webhook requests (submit, list, progress, summary redelivery) and a stored result read in
// pages; one operation per file in shorts-features/ (the batch's progress and its redelivery together).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { submitBatch, submitBatchRoute } from './shorts-features/submit-batch.ts';
import { batchStatus, batchStatusRoute, redeliverBatch, redeliverBatchRoute } from './shorts-features/batch-status.ts';
import { resultItems, resultItemsRoute } from './shorts-features/items.ts';
import { listBatchesHandler, listBatchesRoute } from './shorts-features/list-batches.ts';

export const shortsFeatureRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app.services;
  app.route({ ...submitBatchRoute(config), handler: submitBatch });
  app.route({ ...listBatchesRoute, handler: listBatchesHandler });
  app.route({ ...batchStatusRoute, handler: batchStatus });
  app.route({ ...redeliverBatchRoute, handler: redeliverBatch });
  app.route({ ...resultItemsRoute(config), handler: resultItems });
};
