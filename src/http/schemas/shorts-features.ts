// Schemas of the #14 routes: batches and paged results.
import { Type } from 'typebox';
import { ChannelSchema, DeliveryAttemptSchema, ShortSchema, ShortsOptions } from './shorts.ts';
import { MAX_BATCH_ITEMS } from '../../domain/requests/batches.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../domain/requests/stored-results.ts';
import { Nullable } from './common.ts';

const opt = Type.Optional;
const RequestStatus = Type.Union([Type.Literal('processing'), Type.Literal('completed'), Type.Literal('failed')]);

export const BatchItemSchema = Type.Object(
  {
    channelUrl: Type.String({ format: 'uri', maxLength: 2048, description: 'Channel address, as for POST /api/youtube/shorts.' }),
    oldestDate: opt(Type.Integer({ minimum: 0, maximum: 8640000000000000, description: 'Unix time in milliseconds; only shorts published at or after it.' })),
    limit: opt(Type.Integer({ minimum: 1, description: 'At most this many shorts (after sort and duration filters).' })),
    ...ShortsOptions(),
  },
  { additionalProperties: false, $id: 'BatchItem' },
);

export const BatchRequestBody = Type.Object(
  {
    items: Type.Array(BatchItemSchema, { minItems: 1, maxItems: MAX_BATCH_ITEMS, description: `1 to ${MAX_BATCH_ITEMS} requests; each becomes an ordinary webhook request with its own requestId, result, charge and webhook.` }),
    webhookUrl: Type.String({ format: 'uri', maxLength: 2048, description: 'Receives every item\'s shorts.completed / shorts.failed webhook and, once all have settled, one batch.completed summary.' }),
  },
  {
    additionalProperties: false,
    $id: 'BatchRequest',
    examples: [{ items: [{ channelUrl: 'https://www.youtube.com/@demo', sort: 'popular', limit: 10 }, { channelUrl: 'https://www.youtube.com/@sparse', oldestDate: 1735689600000 }], webhookUrl: 'https://example.com/hooks/shorts' }],
  },
);

export const BatchAcceptedSchema = Type.Object(
  {
    success: Type.Literal(true),
    batchId: Type.String(),
    status: Type.Literal('processing'),
    items: Type.Array(Type.Object({ requestId: Type.String(), channelUrl: Type.String() }), { description: 'One requestId per item, in the order sent.' }),
    message: Type.String(),
  },
  { $id: 'BatchAccepted', examples: [{ success: true, batchId: 'bat_m1x2y3z4a1b2c3d4e5f6a7b8c9d0', status: 'processing', items: [{ requestId: 'req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0', channelUrl: 'https://www.youtube.com/@demo' }], message: 'Accepted 1 request.' }] },
);

export const BatchItemStatusSchema = Type.Object(
  {
    requestId: Type.String(),
    channelUrl: Type.String(),
    status: RequestStatus,
    itemCount: Nullable(Type.Integer()),
    creditsCharged: Nullable(Type.Integer()),
    error: Nullable(Type.String({ description: 'The error code of a failed item.' })),
  },
  { $id: 'BatchItemStatus' },
);

const batchSummaryProperties = {
  batchId: Type.String(),
  status: Type.Union([Type.Literal('processing'), Type.Literal('completed')], { description: 'completed once every item has settled (completed or failed).' }),
  webhookUrl: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  completedAt: Nullable(Type.String({ format: 'date-time' })),
  counts: Type.Object({ total: Type.Integer(), processing: Type.Integer(), completed: Type.Integer(), failed: Type.Integer() }),
  creditsCharged: Type.Integer({ description: 'Sum of the items\' charges so far.' }),
  items: Type.Array(BatchItemStatusSchema),
};

export const BatchSummarySchema = Type.Object(batchSummaryProperties, { $id: 'BatchSummary' });

export const BatchStatusSchema = Type.Object(
  { success: Type.Literal(true), ...batchSummaryProperties, deliveries: Type.Array(DeliveryAttemptSchema, { description: 'Delivery attempts of the batch.completed webhook.' }) },
  { $id: 'BatchStatus' },
);

export const BatchWebhookPayloadSchema = Type.Object(
  {
    type: Type.Literal('batch.completed'),
    timestamp: Type.String({ format: 'date-time', description: 'When the last item settled.' }),
    data: BatchSummarySchema,
  },
  { $id: 'BatchWebhookPayload' },
);

export const ItemsQuery = Type.Object({
  cursor: opt(Type.String({ maxLength: 200, description: 'nextCursor of the previous page (opaque); leave out for the first page.' })),
  pageSize: Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: `Shorts per page, 1 to ${MAX_PAGE_SIZE}.` }),
});

export const ItemsPageSchema = Type.Object(
  {
    success: Type.Literal(true),
    requestId: Type.String(),
    data: Type.Object({ channel: ChannelSchema, shorts: Type.Array(ShortSchema, { description: 'This page of the result, in the result\'s order.' }) }),
    itemCount: Type.Integer({ description: 'Shorts on this page.' }),
    totalItems: Type.Integer({ description: 'Shorts in the whole result.' }),
    nextCursor: Nullable(Type.String({ description: 'Pass as cursor for the next page; null on the last page.' })),
    retentionDays: Type.Integer({ description: 'RESULT_RETENTION_DAYS: how long after completion a result can be read.' }),
    expiresAt: Type.String({ format: 'date-time', description: 'After this the result answers 410 RESULT_EXPIRED.' }),
  },
  { $id: 'ItemsPage' },
);
