// Request schemas of the batch and stored-result routes: batches and paged results. Their response shapes live in
// src/contract/batches.ts (re-exported here for the route files).
import { Type } from 'typebox';
import { ShortsOptions } from '../../contract/shorts.ts';
import { MAX_BATCH_ITEMS } from '../../domain/requests/batches.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../domain/requests/stored-results.ts';
import { ChannelUrl, DEMO_CHANNEL_URL, WEBHOOK_PAYLOAD } from './shorts.ts';

export {
  BatchAcceptedSchema,
  BatchItemStatusSchema,
  BatchListSchema,
  BatchRedeliveryQueuedSchema,
  BatchStatusSchema,
  BatchSummarySchema,
  BatchWebhookPayloadSchema,
  ItemsPageSchema,
} from '../../contract/batches.ts';

const opt = Type.Optional;

export const BatchItemSchema = Type.Object(
  {
    channelUrl: ChannelUrl('Channel address, in any form POST /api/youtube/shorts accepts.'),
    oldestDate: opt(
      Type.Integer({
        minimum: 0,
        maximum: 8640000000000000,
        description: 'Unix time in milliseconds; only shorts published at or after it.',
      }),
    ),
    limit: opt(
      Type.Integer({ minimum: 1, description: 'At most this many shorts (after sort and duration filters).' }),
    ),
    ...ShortsOptions(),
  },
  { additionalProperties: false, $id: 'BatchItem' },
);

export const BatchRequestBody = Type.Object(
  {
    items: Type.Array(BatchItemSchema, {
      minItems: 1,
      maxItems: MAX_BATCH_ITEMS,
      description:
        `1 to ${MAX_BATCH_ITEMS} requests; each becomes an ordinary webhook request with its own ` +
        'requestId, result, charge and webhook.',
    }),
    webhookUrl: Type.String({
      format: 'uri',
      maxLength: 2048,
      description:
        "Receives every item's shorts.completed / shorts.failed webhook and, once all have settled, " +
        'one batch.completed summary.',
    }),
    webhookPayload: opt(WEBHOOK_PAYLOAD),
  },
  {
    additionalProperties: false,
    $id: 'BatchRequest',
    examples: [
      {
        items: [
          { channelUrl: DEMO_CHANNEL_URL, sort: 'popular', limit: 10 },
          { channelUrl: 'https://www.youtube.com/@sparse', oldestDate: 1735689600000 },
        ],
        webhookUrl: 'https://example.com/hooks/shorts',
      },
    ],
  },
);

export const ItemsQuery = Type.Object({
  cursor: opt(
    Type.String({
      maxLength: 200,
      description: 'nextCursor of the previous page (opaque); leave out for the first page.',
    }),
  ),
  pageSize: Type.Integer({
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: `Shorts per page, 1 to ${MAX_PAGE_SIZE}.`,
  }),
});

export const BatchListQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Batches per page.' }),
    cursor: opt(
      Type.String({
        minLength: 1,
        maxLength: 120,
        description: "The previous page's nextCursor, unchanged (opaque). Omit for the first page.",
      }),
    ),
  },
  { additionalProperties: false },
);
