// GET /api/youtube/shorts/batch: the caller's batches, newest first, with their progress.
import { listBatches } from '../../../domain/requests/batch-list.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { json } from '../../schemas/common.ts';
import { BatchListQuery, BatchListSchema } from '../../schemas/shorts-features.ts';
import type { RequestOf } from '../../types.ts';
import { commonErrors } from './common.ts';

export const listBatchesRoute = {
  method: 'GET',
  url: '/api/youtube/shorts/batch',
  config: { auth: true, scope: 'shorts:read', failureBody: true },
  schema: {
    tags: ['shorts'],
    summary: 'The batches of the account, newest first: progress counts and charge of each, in pages.',
    security: [{ bearer: [] }],
    querystring: BatchListQuery,
    response: {
      200: json('One page of batches, newest first.', BatchListSchema),
      ...commonErrors,
    },
  },
} as const;

export async function listBatchesHandler(request: RequestOf<typeof listBatchesRoute.schema>) {
  const { limit, cursor } = request.query;
  return {
    success: true as const,
    ...(await listBatches(request.server.services.db, callerOf(request).accountId, {
      limit,
      cursor: cursor || undefined,
    })),
  };
}
