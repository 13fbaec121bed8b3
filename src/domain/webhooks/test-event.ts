// "Send test event": one synchronous attempt of a webhook.test event to a URL, through the
// same path as real deliveries — the request-time URL check, the SSRF-guarded agent (address checked
// at connect time), the account's signing secrets — so a receiver that verifies this verifies real
// events. Nothing is recorded in the delivery log or retried, and no credits are charged: the caller
// sees the result. A test that succeeds resumes the account's destination at that URL, if paused.
import { randomBytes } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { Queryable } from '../../infra/db/database.ts';
import { WEBHOOK_TEST_MESSAGE, type WebhookTestPayload, type WebhookTestResult } from '../../contract/requests-log.ts';
import { deliverOnce } from './deliver-once.ts';
import { activeWebhookSecrets } from './webhook-secrets.ts';
import { testSucceeded } from './destinations.ts';
import { assertAcceptableWebhookUrl } from './webhook-url.ts';

export interface TestEventDeps {
  db: Queryable;
  agent: Dispatcher;
  allowPrivate: boolean;
  timeoutMs: number;
}

/** What POST /webhooks/test answers: the contract's WebhookTestResult. */
export type TestEventResult = WebhookTestResult;

export async function sendTestEvent(
  deps: TestEventDeps,
  accountId: string,
  url: string,
  now = new Date(),
): Promise<TestEventResult> {
  assertAcceptableWebhookUrl(url, deps.allowPrivate);
  // A fresh id per test: a receiver that deduplicates on webhook-id must not drop the second test.
  const webhookId = `msg_test_${randomBytes(12).toString('hex')}`;
  const body = JSON.stringify({
    type: 'webhook.test',
    timestamp: now.toISOString(),
    data: { message: WEBHOOK_TEST_MESSAGE },
  } satisfies WebhookTestPayload);
  const secrets = (await activeWebhookSecrets(deps.db, accountId)).map((s) => s.secret);
  const result = await deliverOnce({
    url,
    webhookId,
    body,
    secrets,
    agent: deps.agent,
    allowPrivate: deps.allowPrivate,
    timeoutMs: deps.timeoutMs,
  });
  // A receiver that verifies a test verifies real events: a paused destination at this URL resumes.
  if (result.outcome === 'delivered') await testSucceeded(deps.db, accountId, url, now);
  return {
    webhookId,
    url,
    requestBody: body,
    outcome: result.outcome,
    statusCode: result.statusCode,
    latencyMs: result.latencyMs,
    error: result.error,
    requestHeaders: result.requestHeaders,
    responseExcerpt: result.responseExcerpt,
  };
}
