// Routes of #16 points 2 and 3: refused calls per day, the account-wide webhook delivery log, and
// "send test event". The filtered, paged requests list itself is GET /api/youtube/shorts (shorts.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rejectionsByDay } from '../../domain/requests/rejections.ts';
import { listAccountDeliveries } from '../../domain/webhooks/delivery-log.ts';
import { sendTestEvent } from '../../domain/webhooks/test-event.ts';
import { callerOf } from '../plugins/authenticate.ts';
import { describeActionLimit, limitAction } from '../action-limits.ts';
import { authErrors, errorResponse, FailureBody, failureResponse, invalidInput, json } from '../schemas/common.ts';
import {
  DeliveryLogPageSchema,
  DeliveryLogQuerySchema,
  RejectionsQuerySchema,
  RejectionsSchema,
  WebhookTestBodySchema,
  WebhookTestResultSchema,
} from '../schemas/requests-log.ts';

export const requestsLogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, delivery, rateLimiter, clock } = app.services;
  const security = [{ bearer: [] }];

  app.get(
    '/api/youtube/shorts/rejections',
    {
      config: { auth: true, scope: 'shorts:read', failureBody: true },
      schema: {
        tags: ['shorts'],
        summary: 'Calls refused before a request was recorded (400, 402, 429 …), counted per UTC day.',
        description:
          "A refused call (invalid body, not enough credits at acceptance, rate limited) has no request record; it is counted here by day, status, error code and key, so the requests listed plus the calls counted here account for every call. Counts are written every few seconds; this instance's latest are included at once.",
        security,
        querystring: RejectionsQuerySchema,
        response: {
          200: json('Refused calls per UTC day, newest first.', RejectionsSchema),
          400: failureResponse('Invalid input: the message names the field.', ['VALIDATION_FAILED']),
          ...authErrors(FailureBody),
        },
      },
    },
    async (request) => ({
      days: await rejectionsByDay(
        db,
        app.rejections,
        callerOf(request).accountId,
        request.query.days,
        new Date(clock()),
      ),
    }),
  );

  app.get(
    '/webhooks/deliveries',
    {
      config: { auth: true, scope: 'shorts:read' },
      schema: {
        tags: ['webhooks'],
        summary:
          'Every webhook delivery attempt of the account, newest first: headers sent, status, answer excerpt, duration, next retry.',
        security,
        querystring: DeliveryLogQuerySchema,
        response: {
          200: json('Delivery attempts, newest first, one page.', DeliveryLogPageSchema),
          400: invalidInput(),
          ...authErrors(),
        },
      },
    },
    async (request) => {
      const { limit, cursor, outcome } = request.query;
      return listAccountDeliveries(db, callerOf(request).accountId, {
        limit,
        ...(cursor ? { cursor } : {}),
        ...(outcome ? { outcome } : {}),
      });
    },
  );

  app.post(
    '/webhooks/test',
    {
      config: { auth: true, scope: 'shorts:write' },
      schema: {
        tags: ['webhooks'],
        summary: 'Send a signed webhook.test event to a URL now (one attempt) and show what happened.',
        description: `Signed with the account's webhook secrets and sent through the same guarded path as real deliveries (the address rules of webhookUrl apply). One attempt, no retries, nothing recorded, no credits charged; it does not count against the account's metered rate limits but is limited to ${describeActionLimit('webhook-test')}. The answer is 200 whatever the receiver did: see outcome.`,
        security,
        body: WebhookTestBodySchema,
        response: {
          200: json("The attempt's outcome (a failed delivery is still a 200: the test ran).", WebhookTestResultSchema),
          400: invalidInput(),
          429: errorResponse(`Too many test events (${describeActionLimit('webhook-test')}); see Retry-After.`, [
            'RATE_LIMITED',
          ]),
          ...authErrors(),
        },
      },
    },
    async (request, reply) => {
      const accountId = callerOf(request).accountId;
      await limitAction(rateLimiter, 'webhook-test', accountId, reply);
      return sendTestEvent(
        { db, agent: delivery.agent, allowPrivate: delivery.allowPrivate, timeoutMs: delivery.timeoutMs },
        accountId,
        request.body.url,
      );
    },
  );
};
