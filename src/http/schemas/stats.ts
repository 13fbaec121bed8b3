// Request schemas of the statistics routes; the response shapes live in src/contract/stats.ts
// (re-exported here for the routes).
import { Type } from 'typebox';
import { StatsWindow } from '../../contract/stats.ts';

export { ChannelStatsSchema, VideoStatsSchema } from '../../contract/stats.ts';

const opt = Type.Optional;

export const VideoStatsParams = Type.Object({
  videoId: Type.String({
    pattern: '^[A-Za-z0-9_-]{11}$',
    description: "The Short's video id (11 characters).",
    examples: ['dQw4w9WgXcQ'],
  }),
});

export const VideoStatsQuery = Type.Object({
  from: opt(
    Type.String({ format: 'date-time', description: 'Points at or after this time (default: 30 days before to).' }),
  ),
  to: opt(Type.String({ format: 'date-time', description: 'Points at or before this time (default: now).' })),
});

export const ChannelStatsParams = Type.Object({
  channelId: Type.String({
    pattern: '^UC[A-Za-z0-9_-]{22}$',
    description: "The channel's id (UC…).",
    examples: ['UCuAXFkgsw1L7xaCfnd5JJOw'],
  }),
});

export const ChannelStatsQuery = Type.Object({
  window: Type.Union([Type.Literal('24h'), Type.Literal('7d'), Type.Literal('30d')], {
    ...StatsWindow,
    default: '24h',
  }),
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 100, description: 'At most this many movers.' }),
});
