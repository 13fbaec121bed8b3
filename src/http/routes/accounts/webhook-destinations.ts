// The health of the account's webhook destinations, and resuming a paused one.
import { Type } from 'typebox';
import { listDestinations, resumeDestination } from '../../../domain/webhooks/destinations.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { authErrors, errorResponse, invalidInput, json } from '../../schemas/common.ts';
import { WebhookDestinationSchema, WebhookDestinationsSchema } from '../../../contract/requests-log.ts';
import type { RequestOf } from '../../types.ts';

export const webhookDestinationsRoute = {
  method: 'GET',
  url: '/accounts/webhook-destinations',
  config: { auth: true, scope: 'shorts:read' },
  schema: {
    tags: ['webhooks'],
    summary:
      'Each URL the account sends webhooks to, with its health: success rate over the last 24 hours, ' +
      'consecutive failures, last error, last success, and whether it is paused.',
    description:
      'A destination whose every attempt has failed for WEBHOOK_DISABLE_AFTER_DAYS is paused: new attempts to it ' +
      'are recorded but not sent, and a webhook.destination.paused account event is sent to eventsWebhookUrl ' +
      '(and listed by GET /accounts/events). It is resumed by POST /accounts/webhook-destinations/' +
      '{destinationId}/resume, or by a successful test event (POST /webhooks/test) to its URL.',
    security: [{ bearer: [] }],
    response: {
      200: json("The account's destinations, the most recently used first.", WebhookDestinationsSchema),
      ...authErrors(),
    },
  },
} as const;

export async function webhookDestinations(request: RequestOf<typeof webhookDestinationsRoute.schema>) {
  const { db, config, clock } = request.server.services;
  return {
    destinations: await listDestinations(db, callerOf(request).accountId, new Date(clock())),
    disableAfterDays: config.WEBHOOK_DISABLE_AFTER_DAYS,
  };
}

export const resumeDestinationRoute = {
  method: 'POST',
  url: '/accounts/webhook-destinations/:destinationId/resume',
  config: { auth: true, scope: 'shorts:write' },
  schema: {
    tags: ['webhooks'],
    summary: 'Resume a destination: its new attempts are sent again, and its run of failures starts afresh.',
    description:
      'Attempts held while it was paused are not sent by this: redeliver them (POST /api/youtube/shorts/' +
      '{requestId}/redeliver). Resuming a destination that is not paused only restarts its failure count.',
    security: [{ bearer: [] }],
    params: Type.Object({
      destinationId: Type.Integer({
        minimum: 1,
        maximum: 2 ** 53 - 1,
        description: 'The id GET …/webhook-destinations gives.',
      }),
    }),
    response: {
      200: json('The destination after resuming.', WebhookDestinationSchema),
      400: invalidInput(),
      ...authErrors(),
      404: errorResponse('No destination with this id for this account.', ['NOT_FOUND']),
    },
  },
} as const;

export async function resumeWebhookDestination(request: RequestOf<typeof resumeDestinationRoute.schema>) {
  const { db, clock } = request.server.services;
  return resumeDestination(db, callerOf(request).accountId, request.params.destinationId, new Date(clock()));
}
