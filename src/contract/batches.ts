// Bodies of the batch operations, the batch.completed webhook and paged stored results.
import { Type, type Static } from 'typebox';
import { EXAMPLE_REQUEST_ID, EXAMPLE_TIME, Nullable } from './common.ts';
import {
  ChannelSchema,
  DeliveryAttemptSchema,
  EXAMPLE_CHANNEL,
  EXAMPLE_SHORT,
  RequestStatus,
  ShortSchema,
} from './shorts.ts';

export const EXAMPLE_BATCH_ID = 'bat_m1x2y3z4a1b2c3d4e5f6a7b8c9d0';

export const BatchAcceptedSchema = Type.Object(
  {
    success: Type.Literal(true),
    batchId: Type.String(),
    status: Type.Literal('processing'),
    items: Type.Array(Type.Object({ requestId: Type.String(), channelUrl: Type.String() }), {
      description: 'One requestId per item, in the order sent.',
    }),
    message: Type.String(),
  },
  {
    $id: 'BatchAccepted',
    description: 'The batch was accepted; every item is an ordinary webhook request.',
    examples: [
      {
        success: true,
        batchId: EXAMPLE_BATCH_ID,
        status: 'processing',
        items: [{ requestId: EXAMPLE_REQUEST_ID, channelUrl: 'https://www.youtube.com/@demo' }],
        message: 'Accepted 1 request.',
      },
    ],
  },
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
export type BatchItemStatus = Static<typeof BatchItemStatusSchema>;

const exampleSummary = {
  batchId: EXAMPLE_BATCH_ID,
  status: 'completed' as const,
  webhookUrl: 'https://example.com/hooks/shorts',
  createdAt: EXAMPLE_TIME,
  completedAt: '2026-06-01T12:00:05.000Z',
  counts: { total: 2, processing: 0, completed: 1, failed: 1 },
  creditsCharged: 3,
  items: [
    {
      requestId: EXAMPLE_REQUEST_ID,
      channelUrl: 'https://www.youtube.com/@demo',
      status: 'completed' as const,
      itemCount: 120,
      creditsCharged: 3,
      error: null,
    },
    {
      requestId: 'req_m1x2y3z4f6e5d4c3b2a1f0e9d8c7',
      channelUrl: 'https://www.youtube.com/@nobody',
      status: 'failed' as const,
      itemCount: null,
      creditsCharged: 0,
      error: 'CHANNEL_NOT_FOUND',
    },
  ],
};

const batchSummaryProperties = {
  batchId: Type.String(),
  status: Type.Union([Type.Literal('processing'), Type.Literal('completed')], {
    description: 'completed once every item has settled (completed or failed).',
  }),
  webhookUrl: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  completedAt: Nullable(Type.String({ format: 'date-time' })),
  counts: Type.Object({
    total: Type.Integer(),
    processing: Type.Integer(),
    completed: Type.Integer(),
    failed: Type.Integer(),
  }),
  creditsCharged: Type.Integer({ description: "Sum of the items' charges so far." }),
  items: Type.Array(BatchItemStatusSchema),
};

export const BatchSummarySchema = Type.Object(batchSummaryProperties, {
  $id: 'BatchSummary',
  examples: [exampleSummary],
});
export type BatchSummary = Static<typeof BatchSummarySchema>;

export const BatchStatusSchema = Type.Object(
  {
    success: Type.Literal(true),
    ...batchSummaryProperties,
    deliveries: Type.Array(DeliveryAttemptSchema, { description: 'Delivery attempts of the batch.completed webhook.' }),
  },
  {
    $id: 'BatchStatus',
    description: 'Progress of a batch.',
    examples: [
      {
        success: true,
        ...exampleSummary,
        deliveries: [
          {
            id: 42,
            attempt: 1,
            webhookId: `msg_${EXAMPLE_BATCH_ID}`,
            startedAt: '2026-06-01T12:00:05.100Z',
            statusCode: 200,
            latencyMs: 61,
            outcome: 'delivered',
            error: null,
            requestHeaders: null,
            responseExcerpt: null,
            nextAttemptAt: null,
          },
        ],
      },
    ],
  },
);

const { items: _items, ...batchListProperties } = batchSummaryProperties;

export const BatchListEntrySchema = Type.Object(batchListProperties, {
  $id: 'BatchListEntry',
  description:
    "A batch as listed: its progress counts and charge (GET /api/youtube/shorts/batch/{batchId} has each item's).",
  examples: [(({ items: _omit, ...entry }) => entry)(exampleSummary)],
});
export type BatchListEntry = Static<typeof BatchListEntrySchema>;

export const BatchListSchema = Type.Object(
  {
    success: Type.Literal(true),
    batches: Type.Array(BatchListEntrySchema, { description: 'Newest first.' }),
    nextCursor: Nullable(Type.String({ description: 'Pass as cursor for the next (older) page; null on the last.' })),
  },
  {
    $id: 'BatchList',
    description: "The account's batches, newest first, one page.",
    examples: [
      {
        success: true,
        batches: [(({ items: _omit, ...entry }) => entry)(exampleSummary)],
        nextCursor: null,
      },
    ],
  },
);

export const BatchWebhookPayloadSchema = Type.Object(
  {
    type: Type.Literal('batch.completed'),
    timestamp: Type.String({ format: 'date-time', description: 'When the last item settled.' }),
    data: BatchSummarySchema,
  },
  {
    $id: 'BatchWebhookPayload',
    description: 'Body of the batch.completed webhook.',
    examples: [{ type: 'batch.completed', timestamp: '2026-06-01T12:00:05.000Z', data: exampleSummary }],
  },
);

export const ItemsPageSchema = Type.Object(
  {
    success: Type.Literal(true),
    requestId: Type.String(),
    data: Type.Object({
      channel: ChannelSchema,
      shorts: Type.Array(ShortSchema, { description: "This page of the result, in the result's order." }),
    }),
    itemCount: Type.Integer({ description: 'Shorts on this page.' }),
    totalItems: Type.Integer({ description: 'Shorts in the whole result.' }),
    nextCursor: Nullable(Type.String({ description: 'Pass as cursor for the next page; null on the last page.' })),
    retentionDays: Type.Integer({
      description: 'RESULT_RETENTION_DAYS: how long after completion a result can be read.',
    }),
    expiresAt: Type.String({ format: 'date-time', description: 'After this the result answers 410 RESULT_EXPIRED.' }),
  },
  {
    $id: 'ItemsPage',
    description: 'One page of a stored result.',
    examples: [
      {
        success: true,
        requestId: EXAMPLE_REQUEST_ID,
        data: { channel: EXAMPLE_CHANNEL, shorts: [EXAMPLE_SHORT] },
        itemCount: 1,
        totalItems: 120,
        nextCursor: 'eyJvIjoxfQ',
        retentionDays: 7,
        expiresAt: '2026-06-08T12:00:01.200Z',
      },
    ],
  },
);
export type ItemsPage = Static<typeof ItemsPageSchema>;

export const BatchRedeliveryQueuedSchema = Type.Object(
  {
    batchId: Type.String(),
    status: Type.Literal('queued'),
    attempt: Type.Integer({ description: 'The number the queued attempt will have.' }),
  },
  {
    $id: 'BatchRedeliveryQueued',
    description: 'A redelivery of the batch.completed summary was queued.',
    examples: [{ batchId: EXAMPLE_BATCH_ID, status: 'queued', attempt: 9 }],
  },
);
