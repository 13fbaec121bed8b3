// Statistics over time: a Short's stored snapshots (its series) and growth, a channel's movers and
// its own counts over time. Counts here are JSON integers (the Short resource carries the
// platform's decimal strings); a count the platform did not send is omitted.
import { Type, type Static } from 'typebox';
import { EXAMPLE_REQUEST_ID, EXAMPLE_TIME } from './common.ts';

const opt = Type.Optional;
const EXAMPLE_VIDEO_ID = 'dQw4w9WgXcQ';
const EXAMPLE_CHANNEL_ID = 'UCuAXFkgsw1L7xaCfnd5JJOw';

export const StatsPointSchema = Type.Object(
  {
    at: Type.String({ format: 'date-time', description: 'When the counts were read from the platform.' }),
    viewCount: Type.Integer({ minimum: 0 }),
    likeCount: opt(Type.Integer({ minimum: 0 })),
    commentCount: opt(Type.Integer({ minimum: 0 })),
    exact: Type.Boolean({
      description: 'False for counts parsed from display text ("2.9M views", keyless reads): approximate.',
    }),
  },
  {
    $id: 'StatsPoint',
    description: "One snapshot of a Short's public counts.",
    examples: [{ at: EXAMPLE_TIME, viewCount: 48211, likeCount: 3120, commentCount: 87, exact: true }],
  },
);
export type StatsPoint = Static<typeof StatsPointSchema>;

export const GrowthSchema = Type.Object(
  {
    viewsGained: Type.Integer(),
    likesGained: opt(Type.Integer()),
    commentsGained: opt(Type.Integer()),
    since: Type.String({
      format: 'date-time',
      description:
        'The earliest stored point inside the window, which the gains are counted from: how much of the window ' +
        'the stored history covers.',
    }),
  },
  {
    // No $id: the three windows embed it, and a validator resolving the same $id three times in one
    // schema (the MCP server's) refuses it as ambiguous.
    description:
      'The latest point minus the earliest stored point inside the window. Never extrapolated: a window with ' +
      'fewer than two points has no growth.',
    examples: [{ viewsGained: 5120, likesGained: 210, commentsGained: 4, since: '2026-05-31T12:10:00.000Z' }],
  },
);
export type Growth = Static<typeof GrowthSchema>;

export const ShortGrowthSchema = Type.Object(
  { last24h: opt(GrowthSchema), last7d: opt(GrowthSchema), last30d: opt(GrowthSchema) },
  {
    $id: 'ShortGrowth',
    description: 'Growth over the last 24 hours, 7 days and 30 days; a window is absent where history is too short.',
    examples: [
      { last24h: { viewsGained: 5120, likesGained: 210, commentsGained: 4, since: '2026-05-31T12:10:00.000Z' } },
    ],
  },
);
export type ShortGrowth = Static<typeof ShortGrowthSchema>;

export const VideoStatsSchema = Type.Object(
  {
    success: Type.Literal(true),
    requestId: Type.String(),
    videoId: Type.String(),
    channelId: Type.String(),
    points: Type.Array(StatsPointSchema, {
      description: 'Oldest first, inside from..to (at most the newest 10,000 of them).',
    }),
    growth: ShortGrowthSchema,
  },
  {
    $id: 'VideoStats',
    description: "A Short's stored counts over time and its growth.",
    examples: [
      {
        success: true,
        requestId: EXAMPLE_REQUEST_ID,
        videoId: EXAMPLE_VIDEO_ID,
        channelId: EXAMPLE_CHANNEL_ID,
        points: [
          { at: '2026-05-31T12:10:00.000Z', viewCount: 43091, likeCount: 2910, commentCount: 83, exact: true },
          { at: EXAMPLE_TIME, viewCount: 48211, likeCount: 3120, commentCount: 87, exact: true },
        ],
        growth: {
          last24h: { viewsGained: 5120, likesGained: 210, commentsGained: 4, since: '2026-05-31T12:10:00.000Z' },
        },
      },
    ],
  },
);
export type VideoStats = Static<typeof VideoStatsSchema>;

export const StatsWindow = Type.Union([Type.Literal('24h'), Type.Literal('7d'), Type.Literal('30d')], {
  description: 'The window movers are ranked by.',
});
export type StatsWindow = Static<typeof StatsWindow>;

export const MoverSchema = Type.Object(
  {
    videoId: Type.String(),
    publishedAt: opt(Type.String({ format: 'date-time' })),
    last: StatsPointSchema,
    growth: ShortGrowthSchema,
  },
  {
    $id: 'Mover',
    description: "One of a channel's Shorts with stored history: its last counts and its growth.",
    examples: [
      {
        videoId: EXAMPLE_VIDEO_ID,
        publishedAt: '2026-05-30T18:00:00.000Z',
        last: { at: EXAMPLE_TIME, viewCount: 48211, likeCount: 3120, commentCount: 87, exact: true },
        growth: { last24h: { viewsGained: 5120, since: '2026-05-31T12:10:00.000Z' } },
      },
    ],
  },
);
export type Mover = Static<typeof MoverSchema>;

export const ChannelPointSchema = Type.Object(
  {
    at: Type.String({ format: 'date-time' }),
    subscriberCount: opt(Type.Integer({ minimum: 0 })),
    viewCount: opt(Type.Integer({ minimum: 0 })),
    videoCount: opt(Type.Integer({ minimum: 0 })),
    exact: Type.Boolean({ description: 'False for counts parsed from display text (keyless reads).' }),
  },
  {
    $id: 'ChannelStatsPoint',
    description: "One snapshot of a channel's own counts.",
    examples: [{ at: EXAMPLE_TIME, subscriberCount: 12400, viewCount: 1843000, videoCount: 140, exact: true }],
  },
);
export type ChannelStatsPoint = Static<typeof ChannelPointSchema>;

export const ChannelStatsSchema = Type.Object(
  {
    success: Type.Literal(true),
    requestId: Type.String(),
    channelId: Type.String(),
    window: StatsWindow,
    movers: Type.Array(MoverSchema, {
      description:
        'Ordered by views gained in the window, most first; Shorts without growth in the window follow, by ' +
        'their last view count.',
    }),
    channel: Type.Object(
      { points: Type.Array(ChannelPointSchema, { description: 'Oldest first, inside the window.' }) },
      { description: "The channel's own counts over the window." },
    ),
  },
  {
    $id: 'ChannelStats',
    description: "A channel's Shorts with stored history ranked by growth, and its own counts over time.",
    examples: [
      {
        success: true,
        requestId: EXAMPLE_REQUEST_ID,
        channelId: EXAMPLE_CHANNEL_ID,
        window: '24h',
        movers: [
          {
            videoId: EXAMPLE_VIDEO_ID,
            publishedAt: '2026-05-30T18:00:00.000Z',
            last: { at: EXAMPLE_TIME, viewCount: 48211, likeCount: 3120, commentCount: 87, exact: true },
            growth: { last24h: { viewsGained: 5120, since: '2026-05-31T12:10:00.000Z' } },
          },
        ],
        channel: {
          points: [{ at: EXAMPLE_TIME, subscriberCount: 12400, viewCount: 1843000, videoCount: 140, exact: true }],
        },
      },
    ],
  },
);
export type ChannelStats = Static<typeof ChannelStatsSchema>;
