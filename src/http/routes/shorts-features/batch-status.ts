// A batch of the caller's: its progress, and its batch.completed summary sent again.
import { AppError } from '../../../errors.ts';
import { summariseBatch } from '../../../domain/requests/batches.ts';
import { listAttempts } from '../../../domain/webhooks/delivery-log.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { describeActionLimit, limitAction } from '../../action-limits.ts';
import { failureResponse as failure, json } from '../../schemas/common.ts';
import { BatchRedeliveryQueuedSchema, BatchStatusSchema } from '../../schemas/shorts-features.ts';
import type { ReplyOf, RequestOf } from '../../types.ts';
import { BatchParams, commonErrors, ownBatch } from './common.ts';

export const batchStatusRoute = {
  method: 'GET',
  url: '/api/youtube/shorts/batch/:batchId',
  config: { auth: true, scope: 'shorts:read', failureBody: true },
  schema: {
    tags: ['shorts'],
    summary: "Progress of a batch: counts, each item's status and charge, and the summary webhook's delivery attempts.",
    security: [{ bearer: [] }],
    params: BatchParams,
    response: {
      200: json("The batch's progress.", BatchStatusSchema),
      ...commonErrors,
      404: failure('No such batch for this account.', ['NOT_FOUND']),
    },
  },
} as const;

export async function batchStatus(request: RequestOf<typeof batchStatusRoute.schema>) {
  const { db } = request.server.services;
  const batch = await ownBatch(db, callerOf(request).accountId, request.params.batchId);
  return {
    success: true as const,
    ...(await summariseBatch(db, batch)),
    deliveries: await listAttempts(db, { batchId: batch.id }),
  };
}

export const redeliverBatchRoute = {
  method: 'POST',
  url: '/api/youtube/shorts/batch/:batchId/redeliver',
  config: { auth: true, scope: 'shorts:write', failureBody: true },
  schema: {
    tags: ['shorts'],
    summary:
      "Send a finished batch's batch.completed summary again now (same webhook-id). 409 while the batch runs or " +
      'a delivery is queued or running.',
    description:
      "Free of charge and outside the account's metered rate limits, but limited " +
      `to ${describeActionLimit('redeliver')} per account, with request redeliveries (429 ` +
      'RATE_LIMITED with Retry-After beyond).',
    security: [{ bearer: [] }],
    params: BatchParams,
    response: {
      202: json('The redelivery is queued.', BatchRedeliveryQueuedSchema),
      ...commonErrors,
      404: failure('No such batch for this account.', ['NOT_FOUND']),
      409: failure('The batch is still running, or a delivery of its summary is queued or running.', [
        'CONFLICT',
        'DELIVERY_IN_PROGRESS',
      ]),
      429: failure(`Too many redeliveries (${describeActionLimit('redeliver')}); see Retry-After.`, ['RATE_LIMITED']),
    },
  },
} as const;

export async function redeliverBatch(
  request: RequestOf<typeof redeliverBatchRoute.schema>,
  reply: ReplyOf<typeof redeliverBatchRoute.schema>,
) {
  const { db, jobs, rateLimiter } = request.server.services;
  const batch = await ownBatch(db, callerOf(request).accountId, request.params.batchId);
  if (!batch.completed_at)
    throw new AppError(
      'CONFLICT',
      'This batch is still running; its summary will be sent when its last item completes.',
    );
  await limitAction(rateLimiter, 'redeliver', batch.account_id, reply);
  const attempt = await jobs.redeliver({ batchId: batch.id });
  reply.code(202);
  return { batchId: batch.id, status: 'queued' as const, attempt };
}
