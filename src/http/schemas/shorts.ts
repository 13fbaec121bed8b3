// Response resources of POST /api/youtube/shorts, field for field as the spec's tables.
// Absent upstream values: a field the platform did not send is omitted, never null.
// Each exported schema has an $id: it becomes a named component of the OpenAPI document (the typed
// client's types are generated from it, clients/typescript).
import { Type } from 'typebox';
import { FailureBody, Nullable } from './common.ts';

const opt = Type.Optional;
const Thumbnail = Type.Object({ url: Type.String(), width: opt(Type.Integer()), height: opt(Type.Integer()) });
const Thumbnails = Type.Object({ default: opt(Thumbnail), medium: opt(Thumbnail), high: opt(Thumbnail), standard: opt(Thumbnail), maxres: opt(Thumbnail) });
const Localized = Type.Object({ title: opt(Type.String()), description: opt(Type.String()) });

const Etag = opt(Type.String({ description: 'The platform\'s ETag; absent in keyless (InnerTube) mode.' }));

export const Sort = Type.Enum(['newest', 'oldest', 'popular'], { description: 'newest (default) | oldest | popular (exact viewCount, ties newest first). oldest and popular read the whole window (up to MAX_SHORTS_PER_REQUEST) and are priced by what was read; limit applies after sorting.' });

/** sort and the duration filters (#14), shared by single requests and batch items. */
export function ShortsOptions() {
  return {
    sort: opt(Sort),
    minDurationSeconds: opt(Type.Integer({ minimum: 0, description: 'Only shorts at least this long (seconds, inclusive). Shorts without a known duration are left out. Filters apply after details are read: they never lower the price of the work read.' })),
    maxDurationSeconds: opt(Type.Integer({ minimum: 0, description: 'Only shorts at most this long (seconds, inclusive); not below minDurationSeconds.' })),
  };
}

export const ChannelSchema = Type.Object({
  kind: Type.String(),
  etag: Etag,
  id: Type.String(),
  snippet: Type.Object({
    title: opt(Type.String()), description: opt(Type.String()), customUrl: opt(Type.String()), publishedAt: opt(Type.String()),
    thumbnails: opt(Thumbnails), defaultLanguage: opt(Type.String()), localized: opt(Localized), country: opt(Type.String()),
  }),
  statistics: Type.Object({
    viewCount: opt(Type.String()), subscriberCount: opt(Type.String()), hiddenSubscriberCount: opt(Type.Boolean()), videoCount: opt(Type.String()),
  }),
  brandingSettings: Type.Object({
    channel: Type.Object({
      title: opt(Type.String()), description: opt(Type.String()), keywords: opt(Type.String()), trackingAnalyticsAccountId: opt(Type.String()),
      moderateComments: opt(Type.Boolean()), unsubscribedTrailer: opt(Type.String()), defaultLanguage: opt(Type.String()), country: opt(Type.String()),
    }),
    image: Type.Object({ bannerExternalUrl: opt(Type.String()) }),
  }),
}, { $id: 'Channel' });

export const ShortSchema = Type.Object({
  kind: Type.String(),
  etag: Etag,
  id: Type.String(),
  snippet: Type.Object({
    publishedAt: opt(Type.String()), channelId: opt(Type.String()), title: opt(Type.String()), description: opt(Type.String()),
    thumbnails: opt(Thumbnails), channelTitle: opt(Type.String()),
    channelHandle: opt(Type.String({ description: 'The channel\'s handle, e.g. "@name" (from the channel\'s customUrl).' })),
    channelCustomUrl: opt(Type.String({ description: 'The channel\'s address built from its customUrl, e.g. https://www.youtube.com/@name.' })),
    tags: opt(Type.Array(Type.String())), categoryId: opt(Type.String()), liveBroadcastContent: opt(Type.String()),
    defaultLanguage: opt(Type.String()), localized: opt(Localized), defaultAudioLanguage: opt(Type.String()),
  }),
  statistics: Type.Object({
    viewCount: opt(Type.String()), likeCount: opt(Type.String()), dislikeCount: opt(Type.String()), favoriteCount: opt(Type.String()), commentCount: opt(Type.String()),
  }),
  contentDetails: opt(Type.Object({
    duration: Type.String({ description: 'The video\'s duration as the platform gives it (ISO 8601, e.g. PT58S, PT1M5S, P0D).', examples: ['PT58S'] }),
  }, { description: 'Absent when the platform sends no duration.' })),
  shortUrl: Type.String({ description: 'https://www.youtube.com/shorts/{id}' }),
  durationSeconds: opt(Type.Integer({ minimum: 0, description: 'contentDetails.duration in seconds (Shorts run up to 180 s since 2024-10-15); absent when the platform sends no duration.', examples: [58] })),
}, { $id: 'Short' });

export const SuccessBodySchema = Type.Object({
  success: Type.Literal(true),
  requestId: Type.String(),
  data: Type.Object({ channel: ChannelSchema, shorts: Type.Array(ShortSchema, { description: 'In the order asked for by sort (default newest first).' }) }),
  itemCount: Type.Integer(),
  creditsCharged: Type.Integer(),
  truncated: Type.Boolean({ description: 'True when more matching shorts exist than were returned: beyond MAX_SHORTS_PER_REQUEST, or beyond what the available credits paid to read (message says which). The newest are returned. A `limit` reached is not truncation.' }),
  fetchedAt: Type.String({ format: 'date-time', description: 'When this data was read from the video platform (a cached result keeps its original time).' }),
  stale: Type.Boolean({ description: 'True when the platform quota is spent for today and this is an older copy (see fetchedAt).' }),
  source: Type.Union([Type.Literal('data-api'), Type.Literal('hybrid'), Type.Literal('innertube')], { description: 'data-api: Shorts playlist + videos.list; hybrid: ids from the channel\'s Shorts tab (InnerTube, no quota) + videos.list (exact); innertube: keyless, see approximateFields.' }),
  approximateFields: opt(Type.Array(Type.String(), { description: 'Keyless results only (source "innertube"): fields whose values are parsed from display text ("2.9M views") and so approximate: channel.statistics.subscriberCount, channel.statistics.videoCount, shorts[].statistics.viewCount. Absent in keyless mode: etag, channel snippet.publishedAt/defaultLanguage/country, statistics.viewCount/hiddenSubscriberCount, the other brandingSettings.channel fields, and on shorts categoryId, liveBroadcastContent, defaultLanguage, localized, defaultAudioLanguage, like/dislike/favorite/comment counts; publishedAt, description, tags and duration only for shorts whose player answer was read (the edge of an oldestDate window). Everything else is exact.' })),
  message: opt(Type.String({ description: 'Present when truncated or stale: explains what was left out or how old the data is.' })),
}, { $id: 'ShortsResult' });

export const AcceptedBodySchema = Type.Object({
  success: Type.Literal(true),
  requestId: Type.String(),
  status: Type.Literal('processing'),
  message: Type.String(),
}, { $id: 'ShortsAccepted' });

export const ShortsRequestBody = Type.Object(
  {
    channelUrl: Type.String({ format: 'uri', maxLength: 2048, description: 'Channel address: /@handle, /channel/UC…, /user/name, /c/name or /name on youtube.com (www., m., music.).' }),
    oldestDate: opt(Type.Integer({ minimum: 0, maximum: 8640000000000000, description: 'Unix time in milliseconds; only shorts published at or after it are returned.' })),
    limit: opt(Type.Integer({ minimum: 1, description: 'At most this many shorts, applied after sort and duration filters. With sort=newest and no duration filter reading stops as soon as they are listed: fewer upstream calls, fewer credits.' })),
    freshness: opt(Type.Union([Type.Literal('stale-ok'), Type.Literal('exact')], { description: 'When every Data API key is spent for the day. stale-ok (default): an earlier exact copy (stale:true) if one exists, else current keyless data with approximate counts (source:"innertube", approximateFields listed). exact: an earlier exact copy if one exists, else 503; never approximate values.' })),
    ...ShortsOptions(),
    webhookUrl: opt(Type.String({ format: 'uri', maxLength: 2048, description: 'When present, answer 202 at once and POST the result here later (Standard Webhooks signed).' })),
    store: opt(Type.Boolean({ description: 'Synchronous requests: keep the whole result for GET /api/youtube/shorts/{requestId}/items (paged) for RESULT_RETENTION_DAYS. Webhook requests are always kept.' })),
  },
  { additionalProperties: false, $id: 'ShortsRequest', examples: [{ channelUrl: 'https://www.youtube.com/@demo', sort: 'popular', limit: 10, maxDurationSeconds: 60 }] },
);

export const WebhookPayloadSchema = Type.Object({
  type: Type.Union([Type.Literal('shorts.completed'), Type.Literal('shorts.failed')]),
  timestamp: Type.String({ format: 'date-time' }),
  data: Type.Union([SuccessBodySchema, FailureBody]),
}, { $id: 'ShortsWebhookPayload' });

const RequestStatus = Type.Union([Type.Literal('processing'), Type.Literal('completed'), Type.Literal('failed')]);

export const RequestSummarySchema = Type.Object({
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
  options: opt(Type.Object({ sort: opt(Sort), minDurationSeconds: opt(Type.Integer()), maxDurationSeconds: opt(Type.Integer()) }, { description: 'Sort and duration filters, when the request asked for any.' })),
  batchId: opt(Type.String({ description: 'The batch this request belongs to.' })),
}, { $id: 'RequestSummary' });

export const DeliveryAttemptSchema = Type.Object({
  id: Type.Integer(),
  attempt: Type.Integer(),
  webhookId: Type.String(),
  startedAt: Type.String({ format: 'date-time' }),
  statusCode: Nullable(Type.Integer()),
  latencyMs: Nullable(Type.Integer()),
  outcome: Type.Union([Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('gone')]),
  error: Nullable(Type.String()),
  // #16.3: what the attempt sent and got back (null on attempts recorded before these were kept).
  requestHeaders: Nullable(Type.Record(Type.String(), Type.String(), { description: 'The headers sent, signature included.' })),
  responseExcerpt: Nullable(Type.String({ description: 'The first 1 KiB of the receiver\'s answer.' })),
  nextAttemptAt: Nullable(Type.String({ format: 'date-time', description: 'When the retry after this failed attempt is due; null when none was scheduled.' })),
}, { $id: 'DeliveryAttempt' });

export const RequestDetailSchema = Type.Object({
  ...RequestSummarySchema.properties,
  result: Type.Unknown({ description: 'Webhook requests: the delivered body. Synchronous requests: a summary (results are not retained).' }),
  deliveries: Type.Array(DeliveryAttemptSchema),
}, { $id: 'RequestDetail' });
