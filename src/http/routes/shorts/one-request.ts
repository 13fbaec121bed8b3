// One shorts request of the caller's: its status and result, and its webhook sent again.
import { Type } from 'typebox';
import { AppError } from '../../../errors.ts';
import type { Queryable } from '../../../infra/db/database.ts';
import { findRequest, summarise } from '../../../domain/requests/request-store.ts';
import { expiresAt } from '../../../domain/requests/stored-results.ts';
import { listAttempts } from '../../../domain/webhooks/delivery-log.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { describeActionLimit, limitAction } from '../../action-limits.ts';
import { authErrors, FailureBody, failureResponse as failure, json } from '../../schemas/common.ts';
import { RedeliveryQueuedSchema, RequestDetailSchema } from '../../schemas/shorts.ts';
import type { ReplyOf, RequestOf } from '../../types.ts';

const RequestParams = Type.Object({
  requestId: Type.String({
    pattern: '^req_[a-z0-9]{1,40}$',
    description: 'The requestId of a shorts request.',
    examples: ['req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0'],
  }),
});

async function ownRequest(db: Queryable, accountId: string, requestId: string) {
  const row = await findRequest(db, requestId);
  // Someone else's request is indistinguishable from one that does not exist.
  if (!row || row.account_id !== accountId) throw new AppError('NOT_FOUND', `No request ${requestId}.`);
  return row;
}

export const getShortsRequestRoute = {
  method: 'GET',
  url: '/api/youtube/shorts/:requestId',
  config: { auth: true, scope: 'shorts:read', failureBody: true },
  schema: {
    tags: ['shorts'],
    summary: 'Status and result of one request, with its webhook delivery attempts.',
    security: [{ bearer: [] }],
    params: RequestParams,
    response: {
      200: json('The request.', RequestDetailSchema),
      400: failure('Invalid input: the message names the field.', ['VALIDATION_FAILED']),
      404: failure('No such request on this account.', ['NOT_FOUND']),
      ...authErrors(FailureBody),
    },
  },
} as const;

export async function getShortsRequest(request: RequestOf<typeof getShortsRequestRoute.schema>) {
  const { db } = request.server.services;
  const row = await ownRequest(db, callerOf(request).accountId, request.params.requestId);
  return {
    ...summarise(row),
    result: row.result ?? null,
    deliveries: await listAttempts(db, { requestId: row.id }),
  };
}

export const redeliverRoute = {
  method: 'POST',
  url: '/api/youtube/shorts/:requestId/redeliver',
  config: { auth: true, scope: 'shorts:write', failureBody: true, idempotent: true },
  schema: {
    tags: ['shorts'],
    summary:
      'Deliver a settled webhook request again now (same webhook-id). 409 DELIVERY_IN_PROGRESS while an ' +
      'attempt is queued or running.',
    description:
      "Free of charge and outside the account's metered rate limits, but limited " +
      `to ${describeActionLimit('redeliver')} per account (429 RATE_LIMITED with Retry-After beyond).`,
    security: [{ bearer: [] }],
    params: RequestParams,
    response: {
      202: json('The redelivery is queued.', RedeliveryQueuedSchema),
      400: failure('Invalid input: the message names the field.', ['VALIDATION_FAILED']),
      404: failure('No such request on this account.', ['NOT_FOUND']),
      409: failure('Not a settled webhook request, or a delivery is queued or running.', [
        'CONFLICT',
        'DELIVERY_IN_PROGRESS',
      ]),
      410: failure('The result is past RESULT_RETENTION_DAYS.', ['RESULT_EXPIRED']),
      429: failure(`Too many redeliveries (${describeActionLimit('redeliver')}); see Retry-After.`, ['RATE_LIMITED']),
      ...authErrors(FailureBody),
    },
  },
} as const;

export async function redeliver(
  request: RequestOf<typeof redeliverRoute.schema>,
  reply: ReplyOf<typeof redeliverRoute.schema>,
) {
  const { db, jobs, config, rateLimiter, clock } = request.server.services;
  const row = await ownRequest(db, callerOf(request).accountId, request.params.requestId);
  if (row.mode !== 'webhook')
    throw new AppError('CONFLICT', 'This request was answered synchronously; it has no webhook to redeliver.');
  if (row.status === 'processing')
    throw new AppError('CONFLICT', 'This request is still processing; its webhook will be sent when it completes.');
  // A result past retention has been (or may be) dropped: it cannot be sent whole again.
  if (
    row.status === 'completed' &&
    row.completed_at &&
    expiresAt(row.completed_at, config.RESULT_RETENTION_DAYS).getTime() <= clock()
  ) {
    throw new AppError(
      'RESULT_EXPIRED',
      `The result of ${row.id} was kept for ${config.RESULT_RETENTION_DAYS} days (RESULT_RETENTION_DAYS) and can ` +
        'no longer be redelivered; request the channel again.',
    );
  }
  // Counted before it is queued, so concurrent calls cannot pass the limit together; one refused as
  // already due (409) counts too.
  await limitAction(rateLimiter, 'redeliver', row.account_id, reply);
  const attempt = await jobs.redeliver({ requestId: row.id });
  reply.code(202);
  return { requestId: row.id, status: 'queued' as const, attempt };
}
