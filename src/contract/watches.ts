// The shapes of the watches: a watch, its checks and events, and the bodies of the three
// webhooks a watch sends (shorts.created, watch.paused, watch.resumed). See docs/watches.md.
import { Type, type Static } from 'typebox';
import { EXAMPLE_TIME, Nullable } from './common.ts';
import { EXAMPLE_SHORT, ShortSchema } from './shorts.ts';

export const EXAMPLE_WATCH_ID = 'wch_m1x2y3z4a1b2c3d4e5f6a7b8';
export const EXAMPLE_CHECK_ID = 'wck_m1x2y3z4a1b2c3d4e5f6a7b8c9d0';
export const EXAMPLE_EVENT_ID = 'evt_m1x2y3z4a1b2c3d4e5f6a7b8c9d0';
const exampleChannel = { id: 'UCdemo0000000000000000aa', title: 'Demo Channel' };

const WatchStatus = Type.Union([Type.Literal('active'), Type.Literal('paused')]);
const CheckTrigger = Type.Union(
  [Type.Literal('create'), Type.Literal('schedule'), Type.Literal('push'), Type.Literal('manual')],
  {
    description:
      'create: the baseline made when the watch was created (reports nothing); schedule; push: a WebSub ' +
      'notification; manual: POST …/check.',
  },
);
/** The channel as events name it. */
const EventChannel = Type.Object({ id: Type.String({ description: 'UC…' }), title: Type.String() });

export const TrackStats = Type.Object(
  {
    days: Type.Integer({
      minimum: 1,
      maximum: 90,
      description:
        "Each check also refreshes the counts of the channel's Shorts published within this many days (videos.list, " +
        '1 unit per 50 Shorts, paid like the rest of the check; GET /api/pricing).',
    }),
  },
  { additionalProperties: false, description: 'Statistics tracking: growth history for the recent Shorts.' },
);
export const GrowthAlert = Type.Object(
  {
    viewsGained: Type.Integer({ minimum: 1, description: 'Views a Short must gain…' }),
    withinHours: Type.Integer({ minimum: 1, maximum: 720, description: '…within this many hours.' }),
  },
  {
    additionalProperties: false,
    description:
      'Sends a signed shorts.growth event when a tracked Short gains at least viewsGained views within ' +
      'withinHours (from stored snapshots; once per Short per withinHours). Needs trackStats.',
  },
);

const EXAMPLE_WATCH = {
  id: EXAMPLE_WATCH_ID,
  channelUrl: 'https://www.youtube.com/@demo',
  channel: { ...exampleChannel, customUrl: '@demo' },
  webhookUrl: 'https://example.com/hooks/shorts',
  intervalSeconds: 900,
  status: 'active',
  pausedReason: null,
  nextCheckAt: '2026-06-01T12:15:00.000Z',
  lastCheckAt: EXAMPLE_TIME,
  lastSeenShort: {
    id: EXAMPLE_SHORT.id,
    shortUrl: EXAMPLE_SHORT.shortUrl,
    publishedAt: EXAMPLE_SHORT.snippet.publishedAt,
  },
  stats: { checks: 12, unitsSpent: 13, shortsReported: 1, prepaidUnits: 87 },
  trackStats: { days: 7 },
  alert: { viewsGained: 10000, withinHours: 24 },
  lastError: null,
  createdAt: '2026-05-31T09:00:00.000Z',
};

export const WatchSchema = Type.Object(
  {
    id: Type.String({ description: 'wch_…' }),
    channelUrl: Type.String({ description: 'The address as given.' }),
    channel: Type.Object({ id: Type.String(), title: Type.String(), customUrl: Nullable(Type.String()) }),
    webhookUrl: Type.String(),
    intervalSeconds: Type.Integer(),
    status: WatchStatus,
    pausedReason: Nullable(
      Type.Union([Type.Literal('user'), Type.Literal('credits'), Type.Literal('channel')], {
        description:
          'credits: the account could not pay for a check; the watch resumes when it can. channel: checks in a ' +
          'row found the channel gone (closed, suspended, deleted); PATCH status active resumes it.',
      }),
    ),
    nextCheckAt: Nullable(
      Type.String({ format: 'date-time', description: 'When the next scheduled check is due; null while paused.' }),
    ),
    lastCheckAt: Nullable(Type.String({ format: 'date-time' })),
    lastSeenShort: Nullable(
      Type.Object(
        { id: Type.String(), shortUrl: Type.String(), publishedAt: Nullable(Type.String({ format: 'date-time' })) },
        { description: 'The newest short the last check listed.' },
      ),
    ),
    stats: Type.Object({
      checks: Type.Integer(),
      unitsSpent: Type.Integer({ description: "Data API units spent by this watch's checks." }),
      shortsReported: Type.Integer(),
      prepaidUnits: Type.Integer({
        description: 'Units already paid for (1 credit buys QUOTA_UNITS_PER_CREDIT units).',
      }),
    }),
    trackStats: Nullable(TrackStats),
    alert: Nullable(GrowthAlert),
    lastError: Nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
  },
  {
    $id: 'Watch',
    description: 'A channel checked on a schedule (and on WebSub pushes) for new Shorts, reported to webhookUrl.',
    examples: [EXAMPLE_WATCH],
  },
);
export type Watch = Static<typeof WatchSchema>;

export const WatchListSchema = Type.Object(
  { watches: Type.Array(WatchSchema) },
  { $id: 'WatchList', description: "The caller's watches, oldest first.", examples: [{ watches: [EXAMPLE_WATCH] }] },
);
export type WatchList = Static<typeof WatchListSchema>;

const EXAMPLE_CHECK = {
  id: EXAMPLE_CHECK_ID,
  trigger: 'schedule',
  units: 2,
  newShorts: 1,
  creditsCharged: 1,
  outcome: 'ok',
  error: null,
  createdAt: EXAMPLE_TIME,
};

export const WatchCheckSchema = Type.Object(
  {
    id: Type.String({ description: 'wck_…' }),
    trigger: CheckTrigger,
    units: Type.Integer({ description: 'Data API units the check spent.' }),
    newShorts: Type.Integer({ description: 'Shorts it reported (one shorts.created event).' }),
    creditsCharged: Type.Integer(),
    outcome: Type.Union([Type.Literal('ok'), Type.Literal('failed'), Type.Literal('paused')]),
    error: Nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'WatchCheck', description: 'One check of a watch.', examples: [EXAMPLE_CHECK] },
);
export type WatchCheck = Static<typeof WatchCheckSchema>;

export const WatchCheckQueuedSchema = Type.Object(
  {
    watchId: Type.String(),
    checkId: Type.String({ description: "The check's id: it appears in the watch's checks once it has run." }),
    status: Type.Literal('queued'),
  },
  {
    $id: 'WatchCheckQueued',
    description: 'A manual check is queued.',
    examples: [{ watchId: EXAMPLE_WATCH_ID, checkId: EXAMPLE_CHECK_ID, status: 'queued' }],
  },
);
export type WatchCheckQueued = Static<typeof WatchCheckQueuedSchema>;

// The webhooks a watch sends. Each is delivered signed (Standard Webhooks) with webhook-id msg_<event id>.
const EXAMPLE_SHORTS_CREATED = {
  type: 'shorts.created',
  timestamp: EXAMPLE_TIME,
  data: { watchId: EXAMPLE_WATCH_ID, checkId: EXAMPLE_CHECK_ID, channel: exampleChannel, shorts: [EXAMPLE_SHORT] },
};
export const ShortsGrowthPayloadSchema = Type.Object(
  {
    type: Type.Literal('shorts.growth'),
    timestamp: Type.String({ format: 'date-time' }),
    data: Type.Object({
      watchId: Type.String(),
      checkId: Type.String({ description: 'The check that read the counts.' }),
      channel: EventChannel,
      videoId: Type.String(),
      shortUrl: Type.String(),
      viewCount: Type.Integer({ description: 'Views now.' }),
      viewsGained: Type.Integer({ description: 'Views gained since `since`.' }),
      since: Type.String({
        format: 'date-time',
        description: 'The earliest stored snapshot inside the alert window, the gain is counted from.',
      }),
      withinHours: Type.Integer({ description: "The alert's window." }),
    }),
  },
  {
    $id: 'ShortsGrowthPayload',
    description: "Body of the shorts.growth webhook: a tracked Short is taking off (the watch's alert).",
    examples: [
      {
        type: 'shorts.growth',
        timestamp: EXAMPLE_TIME,
        data: {
          watchId: EXAMPLE_WATCH_ID,
          checkId: EXAMPLE_CHECK_ID,
          channel: exampleChannel,
          videoId: EXAMPLE_SHORT.id,
          shortUrl: EXAMPLE_SHORT.shortUrl,
          viewCount: 148211,
          viewsGained: 100000,
          since: '2026-05-31T13:00:00.000Z',
          withinHours: 24,
        },
      },
    ],
  },
);
export type ShortsGrowthPayload = Static<typeof ShortsGrowthPayloadSchema>;

const pausedMessage = "Not enough credits for this watch's next check.";

export const ShortsCreatedPayloadSchema = Type.Object(
  {
    type: Type.Literal('shorts.created'),
    timestamp: Type.String({ format: 'date-time' }),
    data: Type.Object({
      watchId: Type.String(),
      checkId: Type.String({ description: 'The check that found them.' }),
      channel: EventChannel,
      shorts: Type.Array(ShortSchema, {
        description: 'The new shorts, oldest first, as POST /api/youtube/shorts shows them.',
      }),
    }),
  },
  {
    $id: 'ShortsCreatedPayload',
    description: 'Body of the shorts.created webhook: new shorts of a watched channel.',
    examples: [EXAMPLE_SHORTS_CREATED],
  },
);
export type ShortsCreatedPayload = Static<typeof ShortsCreatedPayloadSchema>;

export const WatchPausedPayloadSchema = Type.Object(
  {
    type: Type.Literal('watch.paused'),
    timestamp: Type.String({ format: 'date-time' }),
    data: Type.Object({
      watchId: Type.String(),
      channel: EventChannel,
      reason: Type.Union([Type.Literal('credits'), Type.Literal('channel')], {
        description:
          'credits: the account cannot pay for the next check (resumed by itself when it can); channel: YouTube ' +
          'no longer has the channel (resumed by PATCH status active).',
      }),
      message: Type.String(),
    }),
  },
  {
    $id: 'WatchPausedPayload',
    description:
      'Body of the watch.paused webhook: the account could not pay for a check, so the watch is paused until it ' +
      'can; or checks in a row found the channel gone.',
    examples: [
      {
        type: 'watch.paused',
        timestamp: EXAMPLE_TIME,
        data: { watchId: EXAMPLE_WATCH_ID, channel: exampleChannel, reason: 'credits', message: pausedMessage },
      },
    ],
  },
);
export type WatchPausedPayload = Static<typeof WatchPausedPayloadSchema>;

export const WatchResumedPayloadSchema = Type.Object(
  {
    type: Type.Literal('watch.resumed'),
    timestamp: Type.String({ format: 'date-time' }),
    data: Type.Object({ watchId: Type.String(), channel: EventChannel, reason: Type.Literal('credits') }),
  },
  {
    $id: 'WatchResumedPayload',
    description: 'Body of the watch.resumed webhook: a watch paused for credits is checked again.',
    examples: [
      {
        type: 'watch.resumed',
        timestamp: EXAMPLE_TIME,
        data: { watchId: EXAMPLE_WATCH_ID, channel: exampleChannel, reason: 'credits' },
      },
    ],
  },
);
export type WatchResumedPayload = Static<typeof WatchResumedPayloadSchema>;

const EXAMPLE_EVENT = {
  id: EXAMPLE_EVENT_ID,
  type: 'shorts.created',
  createdAt: EXAMPLE_TIME,
  data: EXAMPLE_SHORTS_CREATED.data,
  delivery: { attempts: 1, outcome: 'delivered', statusCode: 200 },
};

export const WatchEventSchema = Type.Object(
  {
    id: Type.String({ description: 'evt_…; the webhook-id is msg_<id>.' }),
    type: Type.String({ description: 'shorts.created, shorts.growth, watch.paused or watch.resumed.' }),
    createdAt: Type.String({ format: 'date-time' }),
    data: Type.Unknown({
      description:
        "The event's data, as delivered: the data of ShortsCreatedPayload, WatchPausedPayload or WatchResumedPayload.",
    }),
    delivery: Type.Object({
      attempts: Type.Integer(),
      outcome: Nullable(
        Type.String({ description: "The last attempt's: delivered, failed or gone; null before the first attempt." }),
      ),
      statusCode: Nullable(Type.Integer()),
    }),
  },
  { $id: 'WatchEvent', description: 'An event of a watch, with the state of its delivery.', examples: [EXAMPLE_EVENT] },
);
export type WatchEvent = Static<typeof WatchEventSchema>;

export const WatchDetailSchema = Type.Object(
  {
    watch: WatchSchema,
    checks: Type.Array(WatchCheckSchema, { description: 'The newest checks, newest first.' }),
    events: Type.Array(WatchEventSchema, { description: 'The newest events, newest first.' }),
  },
  {
    $id: 'WatchDetail',
    description: 'A watch with its latest checks and events.',
    examples: [{ watch: EXAMPLE_WATCH, checks: [EXAMPLE_CHECK], events: [EXAMPLE_EVENT] }],
  },
);
export type WatchDetail = Static<typeof WatchDetailSchema>;
