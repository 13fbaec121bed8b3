import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { parseChannelUrl } from '../../domain/shorts/channel-url.ts';
import { runSyncRequest } from '../../domain/requests/shorts-requests.ts';
import { findRequest, summarise, type NewRequest } from '../../domain/requests/request-store.ts';
import { listRequestLog } from '../../domain/requests/request-log.ts';
import { assertAcceptableWebhookUrl } from '../../domain/webhooks/webhook-url.ts';
import { listAttempts, webhookIdFor } from '../../domain/webhooks/delivery-log.ts';
import { expiresAt } from '../../domain/requests/stored-results.ts';
import { callerOf } from '../plugins/authenticate.ts';
import { describeActionLimit, limitAction } from '../action-limits.ts';
import { sendRendered } from '../send-rendered.ts';
import { authErrors, FailureBody, failureResponse as failure, json } from '../schemas/common.ts';
import {
  AcceptedBodySchema,
  RedeliveryQueuedSchema,
  RequestDetailSchema,
  SHORTS_REQUEST_EXAMPLES,
  ShortsRequestBody,
  SuccessBodySchema,
} from '../schemas/shorts.ts';
import { priceFormula } from '../../domain/shorts/pricing.ts';
import { RequestLogPageSchema, RequestLogQuerySchema } from '../schemas/requests-log.ts';

export const shortsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, jobs, shortsRequests, acceptances, config, rateLimiter, clock } = app.services;
  const security = [{ bearer: [] }];

  app.post(
    '/api/youtube/shorts',
    {
      config: { auth: true, scope: 'shorts:write', rateLimited: true, failureBody: true },
      schema: {
        tags: ['shorts'],
        summary: "List a channel's Shorts with the channel's details.",
        description:
          'Without webhookUrl the result is in the response (200). With webhookUrl the request is accepted (202) and the result is POSTed to the URL later, signed per Standard Webhooks. ' +
          `Price: ${priceFormula({ minimumCredits: config.MIN_CREDITS_PER_REQUEST, shortsPerBlock: config.SHORTS_PER_CREDIT_BLOCK, creditsPerBlock: config.CREDITS_PER_BLOCK }, config.QUOTA_UNITS_PER_CREDIT)} (GET /api/pricing). ` +
          'Credits are reserved before the platform is read and the work is capped at what they pay for: when the first playlist page shows the channel costs more than the available credits, the answer is 402 quoting the price (use limit to ask for fewer). ' +
          `Failed lookups come out of a daily allowance of ${config.QUOTA_ALLOWANCE_UNITS} unpaid upstream units per account (then 429 QUOTA_ALLOWANCE_EXHAUSTED). When every platform key is spent for the day, earlier results are served with stale:true; otherwise 503 with Retry-After. ` +
          `At most ${config.MAX_SHORTS_PER_REQUEST} shorts per request (newest first); when more exist the body says truncated:true. Fields the platform does not send are omitted, never null. ` +
          'sort=oldest|popular and the duration filters read the whole window (up to MAX_SHORTS_PER_REQUEST) before limit applies: the price follows the shorts read, not the shorts returned (a filter never lowers it). ' +
          'Every short carries contentDetails.duration (ISO 8601) and durationSeconds when the platform sends a duration. ' +
          'store: true keeps a synchronous result for paged reading (GET /api/youtube/shorts/{requestId}/items); webhook results are always kept.',
        security,
        body: { ...ShortsRequestBody, 'x-examples': SHORTS_REQUEST_EXAMPLES },
        response: {
          200: json('The channel and its shorts (no webhookUrl).', SuccessBodySchema),
          202: json('Accepted (webhookUrl given): the result will be POSTed there.', AcceptedBodySchema),
          400: failure('Invalid body, unrecognised channel address or unsafe webhookUrl.', [
            'VALIDATION_FAILED',
            'INVALID_CHANNEL_URL',
            'UNSAFE_WEBHOOK_URL',
            'INVALID_JSON',
          ]),
          401: failure('Missing, invalid, expired or revoked credential.', ['UNAUTHORIZED', 'TOKEN_EXPIRED']),
          402: failure('The available credits cannot cover the price (quoted in the message).', [
            'INSUFFICIENT_CREDITS',
          ]),
          403: failure('The credential may not use this resource.', ['FORBIDDEN']),
          404: failure('No channel at that address.', ['CHANNEL_NOT_FOUND']),
          413: failure('The body is over 64 KiB.', ['PAYLOAD_TOO_LARGE']),
          415: failure('The body is not sent as application/json.', ['UNSUPPORTED_MEDIA_TYPE']),
          429: failure(
            "Rate limit exceeded (RATE_LIMITED; see Retry-After and RateLimit headers), or the account's daily allowance of unpaid upstream work is spent (QUOTA_ALLOWANCE_EXHAUSTED; Retry-After at midnight America/Los_Angeles).",
            ['RATE_LIMITED', 'QUOTA_ALLOWANCE_EXHAUSTED'],
          ),
          500: failure('Unexpected server error.', ['INTERNAL_ERROR']),
          502: failure("The video platform failed or rejected the service's credentials.", ['UPSTREAM_ERROR']),
          503: failure(
            'Every platform key is out of quota for today and no earlier result exists (UPSTREAM_QUOTA_EXHAUSTED, Retry-After at the next quota day), the platform throttles (UPSTREAM_RATE_LIMITED), or a backing store is down.',
            ['UPSTREAM_QUOTA_EXHAUSTED', 'UPSTREAM_RATE_LIMITED', 'SERVICE_UNAVAILABLE'],
          ),
          504: failure('The video platform did not answer in time.', ['UPSTREAM_TIMEOUT']),
        },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const {
        channelUrl,
        oldestDate,
        limit,
        freshness,
        webhookUrl,
        sort,
        minDurationSeconds,
        maxDurationSeconds,
        store,
      } = request.body;
      const record: NewRequest = {
        id: request.id,
        accountId: caller.accountId,
        apiKeyId: caller.keyId,
        channelUrl,
        oldestDate: oldestDate ?? null,
        limit: limit ?? null,
        freshness: freshness ?? null,
        webhookUrl: webhookUrl ?? null,
        // #14: sort, duration filters, store (synchronous results kept for paged reading).
        options: { sort, minDurationSeconds, maxDurationSeconds },
        ...(store ? { store } : {}),
      };
      if (!webhookUrl) {
        // Pre-rendered JSON with exactly the schema's fields (see renderSuccessJson): sent as is.
        const { json } = await runSyncRequest(shortsRequests, record, {
          connectionsCut: app.services.connectionsCut.signal,
        });
        return sendRendered(reply, json);
      }

      parseChannelUrl(channelUrl);
      assertAcceptableWebhookUrl(webhookUrl, config.WEBHOOK_ALLOW_PRIVATE_TARGETS);
      await acceptances.accept(record);
      jobs.fetchesQueued();
      reply.code(202);
      return {
        success: true as const,
        requestId: record.id,
        status: 'processing' as const,
        message: `Accepted. The result will be POSTed to the webhookUrl with webhook-id ${webhookIdFor(record.id)}; poll GET /api/youtube/shorts/${record.id} for status.`,
      };
    },
  );

  // Every /api/youtube/shorts… failure is the failure body, with success: false (docs/guides/errors.md;
  // found by review: the list, one request and its redelivery answered the plain error body).
  app.get(
    '/api/youtube/shorts',
    {
      config: { auth: true, scope: 'shorts:read', failureBody: true },
      schema: {
        tags: ['shorts'],
        summary: "The caller's shorts requests, newest first, filtered and paged (#16.2).",
        description:
          "Each entry names the API key that made it and, for webhook requests, the state of the delivery (delivered, retrying with the next attempt's time, failed after the last attempt, gone). Filters combine; pages follow nextCursor. Calls refused before they were recorded are counted at GET /api/youtube/shorts/rejections.",
        security,
        querystring: RequestLogQuerySchema,
        response: {
          200: json('Requests, newest first, one page.', RequestLogPageSchema),
          400: failure('Invalid input: the message names the field.', ['VALIDATION_FAILED']),
          ...authErrors(FailureBody),
        },
      },
    },
    async (request) => {
      const { limit, cursor, from, to, ...filter } = request.query;
      return listRequestLog(db, callerOf(request).accountId, {
        limit,
        ...(cursor ? { cursor } : {}),
        retrySchedule: app.services.delivery.schedule,
        filter: { ...filter, ...(from ? { from: new Date(from) } : {}), ...(to ? { to: new Date(to) } : {}) },
      });
    },
  );

  const RequestParams = Type.Object({
    requestId: Type.String({
      pattern: '^req_[a-z0-9]{1,40}$',
      description: 'The requestId of a shorts request.',
      examples: ['req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0'],
    }),
  });

  const ownRequest = async (accountId: string, requestId: string) => {
    const row = await findRequest(db, requestId);
    // Someone else's request is indistinguishable from one that does not exist.
    if (!row || row.account_id !== accountId) throw new AppError('NOT_FOUND', `No request ${requestId}.`);
    return row;
  };

  app.get(
    '/api/youtube/shorts/:requestId',
    {
      config: { auth: true, scope: 'shorts:read', failureBody: true },
      schema: {
        tags: ['shorts'],
        summary: 'Status and result of one request, with its webhook delivery attempts.',
        security,
        params: RequestParams,
        response: {
          200: json('The request.', RequestDetailSchema),
          400: failure('Invalid input: the message names the field.', ['VALIDATION_FAILED']),
          404: failure('No such request on this account.', ['NOT_FOUND']),
          ...authErrors(FailureBody),
        },
      },
    },
    async (request) => {
      const row = await ownRequest(callerOf(request).accountId, request.params.requestId);
      return {
        ...summarise(row),
        result: row.result ?? null,
        deliveries: await listAttempts(db, { requestId: row.id }),
      };
    },
  );

  app.post(
    '/api/youtube/shorts/:requestId/redeliver',
    {
      config: { auth: true, scope: 'shorts:write', failureBody: true },
      schema: {
        tags: ['shorts'],
        summary:
          'Deliver a settled webhook request again now (same webhook-id). 409 DELIVERY_IN_PROGRESS while an attempt is queued or running.',
        description: `Free of charge and outside the account's metered rate limits, but limited to ${describeActionLimit('redeliver')} per account (429 RATE_LIMITED with Retry-After beyond).`,
        security,
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
          429: failure(`Too many redeliveries (${describeActionLimit('redeliver')}); see Retry-After.`, [
            'RATE_LIMITED',
          ]),
          ...authErrors(FailureBody),
        },
      },
    },
    async (request, reply) => {
      const row = await ownRequest(callerOf(request).accountId, request.params.requestId);
      if (row.mode !== 'webhook')
        throw new AppError('CONFLICT', 'This request was answered synchronously; it has no webhook to redeliver.');
      if (row.status === 'processing')
        throw new AppError('CONFLICT', 'This request is still processing; its webhook will be sent when it completes.');
      // A result past retention (#14) has been (or may be) dropped: it cannot be sent whole again.
      if (
        row.status === 'completed' &&
        row.completed_at &&
        expiresAt(row.completed_at, config.RESULT_RETENTION_DAYS).getTime() <= clock()
      ) {
        throw new AppError(
          'RESULT_EXPIRED',
          `The result of ${row.id} was kept for ${config.RESULT_RETENTION_DAYS} days (RESULT_RETENTION_DAYS) and can no longer be redelivered; request the channel again.`,
        );
      }
      // Counted before it is queued, so concurrent calls cannot pass the limit together (found by
      // review); one refused as already due (409) counts too.
      await limitAction(rateLimiter, 'redeliver', row.account_id, reply);
      const attempt = await jobs.redeliver({ requestId: row.id });
      reply.code(202);
      return { requestId: row.id, status: 'queued' as const, attempt };
    },
  );
};
