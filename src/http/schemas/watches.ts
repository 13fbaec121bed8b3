// Request schemas of the watch routes: /api/youtube/watches. The response shapes live in
// src/contract/watches.ts (re-exported here for the routes).
import { Type, type Static } from 'typebox';
import { MAX_WATCH_INTERVAL_SECONDS } from '../../domain/watches/watches.ts';
import { ChannelUrl } from './shorts.ts';

export { WatchCheckQueuedSchema, WatchDetailSchema, WatchListSchema, WatchSchema } from '../../contract/watches.ts';
import { GrowthAlert, TrackStats } from '../../contract/watches.ts';
import { Nullable } from '../../contract/common.ts';

const opt = Type.Optional;

export const CreateWatchBody = Type.Object(
  {
    channelUrl: ChannelUrl('Channel address, in any form POST /api/youtube/shorts accepts.'),
    webhookUrl: Type.String({
      format: 'uri',
      maxLength: 2048,
      description:
        'Receives shorts.created (new shorts), watch.paused and watch.resumed events, signed per Standard Webhooks.',
    }),
    intervalSeconds: opt(
      Type.Integer({
        minimum: 1,
        maximum: MAX_WATCH_INTERVAL_SECONDS,
        description:
          'Seconds between scheduled checks; at least WATCH_MIN_INTERVAL_SECONDS (default 900, also the ' +
          'default interval), at most 30 days.',
      }),
    ),
    trackStats: opt(TrackStats),
    alert: opt(GrowthAlert),
  },
  {
    additionalProperties: false,
    $id: 'CreateWatch',
    examples: [
      {
        channelUrl: 'https://www.youtube.com/@demo',
        webhookUrl: 'https://example.com/hooks/shorts',
        intervalSeconds: 900,
      },
    ],
  },
);
export type CreateWatchBody = Static<typeof CreateWatchBody>;

export const UpdateWatchBody = Type.Object(
  {
    webhookUrl: opt(Type.String({ format: 'uri', maxLength: 2048 })),
    intervalSeconds: opt(
      Type.Integer({
        minimum: 1,
        maximum: MAX_WATCH_INTERVAL_SECONDS,
        description: 'At least WATCH_MIN_INTERVAL_SECONDS, at most 30 days.',
      }),
    ),
    status: opt(
      Type.Union([Type.Literal('active'), Type.Literal('paused')], {
        description: 'paused: no checks until set to active again (then checked at once).',
      }),
    ),
    trackStats: opt(Nullable(TrackStats)),
    alert: opt(Nullable(GrowthAlert)),
  },
  {
    additionalProperties: false,
    $id: 'UpdateWatch',
    description: 'The fields to change; an empty body changes nothing.',
  },
);

export const WatchParams = Type.Object({
  watchId: Type.String({ pattern: '^wch_[a-z0-9]{1,40}$', description: 'The id of a watch.' }),
});
