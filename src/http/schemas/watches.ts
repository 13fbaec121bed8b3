// Schemas of the watch routes (#15): /api/youtube/watches.
import { Type, type Static } from 'typebox';
import { Nullable } from './common.ts';

const opt = Type.Optional;
const WatchStatus = Type.Union([Type.Literal('active'), Type.Literal('paused')]);

export const CreateWatchBody = Type.Object(
  {
    channelUrl: Type.String({ format: 'uri', maxLength: 2048, description: 'Channel address in any form accepted by POST /api/youtube/shorts.' }),
    webhookUrl: Type.String({ format: 'uri', maxLength: 2048, description: 'Receives shorts.created (new shorts), watch.paused and watch.resumed events, signed per Standard Webhooks.' }),
    intervalSeconds: opt(Type.Integer({ minimum: 1, description: 'Seconds between scheduled checks; at least WATCH_MIN_INTERVAL_SECONDS (default 900, also the default interval).' })),
  },
  { additionalProperties: false, $id: 'CreateWatch', examples: [{ channelUrl: 'https://www.youtube.com/@demo', webhookUrl: 'https://example.com/hooks/shorts', intervalSeconds: 900 }] },
);
export type CreateWatchBody = Static<typeof CreateWatchBody>;

export const UpdateWatchBody = Type.Object(
  {
    webhookUrl: opt(Type.String({ format: 'uri', maxLength: 2048 })),
    intervalSeconds: opt(Type.Integer({ minimum: 1, description: 'At least WATCH_MIN_INTERVAL_SECONDS.' })),
    status: opt(Type.Union([Type.Literal('active'), Type.Literal('paused')], { description: 'paused: no checks until set to active again (then checked at once).' })),
  },
  { additionalProperties: false, $id: 'UpdateWatch', description: 'The fields to change; an empty body changes nothing.' },
);

export const WatchSchema = Type.Object(
  {
    id: Type.String({ description: 'wch_…' }),
    channelUrl: Type.String({ description: 'The address as given.' }),
    channel: Type.Object({ id: Type.String(), title: Type.String(), customUrl: Nullable(Type.String()) }),
    webhookUrl: Type.String(),
    intervalSeconds: Type.Integer(),
    status: WatchStatus,
    pausedReason: Nullable(Type.Union([Type.Literal('user'), Type.Literal('credits')], { description: 'credits: the account could not pay for a check; the watch resumes when it can.' })),
    nextCheckAt: Nullable(Type.String({ format: 'date-time', description: 'When the next scheduled check is due; null while paused.' })),
    lastCheckAt: Nullable(Type.String({ format: 'date-time' })),
    lastSeenShort: Nullable(Type.Object({ id: Type.String(), shortUrl: Type.String(), publishedAt: Nullable(Type.String({ format: 'date-time' })) }, { description: 'The newest short the last check listed.' })),
    stats: Type.Object({
      checks: Type.Integer(),
      unitsSpent: Type.Integer({ description: 'Data API units spent by this watch\'s checks.' }),
      shortsReported: Type.Integer(),
      prepaidUnits: Type.Integer({ description: 'Units already paid for (1 credit buys QUOTA_UNITS_PER_CREDIT units).' }),
    }),
    lastError: Nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Watch' },
);

export const WatchListSchema = Type.Object({ watches: Type.Array(WatchSchema) }, { $id: 'WatchList' });

export const WatchCheckSchema = Type.Object(
  {
    id: Type.String(),
    trigger: Type.Union([Type.Literal('create'), Type.Literal('schedule'), Type.Literal('push'), Type.Literal('manual')]),
    units: Type.Integer(),
    newShorts: Type.Integer(),
    creditsCharged: Type.Integer(),
    outcome: Type.Union([Type.Literal('ok'), Type.Literal('failed'), Type.Literal('paused')]),
    error: Nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'WatchCheck' },
);

export const WatchEventSchema = Type.Object(
  {
    id: Type.String({ description: 'evt_…; the webhook-id is msg_<id>.' }),
    type: Type.String({ description: 'shorts.created, watch.paused or watch.resumed.' }),
    createdAt: Type.String({ format: 'date-time' }),
    data: Type.Unknown({ description: 'The event\'s data, as delivered.' }),
    delivery: Type.Object({ attempts: Type.Integer(), outcome: Nullable(Type.String()), statusCode: Nullable(Type.Integer()) }),
  },
  { $id: 'WatchEvent' },
);

export const WatchDetailSchema = Type.Object(
  {
    watch: WatchSchema,
    checks: Type.Array(WatchCheckSchema, { description: 'The newest checks, newest first.' }),
    events: Type.Array(WatchEventSchema, { description: 'The newest events, newest first.' }),
  },
  { $id: 'WatchDetail' },
);

export const WatchParams = Type.Object({ watchId: Type.String({ pattern: '^wch_[a-z0-9]{1,40}$', description: 'The id of a watch.' }) });
