// Routes of issue #14: batches of webhook requests and paged reading of stored results.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { findBatch, submitBatch, summariseBatch } from '../../domain/requests/batches.ts';
import type { NewRequest } from '../../domain/requests/request-store.ts';
import { readResultPage } from '../../domain/requests/stored-results.ts';
import { assertAcceptableWebhookUrl } from '../../domain/webhooks/webhook-url.ts';
import { listAttempts, webhookIdFor } from '../../domain/webhooks/delivery-log.ts';
import { newRequestId } from '../request-id.ts';
import { callerOf } from '../plugins/authenticate.ts';
import { describeActionLimit, limitAction } from '../action-limits.ts';
import { failureResponse as failure, json } from '../schemas/common.ts';
import {
  BatchAcceptedSchema,
  BatchRedeliveryQueuedSchema,
  BatchRequestBody,
  BatchStatusSchema,
  ItemsPageSchema,
  ItemsQuery,
} from '../schemas/shorts-features.ts';

const BatchParams = Type.Object({
  batchId: Type.String({
    pattern: '^bat_[a-z0-9]{1,40}$',
    description: 'The batchId returned by POST /api/youtube/shorts/batch.',
  }),
});

const common = {
  400: failure('Invalid input; the message says what is accepted.', ['VALIDATION_FAILED']),
  401: failure('Missing, invalid, expired or revoked credential.', ['UNAUTHORIZED', 'TOKEN_EXPIRED']),
  403: failure('The credential may not use this resource.', ['FORBIDDEN']),
  500: failure('Unexpected server error.', ['INTERNAL_ERROR']),
  503: failure('A backing store (database, Redis) is unavailable.', ['SERVICE_UNAVAILABLE']),
};

export const shortsFeatureRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, jobs, shortsRequests, config, rateLimiter, clock } = app.services;
  const security = [{ bearer: [] }];

  app.post(
    '/api/youtube/shorts/batch',
    {
      config: { auth: true, scope: 'shorts:write', rateLimited: true, failureBody: true },
      schema: {
        tags: ['shorts'],
        summary: 'Submit up to 50 shorts requests at once, each answered by webhook.',
        description:
          'Each item becomes an ordinary webhook request (its own requestId, result, charge, credit reservation and shorts.completed / shorts.failed webhook to webhookUrl). ' +
          'When every item has settled, one batch.completed webhook (see webhooks) summarises the batch; GET /api/youtube/shorts/batch/{batchId} shows progress. ' +
          `Acceptance is all or nothing: every item reserves at least ${Math.max(1, config.MIN_CREDITS_PER_REQUEST)} credit when accepted; when the available credits cannot reserve every item the whole batch is refused with 402 and nothing is recorded or charged. ` +
          'A batch counts as one call against the rate limits.',
        security,
        body: BatchRequestBody,
        response: {
          202: json('Accepted: one webhook request per item.', BatchAcceptedSchema),
          ...common,
          400: failure(
            "Invalid input (an item's channelUrl not a channel address, or an unsafe webhookUrl); the message says what is accepted.",
            ['VALIDATION_FAILED', 'INVALID_CHANNEL_URL', 'UNSAFE_WEBHOOK_URL'],
          ),
          402: failure('The available credits cannot reserve every item; nothing was accepted.', [
            'INSUFFICIENT_CREDITS',
          ]),
          429: failure('Rate limit exceeded (see Retry-After and RateLimit headers).', ['RATE_LIMITED']),
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { items, webhookUrl } = request.body;
      assertAcceptableWebhookUrl(webhookUrl, config.WEBHOOK_ALLOW_PRIVATE_TARGETS);
      const batchId = newRequestId().replace(/^req_/, 'bat_');
      // Sorted ids keep the batch's order when items are listed by id.
      const ids = items.map(() => newRequestId()).sort();
      const records: NewRequest[] = items.map((item, i) => ({
        id: ids[i]!,
        accountId: caller.accountId,
        apiKeyId: caller.keyId,
        channelUrl: item.channelUrl,
        oldestDate: item.oldestDate ?? null,
        limit: item.limit ?? null,
        webhookUrl,
        batchId,
        options: {
          sort: item.sort,
          minDurationSeconds: item.minDurationSeconds,
          maxDurationSeconds: item.maxDurationSeconds,
        },
      }));
      await submitBatch(
        shortsRequests,
        { id: batchId, accountId: caller.accountId, webhookUrl, items: records },
        async (tx, requestId) => {
          await jobs.enqueueShortsFetches(tx, [requestId]);
        },
      );
      jobs.fetchesQueued();
      reply.code(202);
      return {
        success: true as const,
        batchId,
        status: 'processing' as const,
        items: records.map((r) => ({ requestId: r.id, channelUrl: r.channelUrl })),
        message: `Accepted ${records.length} request${records.length === 1 ? '' : 's'}. Each result is POSTed to the webhookUrl as it completes, then one batch.completed summary with webhook-id ${webhookIdFor(batchId)}; poll GET /api/youtube/shorts/batch/${batchId} for progress.`,
      };
    },
  );

  app.get(
    '/api/youtube/shorts/batch/:batchId',
    {
      config: { auth: true, scope: 'shorts:read', failureBody: true },
      schema: {
        tags: ['shorts'],
        summary:
          "Progress of a batch: counts, each item's status and charge, and the summary webhook's delivery attempts.",
        security,
        params: BatchParams,
        response: {
          200: json("The batch's progress.", BatchStatusSchema),
          ...common,
          404: failure('No such batch for this account.', ['NOT_FOUND']),
        },
      },
    },
    async (request) => {
      const batch = await findBatch(db, request.params.batchId);
      if (!batch || batch.account_id !== callerOf(request).accountId)
        throw new AppError('NOT_FOUND', `No batch ${request.params.batchId}.`);
      return {
        success: true as const,
        ...(await summariseBatch(db, batch)),
        deliveries: await listAttempts(db, { batchId: batch.id }),
      };
    },
  );

  app.post(
    '/api/youtube/shorts/batch/:batchId/redeliver',
    {
      config: { auth: true, scope: 'shorts:write', failureBody: true },
      schema: {
        tags: ['shorts'],
        summary:
          "Send a finished batch's batch.completed summary again now (same webhook-id). 409 while the batch runs or a delivery is queued or running.",
        description: `Free of charge and outside the account's metered rate limits, but limited to ${describeActionLimit('redeliver')} per account, with request redeliveries (429 RATE_LIMITED with Retry-After beyond).`,
        security,
        params: BatchParams,
        response: {
          202: json('The redelivery is queued.', BatchRedeliveryQueuedSchema),
          ...common,
          404: failure('No such batch for this account.', ['NOT_FOUND']),
          409: failure('The batch is still running, or a delivery of its summary is queued or running.', [
            'CONFLICT',
            'DELIVERY_IN_PROGRESS',
          ]),
          429: failure(`Too many redeliveries (${describeActionLimit('redeliver')}); see Retry-After.`, [
            'RATE_LIMITED',
          ]),
        },
      },
    },
    async (request, reply) => {
      const batch = await findBatch(db, request.params.batchId);
      if (!batch || batch.account_id !== callerOf(request).accountId)
        throw new AppError('NOT_FOUND', `No batch ${request.params.batchId}.`);
      if (!batch.completed_at)
        throw new AppError(
          'CONFLICT',
          'This batch is still running; its summary will be sent when its last item completes.',
        );
      await limitAction(rateLimiter, 'redeliver', batch.account_id, reply);
      const attempt = await jobs.redeliver({ batchId: batch.id });
      reply.code(202);
      return { batchId: batch.id, status: 'queued' as const, attempt };
    },
  );

  app.get(
    '/api/youtube/shorts/:requestId/items',
    {
      config: { auth: true, scope: 'shorts:read', failureBody: true },
      schema: {
        tags: ['shorts'],
        summary: "A finished request's stored result, page by page.",
        description:
          'Webhook requests, and synchronous requests sent with store: true, keep their whole result for ' +
          `RESULT_RETENTION_DAYS (${config.RESULT_RETENTION_DAYS}) days after completion; read it here ${'≤'} 500 shorts at a time, following nextCursor until it is null. ` +
          'Reading pages costs no credits. After the retention period: 410 RESULT_EXPIRED.',
        security,
        params: Type.Object({
          requestId: Type.String({
            pattern: '^req_[a-z0-9]{1,40}$',
            description: 'The requestId of a shorts request.',
          }),
        }),
        querystring: ItemsQuery,
        response: {
          200: json('One page of the result.', ItemsPageSchema),
          ...common,
          404: failure('No such request for this account.', ['NOT_FOUND']),
          409: failure('The request is still processing, failed, or was answered synchronously without store: true.', [
            'CONFLICT',
          ]),
          410: failure('The result is past its retention period (RESULT_EXPIRED).', ['RESULT_EXPIRED']),
        },
      },
    },
    async (request) => {
      return readResultPage(db, {
        accountId: callerOf(request).accountId,
        requestId: request.params.requestId,
        ...(request.query.cursor !== undefined ? { cursor: request.query.cursor } : {}),
        pageSize: request.query.pageSize,
        retentionDays: config.RESULT_RETENTION_DAYS,
        now: clock(),
      });
    },
  );
};
