// The shorts resources, field for field as the spec's Channel and Short tables (docs/spec.md), and
// the bodies of the shorts operations and their webhooks.
// Absent upstream values: a field the platform did not send is omitted, never null.
import { Type, type Static } from 'typebox';
import { EXAMPLE_REQUEST_ID, EXAMPLE_TIME, FailureBody, Nullable } from './common.ts';
import { ShortGrowthSchema } from './stats.ts';

const opt = Type.Optional;
const Thumbnail = Type.Object({ url: Type.String(), width: opt(Type.Integer()), height: opt(Type.Integer()) });
export const Thumbnails = Type.Object({
  default: opt(Thumbnail),
  medium: opt(Thumbnail),
  high: opt(Thumbnail),
  standard: opt(Thumbnail),
  maxres: opt(Thumbnail),
});
export type ThumbnailSet = Static<typeof Thumbnails>;
const Localized = Type.Object({ title: opt(Type.String()), description: opt(Type.String()) });

const Etag = opt(Type.String({ description: "The platform's ETag; absent in keyless (InnerTube) mode." }));

export const Sort = Type.Enum(['newest', 'oldest', 'popular'], {
  description:
    'newest (default) | oldest | popular (exact viewCount, ties newest first). oldest and popular read the whole ' +
    'window (up to MAX_SHORTS_PER_REQUEST) and are priced by what was read; limit applies after sorting.',
});

export const Include = Type.Array(Type.Literal('growth'), {
  uniqueItems: true,
  maxItems: 1,
  description:
    '"growth": every short carries growth over the last 24 hours, 7 days and 30 days, computed from stored ' +
    "snapshots with this answer's counts as the latest point (absent where history is too short). No extra price.",
});

/** sort, the duration filters and include, shared by single requests, batch items and request records. */
export function ShortsOptions() {
  return {
    maxCredits: opt(
      Type.Integer({
        minimum: 1,
        description:
          'The most this request may cost. The read is capped at the shorts these credits pay for (newest first; ' +
          'sort and duration filters rank those only); when the channel has more, the answer has truncated:true ' +
          'and a message saying so. Never more is charged; 402 INSUFFICIENT_CREDITS when even the minimum price ' +
          'exceeds it.',
        examples: [10],
      }),
    ),
    include: opt(Include),
    sort: opt(Sort),
    minDurationSeconds: opt(
      Type.Integer({
        minimum: 0,
        description:
          'Only shorts at least this long (seconds, inclusive). Shorts without a known duration are left out. ' +
          'Filters apply after details are read: they never lower the price of the work read.',
      }),
    ),
    maxDurationSeconds: opt(
      Type.Integer({
        minimum: 0,
        description: 'Only shorts at most this long (seconds, inclusive); not below minDurationSeconds.',
      }),
    ),
  };
}

const exampleThumbnails = {
  default: { url: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/default.jpg', width: 120, height: 90 },
};
export const EXAMPLE_CHANNEL = {
  kind: 'youtube#channel',
  etag: 'Xj4pQbVnD1mR8rT2',
  id: 'UCdemo0000000000000000aa',
  snippet: {
    title: 'Demo Channel',
    description: 'Shorts for the demo.',
    customUrl: '@demo',
    publishedAt: '2019-03-04T10:00:00Z',
    thumbnails: exampleThumbnails,
    country: 'US',
  },
  statistics: { viewCount: '1843000', subscriberCount: '12400', hiddenSubscriberCount: false, videoCount: '140' },
  brandingSettings: {
    channel: { title: 'Demo Channel', description: 'Shorts for the demo.' },
    image: { bannerExternalUrl: 'https://yt3.googleusercontent.com/demo-banner' },
  },
};
export const EXAMPLE_SHORT = {
  kind: 'youtube#video',
  etag: 'Pq9sLm2Kx7Vb4Nc1',
  id: 'dQw4w9WgXcQ',
  snippet: {
    publishedAt: '2026-05-30T18:00:00Z',
    channelId: 'UCdemo0000000000000000aa',
    title: 'A short in 58 seconds',
    description: 'The demo short.',
    thumbnails: exampleThumbnails,
    channelTitle: 'Demo Channel',
    channelHandle: '@demo',
    channelCustomUrl: 'https://www.youtube.com/@demo',
    tags: ['demo'],
    categoryId: '22',
    liveBroadcastContent: 'none',
  },
  statistics: { viewCount: '48211', likeCount: '3120', favoriteCount: '0', commentCount: '87' },
  contentDetails: { duration: 'PT58S' },
  shortUrl: 'https://www.youtube.com/shorts/dQw4w9WgXcQ',
  durationSeconds: 58,
};

export const ChannelSchema = Type.Object(
  {
    kind: Type.String(),
    etag: Etag,
    id: Type.String(),
    snippet: Type.Object({
      title: opt(Type.String()),
      description: opt(Type.String()),
      customUrl: opt(Type.String()),
      publishedAt: opt(Type.String()),
      thumbnails: opt(Thumbnails),
      defaultLanguage: opt(Type.String()),
      localized: opt(Localized),
      country: opt(Type.String()),
    }),
    statistics: Type.Object({
      viewCount: opt(Type.String()),
      subscriberCount: opt(Type.String()),
      hiddenSubscriberCount: opt(Type.Boolean()),
      videoCount: opt(Type.String()),
    }),
    brandingSettings: Type.Object({
      channel: Type.Object({
        title: opt(Type.String()),
        description: opt(Type.String()),
        keywords: opt(Type.String()),
        trackingAnalyticsAccountId: opt(Type.String()),
        moderateComments: opt(Type.Boolean()),
        unsubscribedTrailer: opt(Type.String()),
        defaultLanguage: opt(Type.String()),
        country: opt(Type.String()),
      }),
      image: Type.Object({ bannerExternalUrl: opt(Type.String()) }),
    }),
  },
  { $id: 'Channel', description: "The channel, as the spec's Channel table.", examples: [EXAMPLE_CHANNEL] },
);
export type Channel = Static<typeof ChannelSchema>;

export const ShortSchema = Type.Object(
  {
    kind: Type.String(),
    etag: Etag,
    id: Type.String(),
    snippet: Type.Object({
      publishedAt: opt(Type.String()),
      channelId: opt(Type.String()),
      title: opt(Type.String()),
      description: opt(Type.String()),
      thumbnails: opt(Thumbnails),
      channelTitle: opt(Type.String()),
      channelHandle: opt(
        Type.String({ description: 'The channel\'s handle, e.g. "@name" (from the channel\'s customUrl).' }),
      ),
      channelCustomUrl: opt(
        Type.String({
          description: "The channel's address built from its customUrl, e.g. https://www.youtube.com/@name.",
        }),
      ),
      tags: opt(Type.Array(Type.String())),
      categoryId: opt(Type.String()),
      liveBroadcastContent: opt(Type.String()),
      defaultLanguage: opt(Type.String()),
      localized: opt(Localized),
      defaultAudioLanguage: opt(Type.String()),
    }),
    statistics: Type.Object({
      viewCount: opt(Type.String()),
      likeCount: opt(Type.String()),
      dislikeCount: opt(Type.String()),
      favoriteCount: opt(Type.String()),
      commentCount: opt(Type.String()),
    }),
    contentDetails: opt(
      Type.Object(
        {
          duration: Type.String({
            description: "The video's duration as the platform gives it (ISO 8601, e.g. PT58S, PT1M5S, P0D).",
          }),
        },
        { description: 'Absent when the platform sends no duration.' },
      ),
    ),
    shortUrl: Type.String({ description: 'https://www.youtube.com/shorts/{id}' }),
    growth: opt(ShortGrowthSchema),
    durationSeconds: opt(
      Type.Integer({
        minimum: 0,
        description:
          'contentDetails.duration in seconds (Shorts run up to 180 s since 2024-10-15); absent when ' +
          'the platform sends no duration.',
      }),
    ),
  },
  { $id: 'Short', description: "One short, as the spec's Short table.", examples: [EXAMPLE_SHORT] },
);
export type Short = Static<typeof ShortSchema>;

export const SuccessBodySchema = Type.Object(
  {
    success: Type.Literal(true),
    requestId: Type.String(),
    data: Type.Object({
      channel: ChannelSchema,
      shorts: Type.Array(ShortSchema, { description: 'In the order asked for by sort (default newest first).' }),
    }),
    itemCount: Type.Integer(),
    creditsCharged: Type.Integer(),
    truncated: Type.Boolean({
      description:
        'True when more matching shorts exist than were returned: beyond MAX_SHORTS_PER_REQUEST, beyond what ' +
        'the available credits paid to read, or beyond where the video platform kept failing after some shorts ' +
        'were read (message says which, and names the failure). The newest are returned and priced. A ' +
        '`limit` reached is not truncation.',
    }),
    fetchedAt: Type.String({
      format: 'date-time',
      description: 'When this data was read from the video platform (a cached result keeps its original time).',
    }),
    stale: Type.Boolean({
      description: 'True when the platform quota is spent for today and this is an older copy (see fetchedAt).',
    }),
    source: Type.Union([Type.Literal('data-api'), Type.Literal('hybrid'), Type.Literal('innertube')], {
      description:
        "data-api: Shorts playlist + videos.list; hybrid: ids from the channel's Shorts tab (InnerTube, no " +
        'quota) + videos.list (exact); innertube: keyless, see approximateFields.',
    }),
    approximateFields: opt(
      Type.Array(Type.String(), {
        description:
          'Keyless results only (source "innertube"): fields whose values are parsed from display text ("2.9M ' +
          'views") and so approximate: channel.statistics.subscriberCount, channel.statistics.videoCount, ' +
          'shorts[].statistics.viewCount. Absent in keyless mode: etag, channel ' +
          'snippet.publishedAt/defaultLanguage/country, statistics.viewCount/hiddenSubscriberCount, the other ' +
          'brandingSettings.channel fields, and on shorts categoryId, liveBroadcastContent, defaultLanguage, ' +
          'localized, defaultAudioLanguage, like/dislike/favorite/comment counts; publishedAt, description, tags ' +
          'and duration only for shorts whose player answer was read (the edge of an oldestDate ' +
          'window). Everything else is exact.',
      }),
    ),
    message: opt(
      Type.String({
        description:
          'Present when truncated, stale or keyless (source "innertube"): explains what was left out, how old ' +
          'the data is, or which fields are approximate.',
      }),
    ),
  },
  {
    $id: 'ShortsResult',
    description: "The spec's success body: the channel and its shorts.",
    examples: [
      {
        success: true,
        requestId: EXAMPLE_REQUEST_ID,
        data: { channel: EXAMPLE_CHANNEL, shorts: [EXAMPLE_SHORT] },
        itemCount: 1,
        creditsCharged: 1,
        truncated: false,
        fetchedAt: EXAMPLE_TIME,
        stale: false,
        source: 'hybrid',
      },
    ],
  },
);
export type SuccessBody = Static<typeof SuccessBodySchema>;

export const AcceptedBodySchema = Type.Object(
  {
    success: Type.Literal(true),
    requestId: Type.String(),
    status: Type.Literal('processing'),
    message: Type.String(),
  },
  {
    $id: 'ShortsAccepted',
    description: 'A webhook request was accepted; the result is POSTed to webhookUrl.',
    examples: [
      {
        success: true,
        requestId: EXAMPLE_REQUEST_ID,
        status: 'processing',
        message:
          'Accepted. The result will be POSTed to the webhookUrl with webhook-id ' +
          `msg_${EXAMPLE_REQUEST_ID}; poll GET /api/youtube/shorts/${EXAMPLE_REQUEST_ID} for status.`,
      },
    ],
  },
);

export const WebhookPayloadSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('shorts.completed'), Type.Literal('shorts.failed')]),
    timestamp: Type.String({ format: 'date-time' }),
    data: Type.Union([SuccessBodySchema, FailureBody]),
  },
  {
    $id: 'ShortsWebhookPayload',
    description: "Body of the shorts.completed and shorts.failed webhooks: data is the synchronous answer's body.",
  },
);
export type WebhookPayload = Static<typeof WebhookPayloadSchema>;

/** How a shorts.completed webhook carries its result: the whole result, or a pointer to it. */
export function WebhookPayloadForm(description: string) {
  return Type.Union([Type.Literal('full'), Type.Literal('thin')], { description });
}
export type WebhookPayloadFormValue = 'full' | 'thin';

export const ThinResultSchema = Type.Object(
  {
    requestId: Type.String(),
    itemCount: Type.Integer({ description: 'Shorts in the result.' }),
    creditsCharged: Type.Integer(),
    truncated: Type.Boolean({ description: "As the full result's truncated." }),
    resultUrl: Type.String({
      format: 'uri',
      description:
        'GET /api/youtube/shorts/{requestId}/items: the stored result, page by page (nextCursor), with the ' +
        "account's credentials; free, for RESULT_RETENTION_DAYS.",
    }),
    thin: Type.Literal(true),
    reason: Type.Union([Type.Literal('requested'), Type.Literal('too_large')], {
      description:
        'requested: webhookPayload "thin" (the request\'s or the account\'s default); too_large: the full body ' +
        'would have been over WEBHOOK_MAX_BODY_BYTES.',
    }),
  },
  {
    $id: 'ShortsThinResult',
    description: 'A completed result without its shorts: page them from resultUrl.',
    examples: [
      {
        requestId: EXAMPLE_REQUEST_ID,
        itemCount: 5000,
        creditsCharged: 100,
        truncated: false,
        resultUrl: `https://shorts.example.com/api/youtube/shorts/${EXAMPLE_REQUEST_ID}/items`,
        thin: true,
        reason: 'requested',
      },
    ],
  },
);
export type ThinResult = Static<typeof ThinResultSchema>;

export const ThinWebhookPayloadSchema = Type.Object(
  {
    type: Type.Literal('shorts.completed'),
    timestamp: Type.String({ format: 'date-time' }),
    data: ThinResultSchema,
  },
  {
    $id: 'ShortsThinWebhookPayload',
    description:
      'Body of a thin shorts.completed webhook: the counts and where to page the result (data.thin is true).',
  },
);

export const RequestStatus = Type.Union(
  [Type.Literal('processing'), Type.Literal('completed'), Type.Literal('failed')],
  { $id: 'RequestStatus' },
);

export const RequestSummarySchema = Type.Object(
  {
    requestId: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    completedAt: Nullable(Type.String({ format: 'date-time' })),
    channelUrl: Type.String(),
    oldestDate: Nullable(Type.Integer()),
    limit: Nullable(Type.Integer()),
    webhookUrl: Nullable(Type.String()),
    mode: Type.Union([Type.Literal('sync'), Type.Literal('webhook')]),
    status: RequestStatus,
    itemCount: Nullable(Type.Integer()),
    creditsCharged: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    options: opt(
      Type.Object(
        {
          sort: opt(Sort),
          minDurationSeconds: opt(Type.Integer()),
          maxDurationSeconds: opt(Type.Integer()),
          maxCredits: opt(Type.Integer()),
          include: opt(Include),
        },
        { description: 'Sort and duration filters, the spending cap and include, when the request asked for any.' },
      ),
    ),
    batchId: opt(Type.String({ description: 'The batch this request belongs to.' })),
    via: Type.Union([Type.Literal('api'), Type.Literal('mcp')], {
      description: 'The door the call came through: the REST API, or a tool of the MCP server (/mcp).',
    }),
  },
  {
    $id: 'RequestSummary',
    description: 'One shorts request as recorded.',
    examples: [
      {
        requestId: EXAMPLE_REQUEST_ID,
        createdAt: EXAMPLE_TIME,
        completedAt: '2026-06-01T12:00:01.200Z',
        channelUrl: 'https://www.youtube.com/@demo',
        oldestDate: null,
        limit: null,
        webhookUrl: null,
        mode: 'sync',
        status: 'completed',
        itemCount: 120,
        creditsCharged: 3,
        error: null,
        via: 'api',
      },
    ],
  },
);
export type RequestSummary = Static<typeof RequestSummarySchema>;

export const DeliveryAttemptSchema = Type.Object(
  {
    id: Type.Integer(),
    attempt: Type.Integer({ description: '1 for the first delivery; manual redeliveries continue the count.' }),
    webhookId: Type.String(),
    startedAt: Type.String({ format: 'date-time' }),
    statusCode: Nullable(Type.Integer({ description: "The receiver's HTTP status; null when no answer came." })),
    latencyMs: Nullable(Type.Integer()),
    outcome: Type.Union([Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('gone')], {
      description: 'gone: the receiver answered 410, no more retries.',
    }),
    error: Nullable(Type.String()),
    // what the attempt sent and got back (null on attempts recorded before these were kept).
    requestHeaders: Nullable(
      Type.Record(Type.String(), Type.String(), { description: 'The headers sent, signature included.' }),
    ),
    responseExcerpt: Nullable(Type.String({ description: "The first 1 KiB of the receiver's answer." })),
    nextAttemptAt: Nullable(
      Type.String({
        format: 'date-time',
        description: 'When the retry after this failed attempt is due; null when none was scheduled.',
      }),
    ),
  },
  {
    $id: 'DeliveryAttempt',
    description: 'One attempt to deliver a webhook.',
    examples: [
      {
        id: 41,
        attempt: 1,
        webhookId: `msg_${EXAMPLE_REQUEST_ID}`,
        startedAt: '2026-06-01T12:00:01.300Z',
        statusCode: 200,
        latencyMs: 84,
        outcome: 'delivered',
        error: null,
        requestHeaders: {
          'content-type': 'application/json',
          'webhook-id': `msg_${EXAMPLE_REQUEST_ID}`,
          'webhook-timestamp': '1780315201',
          'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
        },
        responseExcerpt: 'ok',
        nextAttemptAt: null,
      },
    ],
  },
);
export type DeliveryAttempt = Static<typeof DeliveryAttemptSchema>;

export const RequestDetailSchema = Type.Object(
  {
    ...RequestSummarySchema.properties,
    result: Type.Unknown({
      description: 'Webhook requests: the delivered body. Synchronous requests: a summary (results are not retained).',
    }),
    deliveries: Type.Array(DeliveryAttemptSchema),
  },
  {
    $id: 'RequestDetail',
    description: 'One shorts request with its result and webhook delivery attempts.',
    examples: [
      {
        requestId: EXAMPLE_REQUEST_ID,
        createdAt: EXAMPLE_TIME,
        completedAt: '2026-06-01T12:00:01.200Z',
        channelUrl: 'https://www.youtube.com/@demo',
        oldestDate: null,
        limit: null,
        webhookUrl: 'https://example.com/hooks/shorts',
        mode: 'webhook',
        status: 'completed',
        itemCount: 120,
        creditsCharged: 3,
        error: null,
        via: 'api',
        result: { itemCount: 120, creditsCharged: 3 },
        deliveries: [
          {
            id: 41,
            attempt: 1,
            webhookId: `msg_${EXAMPLE_REQUEST_ID}`,
            startedAt: '2026-06-01T12:00:01.300Z',
            statusCode: 200,
            latencyMs: 84,
            outcome: 'delivered',
            error: null,
            requestHeaders: {
              'content-type': 'application/json',
              'webhook-id': `msg_${EXAMPLE_REQUEST_ID}`,
              'webhook-timestamp': '1780315201',
              'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
            },
            responseExcerpt: 'ok',
            nextAttemptAt: null,
          },
        ],
      },
    ],
  },
);
export type RequestDetail = Static<typeof RequestDetailSchema>;

export const RedeliveryQueuedSchema = Type.Object(
  {
    requestId: Type.String(),
    status: Type.Literal('queued'),
    attempt: Type.Integer({ description: 'The number the queued attempt will have.' }),
  },
  {
    $id: 'RedeliveryQueued',
    description: 'A redelivery was queued.',
    examples: [{ requestId: EXAMPLE_REQUEST_ID, status: 'queued', attempt: 2 }],
  },
);
