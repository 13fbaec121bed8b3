// Verifies a webhook from channel-shorts (Standard Webhooks: webhook-id, webhook-timestamp,
// webhook-signature) with the account's whsec_ secret, using the reference `standardwebhooks` package.
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { webhooks } from './openapi.ts';

export { WebhookVerificationError };

type Payload<T> = T extends { post: { requestBody: { content: { 'application/json': infer B } } } } ? B : never;

/**
 * Every event the service signs: shorts.completed (full, or thin: `data.thin` true, page the result from
 * `data.resultUrl`) / shorts.failed for a request, batch.completed for a batch, shorts.created /
 * watch.paused / watch.resumed for a watch, credits.low and webhook.destination.paused for the account,
 * and webhook.test from POST /webhooks/test. Narrow on `type` (and `'thin' in data`).
 */
export type WebhookEvent = { [Name in keyof webhooks]: Payload<webhooks[Name]> }[keyof webhooks];

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : (headers[name] ?? headers[name.toLowerCase()]);
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string' || text === '') throw new WebhookVerificationError(`Missing ${name} header`);
  return text;
}

/**
 * Checks the signature (and that the timestamp is within 5 minutes) and returns the parsed event;
 * throws WebhookVerificationError otherwise. `body` must be the raw request body, unparsed.
 * `secret` may be a list: during a secret rotation either one is accepted.
 */
export function verifyWebhook(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | string[],
): WebhookEvent {
  const signed = {
    'webhook-id': header(headers, 'webhook-id'),
    'webhook-timestamp': header(headers, 'webhook-timestamp'),
    'webhook-signature': header(headers, 'webhook-signature'),
  };
  let failure: unknown;
  for (const s of Array.isArray(secret) ? secret : [secret]) {
    try {
      return new Webhook(s).verify(
        typeof body === 'string' ? body : new TextDecoder().decode(body),
        signed,
      ) as WebhookEvent;
    } catch (error) {
      failure = error;
    }
  }
  throw failure ?? new WebhookVerificationError('No secret given');
}
