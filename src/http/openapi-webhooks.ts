// The webhooks this service sends (OpenAPI `webhooks`): each event type, its body and examples. Every
// one is signed per Standard Webhooks and answered the same way (2xx delivered, 410 stop).
import type { TSchema } from 'typebox';
import { EXAMPLE_REQUEST_ID, EXAMPLE_TIME } from '../contract/common.ts';
import {
  SuccessBodySchema,
  ThinResultSchema,
  ThinWebhookPayloadSchema,
  WebhookPayloadSchema,
} from '../contract/shorts.ts';
import { BatchWebhookPayloadSchema } from '../contract/batches.ts';
import { CreditsLowPayloadSchema } from '../contract/credits.ts';
import { DestinationPausedPayloadSchema, WebhookTestPayloadSchema } from '../contract/requests-log.ts';
import {
  ShortsCreatedPayloadSchema,
  ShortsGrowthPayloadSchema,
  WatchPausedPayloadSchema,
  WatchResumedPayloadSchema,
} from '../contract/watches.ts';
import { exampleOf } from './schemas/responses.ts';

type Examples = Record<string, { summary: string; value: unknown }>;

const signedDelivery =
  'Signed per Standard Webhooks: headers webhook-id (stable across retries), webhook-timestamp (Unix seconds) and ' +
  'webhook-signature (space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per active ' +
  'secret). Answer 2xx to acknowledge; ' +
  '410 stops retries; anything else (redirects included) is retried on the configured schedule, honouring ' +
  'Retry-After. See the Webhooks guide above.';
const deliveryResponses = {
  '200': { description: 'Any 2xx: delivered.' },
  '410': { description: 'Gone: stop sending this webhook.' },
};

/** One webhook: what the receiver is POSTed (a JSON body of `schema`) and how it answers. */
function webhook(summary: string, description: string, schema: TSchema, examples: Examples) {
  return {
    post: {
      summary,
      description,
      requestBody: { required: true, content: { 'application/json': { schema, examples } } },
      responses: deliveryResponses,
    },
  };
}

/** A webhook a watch sends to its webhookUrl: one event type, its body and an example. */
function watchWebhook(type: string, schema: TSchema, summary: string, exampleSummary: string) {
  return {
    [type]: webhook(
      summary,
      `${signedDelivery} webhook-id is msg_<event id> (the id in the watch's events, GET ` +
        '/api/youtube/watches/{watchId}).',
      schema,
      { [type]: { summary: exampleSummary, value: exampleOf(schema) } },
    ),
  };
}

/** The result of a shorts request that carried webhookUrl: completed (the synchronous body) or failed. */
function shortsResult() {
  return webhook(
    'shorts.completed / shorts.failed: the result of a shorts request that carried webhookUrl.',
    `${signedDelivery} webhook-id is msg_<requestId>.`,
    WebhookPayloadSchema,
    {
      'shorts.completed': {
        summary: "The request succeeded: data is the synchronous answer's body.",
        value: { type: 'shorts.completed', timestamp: EXAMPLE_TIME, data: exampleOf(SuccessBodySchema) },
      },
      'shorts.failed': {
        summary: 'The request failed (nothing charged): data is the failure body.',
        value: {
          type: 'shorts.failed',
          timestamp: EXAMPLE_TIME,
          data: {
            success: false,
            error: 'CHANNEL_NOT_FOUND',
            message: 'No channel exists at that address.',
            requestId: EXAMPLE_REQUEST_ID,
          },
        },
      },
    },
  );
}

/** shorts.completed in its thin form: the counts and where to page the stored result. */
function shortsResultThin() {
  return webhook(
    'shorts.completed (thin): a completed result without its shorts, to page from resultUrl.',
    `${signedDelivery} webhook-id is msg_<requestId>. Sent instead of the full shorts.completed when the request ` +
      "(or the account's default, PUT /accounts/alerts) asked for webhookPayload thin (data.reason requested), or " +
      'when the full body would be over WEBHOOK_MAX_BODY_BYTES (data.reason too_large). data.thin is true in both. ' +
      "Read the shorts with GET data.resultUrl (the account's API key, shorts:read; cursor paging, free) within " +
      'RESULT_RETENTION_DAYS.',
    ThinWebhookPayloadSchema,
    {
      'shorts.completed.thin': {
        summary: 'Asked for thin: 5,000 shorts, a body of about 300 bytes.',
        value: { type: 'shorts.completed', timestamp: EXAMPLE_TIME, data: exampleOf(ThinResultSchema) },
      },
      'shorts.completed.too_large': {
        summary: 'Asked for full, but the full body would have been over WEBHOOK_MAX_BODY_BYTES.',
        value: {
          type: 'shorts.completed',
          timestamp: EXAMPLE_TIME,
          data: { ...(exampleOf(ThinResultSchema) as object), reason: 'too_large' },
        },
      },
    },
  );
}

function destinationPaused() {
  return webhook(
    "Sent once when a webhook destination is paused: every attempt to it failed for WEBHOOK_DISABLE_AFTER_DAYS; to the account's eventsWebhookUrl.",
    `${signedDelivery} webhook-id is msg_<event id>. Queued by the workers' sweep; listed with GET /accounts/events. ` +
      "The destination's new attempts are recorded unsent until it is resumed (POST " +
      '/accounts/webhook-destinations/{destinationId}/resume, or a test event to it that succeeds).',
    DestinationPausedPayloadSchema,
    {
      'webhook.destination.paused': {
        summary: 'A receiver answered 503 for five days.',
        value: exampleOf(DestinationPausedPayloadSchema),
      },
    },
  );
}

function batchCompleted() {
  return webhook(
    'Sent once when every item of a batch (POST /api/youtube/shorts/batch) has settled.',
    `${signedDelivery} webhook-id is msg_<batchId>. Each item also sends its own shorts.completed / ` +
      'shorts.failed webhook; deliveries run in parallel, so this summary (queued once the last item has settled) ' +
      'may arrive before the last of them. ' +
      'data: batchId, status "completed", counts {total, processing (0), completed, failed}, creditsCharged (sum ' +
      'over items), and per item requestId, channelUrl, status, itemCount, creditsCharged and error ' +
      '(the code of a failed item).',
    BatchWebhookPayloadSchema,
    {
      'batch.completed': {
        summary: 'Two items: one completed, one failed.',
        value: exampleOf(BatchWebhookPayloadSchema),
      },
    },
  );
}

function creditsLow() {
  return webhook(
    "Sent once when the balance falls below the account's low-balance threshold (PUT /accounts/alerts), to its " +
      'eventsWebhookUrl; again only after a grant lifts the balance back to the threshold.',
    `${signedDelivery} webhook-id is msg_<event id>. Queued by the workers' sweep within WATCH_SWEEP_SECONDS of ` +
      'the charge that crossed the threshold; listed with GET /accounts/events.',
    CreditsLowPayloadSchema,
    {
      'credits.low': {
        summary: 'A charge took the balance from 51 to 49 (threshold 50).',
        value: exampleOf(CreditsLowPayloadSchema),
      },
    },
  );
}

function webhookTest() {
  return webhook(
    'Sent once, on request, by POST /webhooks/test (and the dashboard\'s "Send test event") to the URL given: to ' +
      "check a receiver's signature verification.",
    'Signed like every event (headers webhook-id, webhook-timestamp, webhook-signature; see shorts.result). ' +
      'webhook-id is msg_test_<random>, new for each test; one attempt, no retries; the answer is shown ' +
      'to the caller, whatever it is.',
    WebhookTestPayloadSchema,
    { 'webhook.test': { summary: 'A test event.', value: exampleOf(WebhookTestPayloadSchema) } },
  );
}

/** Every webhook, in the order the API reference lists them. */
export function webhookDocs() {
  return {
    'shorts.result': shortsResult(),
    'shorts.result.thin': shortsResultThin(),
    'batch.completed': batchCompleted(),
    ...watchWebhook(
      'shorts.created',
      ShortsCreatedPayloadSchema,
      'Sent when a check of a watch (POST /api/youtube/watches) finds new shorts: one event per ' +
        'check, the shorts oldest first.',
      'One new short.',
    ),
    ...watchWebhook(
      'shorts.growth',
      ShortsGrowthPayloadSchema,
      "Sent when a check of a tracked watch (trackStats with an alert) finds one of the channel's Shorts " +
        'gained at least alert.viewsGained views within alert.withinHours (from stored snapshots, never ' +
        'extrapolated); at most once per Short per alert window.',
      'A Short taking off.',
    ),
    ...watchWebhook(
      'watch.paused',
      WatchPausedPayloadSchema,
      'Sent when a watch is paused because its account cannot pay for a check (pausedReason credits); it is ' +
        'resumed when the account can.',
      'The account ran out of credits.',
    ),
    ...watchWebhook(
      'watch.resumed',
      WatchResumedPayloadSchema,
      'Sent when a watch paused for credits is resumed (checked at once).',
      'Credits are available again.',
    ),
    'credits.low': creditsLow(),
    'webhook.destination.paused': destinationPaused(),
    'webhook.test': webhookTest(),
  };
}
