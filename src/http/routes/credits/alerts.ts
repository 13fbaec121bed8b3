// The low-balance alert: its threshold and where the account's events go; its events, newest first.
import { Type } from 'typebox';
import { getCreditAlerts, listCreditEvents, setCreditAlerts } from '../../../domain/credits/credit-alerts.ts';
import { assertAcceptableWebhookUrl } from '../../../domain/webhooks/webhook-url.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { authErrors, invalidInput, json } from '../../schemas/common.ts';
import { CreditAlertsChangeSchema, CreditAlertsSchema, CreditEventsSchema } from '../../schemas/credits.ts';
import type { RequestOf } from '../../types.ts';
import { accountRead } from './common.ts';

export const getAlertsRoute = {
  method: 'GET',
  url: '/accounts/alerts',
  config: accountRead,
  schema: {
    tags: ['accounts'],
    summary: "The low-balance threshold, the account's events webhook URL and its default webhook payload form.",
    security: [{ bearer: [] }],
    response: { 200: json('The alert settings.', CreditAlertsSchema), ...authErrors() },
  },
} as const;

export async function getAlerts(request: RequestOf<typeof getAlertsRoute.schema>) {
  return getCreditAlerts(request.server.services.db, callerOf(request).accountId);
}

export const setAlertsRoute = {
  method: 'PUT',
  url: '/accounts/alerts',
  // Where account events go is a setting like the webhook secret: a dashboard session changes it, not an API key.
  config: { auth: 'session' },
  schema: {
    tags: ['accounts'],
    summary:
      'Set the low-balance threshold, the events webhook URL (null turns either off) and/or the default form of ' +
      'shorts.completed webhooks (webhookPayload: full or thin); an omitted field is unchanged. Dashboard session ' +
      'only. A new default applies to requests accepted from then on (within CREDENTIAL_CACHE_MS).',
    security: [{ bearer: [] }],
    body: CreditAlertsChangeSchema,
    response: {
      200: json('The alert settings after the change.', CreditAlertsSchema),
      400: invalidInput(),
      ...authErrors(),
    },
  },
} as const;

export async function setAlerts(request: RequestOf<typeof setAlertsRoute.schema>) {
  const { db, config } = request.server.services;
  const { lowBalanceThreshold, eventsWebhookUrl, webhookPayload } = request.body;
  if (typeof eventsWebhookUrl === 'string')
    assertAcceptableWebhookUrl(eventsWebhookUrl, config.WEBHOOK_ALLOW_PRIVATE_TARGETS, 'eventsWebhookUrl');
  return setCreditAlerts(db, callerOf(request).accountId, {
    lowBalanceThreshold,
    eventsWebhookUrl,
    webhookPayload,
  });
}

export const listEventsRoute = {
  method: 'GET',
  url: '/accounts/events',
  config: accountRead,
  schema: {
    tags: ['accounts'],
    summary:
      'Account events (credits.low, webhook.destination.paused), newest first, with the body each is delivered with.',
    security: [{ bearer: [] }],
    querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }) }),
    response: {
      200: json("The account's events, newest first.", CreditEventsSchema),
      400: invalidInput(),
      ...authErrors(),
    },
  },
} as const;

export async function listEvents(request: RequestOf<typeof listEventsRoute.schema>) {
  const { db } = request.server.services;
  return { events: await listCreditEvents(db, callerOf(request).accountId, request.query.limit) };
}
