// Request schemas of the shorts operations; the response shapes live in src/contract/shorts.ts
// (re-exported here for the route files).
import { Type } from 'typebox';
import { ShortsOptions, WebhookPayloadForm } from '../../contract/shorts.ts';

export {
  AcceptedBodySchema,
  ChannelSchema,
  DeliveryAttemptSchema,
  RedeliveryQueuedSchema,
  RequestDetailSchema,
  RequestSummarySchema,
  ShortSchema,
  ShortsOptions,
  Sort,
  SuccessBodySchema,
  WebhookPayloadSchema,
} from '../../contract/shorts.ts';

const opt = Type.Optional;

/** The demo's channel (npm run demo, the fake platform): the example "Try it out" sends succeeds there. */
export const DEMO_CHANNEL_URL = 'https://www.youtube.com/@demo';

/** webhookPayload of a shorts or batch request. */
export const WEBHOOK_PAYLOAD = WebhookPayloadForm(
  "Webhook requests: how shorts.completed carries the result. full (the default, unless the account's default " +
    'is thin: PUT /accounts/alerts): the whole result, as the synchronous answer; thin: requestId, itemCount, ' +
    'creditsCharged, truncated and resultUrl (GET /api/youtube/shorts/{requestId}/items, paged). A full body over ' +
    'WEBHOOK_MAX_BODY_BYTES is sent thin (reason too_large).',
);

/**
 * A channel address, in any form parseChannelUrl reads (src/domain/shorts/channel-url.ts). Not
 * `format: uri`: a bare "@handle" or "youtube.com/@x" is no URI, and the schema's "must match
 * format" would answer before the address's own, clearer INVALID_CHANNEL_URL.
 */
export function ChannelUrl(description: string) {
  return Type.String({ minLength: 1, maxLength: 2048, description, examples: [DEMO_CHANNEL_URL] });
}

export const ShortsRequestBody = Type.Object(
  {
    channelUrl: ChannelUrl(
      'Channel address (non-ASCII handles may be sent as they are, or percent-encoded): /@handle, ' +
        '/channel/UC…, /user/name, /c/name or /name on youtube.com (www., m., music.), with or without ' +
        'https://, or a bare @handle or channel id (UC…). Anything else answers 400 INVALID_CHANNEL_URL listing ' +
        'the accepted forms; a user name or password in the address is dropped before it is recorded.',
    ),
    oldestDate: opt(
      Type.Integer({
        minimum: 0,
        maximum: 8640000000000000,
        description:
          'Unix time in milliseconds (e.g. 1735689600000 for 2025-01-01); only shorts published at or after it ' +
          'are returned.',
      }),
    ),
    limit: opt(
      Type.Integer({
        minimum: 1,
        description:
          'At most this many shorts, applied after sort and duration filters. With sort=newest and no duration ' +
          'filter reading stops as soon as they are listed: fewer upstream calls, fewer credits.',
      }),
    ),
    freshness: opt(
      Type.Union([Type.Literal('stale-ok'), Type.Literal('exact')], {
        description:
          'When every Data API key is spent for the day. stale-ok (default): an earlier exact copy (stale:true) ' +
          'if one exists, else current keyless data with approximate counts (source:"innertube", ' +
          'approximateFields listed). exact: an earlier exact copy if one exists, else 503; never approximate values.',
      }),
    ),
    ...ShortsOptions(),
    webhookUrl: opt(
      Type.String({
        format: 'uri',
        maxLength: 2048,
        description: 'When present, answer 202 at once and POST the result here later (Standard Webhooks signed).',
      }),
    ),
    webhookPayload: opt(WEBHOOK_PAYLOAD),
    store: opt(
      Type.Boolean({
        description:
          'Synchronous requests: keep the whole result for GET /api/youtube/shorts/{requestId}/items (paged) for ' +
          'RESULT_RETENTION_DAYS. Webhook requests are always kept.',
      }),
    ),
  },
  { additionalProperties: false, $id: 'ShortsRequest' },
);

/** Named request examples of POST /api/youtube/shorts; the first is what "Try it out" sends. */
export const SHORTS_REQUEST_EXAMPLES = {
  newest: { summary: 'The 10 newest shorts of the demo channel', value: { channelUrl: DEMO_CHANNEL_URL, limit: 10 } },
  popular: {
    summary: 'The most viewed shorts up to 60 s',
    value: { channelUrl: DEMO_CHANNEL_URL, sort: 'popular', limit: 10, maxDurationSeconds: 60 },
  },
  since: {
    summary: 'Shorts published since 1 Jan 2025',
    value: { channelUrl: DEMO_CHANNEL_URL, oldestDate: 1735689600000 },
  },
  webhook: {
    summary: 'Answer later, by signed webhook',
    value: { channelUrl: DEMO_CHANNEL_URL, webhookUrl: 'https://example.com/hooks/shorts' },
  },
};
