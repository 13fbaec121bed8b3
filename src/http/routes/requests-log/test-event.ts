// POST /webhooks/test: one signed webhook.test event sent now, through the deliveries' guarded path.
import { sendTestEvent } from '../../../domain/webhooks/test-event.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { describeActionLimit, limitAction } from '../../action-limits.ts';
import { authErrors, errorResponse, invalidInput, json } from '../../schemas/common.ts';
import { WebhookTestBodySchema, WebhookTestResultSchema } from '../../schemas/requests-log.ts';
import type { ReplyOf, RequestOf } from '../../types.ts';

export const testEventRoute = {
  method: 'POST',
  url: '/webhooks/test',
  config: { auth: true, scope: 'shorts:write' },
  schema: {
    tags: ['webhooks'],
    summary: 'Send a signed webhook.test event to a URL now (one attempt) and show what happened.',
    description:
      "Signed with the account's webhook secrets and sent through the same guarded path as real " +
      'deliveries (the address rules of webhookUrl apply). One attempt, no retries, nothing recorded, no credits ' +
      "charged; one that succeeds resumes the account's paused destination at that URL (GET " +
      "/accounts/webhook-destinations). It does not count against the account's metered rate limits but is limited " +
      `to ${describeActionLimit('webhook-test')}. The answer is 200 whatever the receiver did: see outcome.`,
    security: [{ bearer: [] }],
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
} as const;

export async function testEvent(
  request: RequestOf<typeof testEventRoute.schema>,
  reply: ReplyOf<typeof testEventRoute.schema>,
) {
  const { db, delivery, rateLimiter, clock } = request.server.services;
  const accountId = callerOf(request).accountId;
  await limitAction(rateLimiter, 'webhook-test', accountId, reply);
  return sendTestEvent(
    { db, agent: delivery.agent, allowPrivate: delivery.allowPrivate, timeoutMs: delivery.timeoutMs },
    accountId,
    request.body.url,
    new Date(clock()),
  );
}
