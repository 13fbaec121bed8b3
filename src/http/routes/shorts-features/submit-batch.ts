// POST /api/youtube/shorts/batch: up to 50 webhook requests accepted together, all or nothing.
import type { Config } from '../../../config.ts';
import { normalizeChannelUrl } from '../../../domain/shorts/channel-url.ts';
import { submitBatch as submitBatchOfRequests } from '../../../domain/requests/batches.ts';
import type { NewRequest } from '../../../domain/requests/request-store.ts';
import { assertAcceptableWebhookUrl } from '../../../domain/webhooks/webhook-url.ts';
import { webhookIdFor } from '../../../domain/webhooks/delivery-log.ts';
import { recordedPayloadForm } from '../../../domain/webhooks/result-payload.ts';
import { newRequestId } from '../../request-id.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { failureResponse as failure, json } from '../../schemas/common.ts';
import { BatchAcceptedSchema, BatchRequestBody } from '../../schemas/shorts-features.ts';
import type { ReplyOf, RequestOf } from '../../types.ts';
import { commonErrors } from './common.ts';

export function submitBatchRoute(config: Config) {
  return {
    method: 'POST',
    url: '/api/youtube/shorts/batch',
    config: { auth: true, scope: 'shorts:write', rateLimited: true, failureBody: true, idempotent: true },
    schema: {
      tags: ['shorts'],
      summary: 'Submit up to 50 shorts requests at once, each answered by webhook.',
      description:
        'Each item becomes an ordinary webhook request (its own requestId, result, charge, credit reservation ' +
        'and shorts.completed / shorts.failed webhook to webhookUrl). ' +
        'When every item has settled, one batch.completed webhook (see webhooks) summarises the batch; GET ' +
        '/api/youtube/shorts/batch/{batchId} shows progress. ' +
        'Acceptance is all or nothing: every item reserves at ' +
        `least ${Math.max(1, config.MIN_CREDITS_PER_REQUEST)} credit when accepted; when the available credits ` +
        'cannot reserve every item the whole batch is refused with 402 and nothing is recorded or charged. ' +
        'A batch counts as one call against the rate limits.',
      security: [{ bearer: [] }],
      body: BatchRequestBody,
      response: {
        202: json('Accepted: one webhook request per item.', BatchAcceptedSchema),
        ...commonErrors,
        400: failure(
          "Invalid input (an item's channelUrl not a channel address, or an unsafe webhookUrl); the " +
            'message says what is accepted.',
          ['VALIDATION_FAILED', 'INVALID_CHANNEL_URL', 'UNSAFE_WEBHOOK_URL'],
        ),
        402: failure('The available credits cannot reserve every item; nothing was accepted.', [
          'INSUFFICIENT_CREDITS',
        ]),
        429: failure('Rate limit exceeded (see Retry-After and RateLimit headers).', ['RATE_LIMITED']),
      },
    },
  } as const;
}

type SubmitBatchSchema = ReturnType<typeof submitBatchRoute>['schema'];

export async function submitBatch(request: RequestOf<SubmitBatchSchema>, reply: ReplyOf<SubmitBatchSchema>) {
  const { shortsRequests, jobs, config } = request.server.services;
  const { accountId } = callerOf(request);
  const { webhookUrl } = request.body;
  assertAcceptableWebhookUrl(webhookUrl, config.WEBHOOK_ALLOW_PRIVATE_TARGETS);
  const batchId = newRequestId().replace(/^req_/, 'bat_');
  const records = batchRecords(request, batchId);
  await submitBatchOfRequests(
    shortsRequests,
    { id: batchId, accountId, webhookUrl, items: records },
    async (tx, requestId) => {
      await jobs.enqueueShortsFetches(tx, [requestId]);
    },
  );
  jobs.fetchesQueued();
  reply.code(202);
  return {
    success: true as const,
    batchId,
    status: 'processing' as const,
    items: records.map((r) => ({ requestId: r.id, channelUrl: r.channelUrl })),
    message:
      `Accepted ${records.length} request${records.length === 1 ? '' : 's'}. Each result is POSTed to the ` +
      `webhookUrl as it completes, then one batch.completed summary with webhook-id ${webhookIdFor(batchId)}; ` +
      `poll GET /api/youtube/shorts/batch/${batchId} for progress.`,
  };
}

/** One webhook request per item, in the batch's order. */
function batchRecords(request: RequestOf<SubmitBatchSchema>, batchId: string): NewRequest[] {
  const caller = callerOf(request);
  const { items, webhookUrl, webhookPayload } = request.body;
  const payloadForm = recordedPayloadForm(webhookPayload, request.account?.webhook_payload);
  // Sorted ids keep the batch's order when items are listed by id.
  const ids = items.map(() => newRequestId()).sort();
  return items.map((item, i) => ({
    id: ids[i]!,
    accountId: caller.accountId,
    apiKeyId: caller.keyId,
    channelUrl: normalizeChannelUrl(item.channelUrl),
    oldestDate: item.oldestDate ?? null,
    limit: item.limit ?? null,
    webhookUrl,
    batchId,
    options: {
      sort: item.sort,
      minDurationSeconds: item.minDurationSeconds,
      maxDurationSeconds: item.maxDurationSeconds,
      maxCredits: item.maxCredits,
      ...payloadForm,
      include: item.include,
    },
  }));
}
