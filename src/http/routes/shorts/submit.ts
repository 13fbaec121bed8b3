// POST /api/youtube/shorts: the metered operation. Without webhookUrl the answer is the result (200);
// with it, the request is recorded and queued (202) and the result is POSTed there later.
import type { Config } from '../../../config.ts';
import { normalizeChannelUrl, parseChannelUrl } from '../../../domain/shorts/channel-url.ts';
import { priceFormula } from '../../../domain/shorts/pricing.ts';
import { runSyncRequest } from '../../../domain/requests/shorts-requests.ts';
import type { NewRequest } from '../../../domain/requests/request-store.ts';
import { assertAcceptableWebhookUrl } from '../../../domain/webhooks/webhook-url.ts';
import { webhookIdFor } from '../../../domain/webhooks/delivery-log.ts';
import { recordedPayloadForm } from '../../../domain/webhooks/result-payload.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { callSourceOf } from '../../mcp/call-source.ts';
import { sendRendered } from '../../send-rendered.ts';
import { failureResponse as failure, json } from '../../schemas/common.ts';
import {
  AcceptedBodySchema,
  SHORTS_REQUEST_EXAMPLES,
  ShortsRequestBody,
  SuccessBodySchema,
} from '../../schemas/shorts.ts';
import type { ReplyOf, RequestOf } from '../../types.ts';

export function submitShortsRoute(config: Config) {
  return {
    method: 'POST',
    url: '/api/youtube/shorts',
    config: { auth: true, scope: 'shorts:write', rateLimited: true, failureBody: true, idempotent: true },
    schema: {
      tags: ['shorts'],
      summary: "List a channel's Shorts with the channel's details.",
      description: submitDescription(config),
      security: [{ bearer: [] }],
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
        402: failure('The available credits cannot cover the price (quoted in the message).', ['INSUFFICIENT_CREDITS']),
        403: failure('The credential may not use this resource.', ['FORBIDDEN']),
        404: failure('No channel at that address.', ['CHANNEL_NOT_FOUND']),
        413: failure('The body is over 64 KiB.', ['PAYLOAD_TOO_LARGE']),
        415: failure('The body is not sent as application/json.', ['UNSUPPORTED_MEDIA_TYPE']),
        429: failure(
          "Rate limit exceeded (RATE_LIMITED; see Retry-After and RateLimit headers), or the account's daily " +
            'allowance of unpaid upstream work is spent (QUOTA_ALLOWANCE_EXHAUSTED; Retry-After at ' +
            'midnight America/Los_Angeles).',
          ['RATE_LIMITED', 'QUOTA_ALLOWANCE_EXHAUSTED'],
        ),
        500: failure('Unexpected server error.', ['INTERNAL_ERROR']),
        502: failure("The video platform failed or rejected the service's credentials.", ['UPSTREAM_ERROR']),
        503: failure(
          'Every platform key is out of quota for today and no earlier result exists (UPSTREAM_QUOTA_EXHAUSTED, ' +
            'Retry-After at the next quota day), the platform throttles (UPSTREAM_RATE_LIMITED), its web API ' +
            'blocks the service with a bot check or a consent wall (UPSTREAM_BLOCKED; a Data API key or an ' +
            'outbound proxy helps), it cannot be reached (UPSTREAM_UNAVAILABLE), or a backing store is down.',
          [
            'UPSTREAM_QUOTA_EXHAUSTED',
            'UPSTREAM_RATE_LIMITED',
            'UPSTREAM_BLOCKED',
            'UPSTREAM_UNAVAILABLE',
            'SERVICE_UNAVAILABLE',
          ],
        ),
        504: failure('The video platform did not answer in time.', ['UPSTREAM_TIMEOUT']),
      },
    },
  } as const;
}

type SubmitSchema = ReturnType<typeof submitShortsRoute>['schema'];

export async function submitShorts(request: RequestOf<SubmitSchema>, reply: ReplyOf<SubmitSchema>) {
  const { shortsRequests, acceptances, jobs, config, connectionsCut } = request.server.services;
  const record = newRequestRecord(request);
  if (!record.webhookUrl) {
    // Pre-rendered JSON with exactly the schema's fields (see renderSuccessJson): sent as is.
    const { json } = await runSyncRequest(shortsRequests, record, { connectionsCut: connectionsCut.signal });
    return sendRendered(reply, json);
  }
  parseChannelUrl(record.channelUrl);
  assertAcceptableWebhookUrl(record.webhookUrl, config.WEBHOOK_ALLOW_PRIVATE_TARGETS);
  await acceptances.accept(record);
  jobs.fetchesQueued();
  reply.code(202);
  return {
    success: true as const,
    requestId: record.id,
    status: 'processing' as const,
    message:
      `Accepted. The result will be POSTed to the webhookUrl with webhook-id ${webhookIdFor(record.id)}; ` +
      `poll GET /api/youtube/shorts/${record.id} for status.`,
  };
}

/** The request as it is recorded: its id is the call's, its options as sent (absent ones null). */
function newRequestRecord(request: RequestOf<SubmitSchema>): NewRequest {
  const caller = callerOf(request);
  const { channelUrl, oldestDate, limit, freshness, webhookUrl, sort, minDurationSeconds, maxDurationSeconds } =
    request.body;
  const { store, maxCredits, include } = request.body;
  const payloadForm = webhookUrl
    ? recordedPayloadForm(request.body.webhookPayload, request.account?.webhook_payload)
    : {};
  return {
    id: request.id,
    accountId: caller.accountId,
    apiKeyId: caller.keyId,
    channelUrl: normalizeChannelUrl(channelUrl),
    oldestDate: oldestDate ?? null,
    limit: limit ?? null,
    freshness: freshness ?? null,
    webhookUrl: webhookUrl ?? null,
    // Sort and duration filters read the whole window; store keeps a synchronous result for paged reading.
    options: {
      sort,
      minDurationSeconds,
      maxDurationSeconds,
      maxCredits,
      include,
      ...(callSourceOf(request) === 'mcp' ? { via: 'mcp' } : {}),
      ...payloadForm,
    },
    ...(store ? { store } : {}),
  };
}

function submitDescription(config: Config): string {
  const price = priceFormula(
    {
      minimumCredits: config.MIN_CREDITS_PER_REQUEST,
      shortsPerBlock: config.SHORTS_PER_CREDIT_BLOCK,
      creditsPerBlock: config.CREDITS_PER_BLOCK,
    },
    config.QUOTA_UNITS_PER_CREDIT,
  );
  return (
    'Without webhookUrl the result is in the response (200). With webhookUrl the request is accepted (202) and ' +
    'the result is POSTed to the URL later, signed per Standard Webhooks. ' +
    `Price: ${price} (GET /api/pricing). ` +
    'Credits are reserved before the platform is read and the work is capped at what they pay for: when the ' +
    'first playlist page shows the channel costs more than the available credits, the answer is 402 quoting the ' +
    'price (use limit to ask for fewer). ' +
    `Failed lookups come out of a daily allowance of ${config.QUOTA_ALLOWANCE_UNITS} unpaid upstream units per ` +
    'account (then 429 QUOTA_ALLOWANCE_EXHAUSTED). When every platform key is spent for the day, earlier results ' +
    'are served with stale:true; otherwise 503 with Retry-After. ' +
    `At most ${config.MAX_SHORTS_PER_REQUEST} shorts per request (newest first); when more exist the body says ` +
    'truncated:true. Fields the platform does not send are omitted, never null. ' +
    'sort=oldest|popular and the duration filters read the whole window (up to MAX_SHORTS_PER_REQUEST) before ' +
    'limit applies: the price follows the shorts read, not the shorts returned (a filter never lowers it). ' +
    'Every short carries contentDetails.duration (ISO 8601) and durationSeconds when the platform sends a duration. ' +
    'store: true keeps a synchronous result for paged reading (GET /api/youtube/shorts/{requestId}/items); ' +
    'webhook results are always kept.'
  );
}
