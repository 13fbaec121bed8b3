// Statistics over time: a Short's series, a channel's movers. Thin: the use cases are in
// domain/stats/.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getVideoStats, videoStatsRoute } from './stats/video-stats.ts';
import { channelStatsRoute, getChannelStats } from './stats/channel-stats.ts';

export const statsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({ ...videoStatsRoute, handler: getVideoStats });
  app.route({ ...channelStatsRoute, handler: getChannelStats });
};
