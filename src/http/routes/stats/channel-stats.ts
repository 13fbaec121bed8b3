// GET /api/youtube/channels/:channelId/stats: a channel's movers and its own counts over a window.
// Reads stored snapshots only: no upstream call, no credits.
import { readMovers } from '../../../domain/stats/movers.ts';
import { authErrors, FailureBody, failureResponse as failure, json } from '../../schemas/common.ts';
import { ChannelStatsParams, ChannelStatsQuery, ChannelStatsSchema } from '../../schemas/stats.ts';
import type { RequestOf } from '../../types.ts';

export const channelStatsRoute = {
  method: 'GET',
  url: '/api/youtube/channels/:channelId/stats',
  config: { auth: true, scope: 'shorts:read', failureBody: true },
  schema: {
    tags: ['statistics'],
    summary: "A channel's Shorts ranked by views gained in a window, and its own counts over time.",
    description:
      "The channel's Shorts with stored history (read by any account's requests, watch checks or tracking), " +
      'ordered by views gained in the window (24h, 7d or 30d), each with its last counts and growth; and the ' +
      "channel's subscriber and view counts over the window. Empty lists for a channel nothing was read of. " +
      'Counts in the read rate limit; costs no credits.',
    security: [{ bearer: [] }],
    params: ChannelStatsParams,
    querystring: ChannelStatsQuery,
    response: {
      200: json("The channel's movers and counts.", ChannelStatsSchema),
      400: failure('Invalid input: the message names the field.', ['VALIDATION_FAILED']),
      ...authErrors(FailureBody),
    },
  },
} as const;

export async function getChannelStats(request: RequestOf<typeof channelStatsRoute.schema>) {
  const { db, stats, clock } = request.server.services;
  await stats.snapshots.idle();
  const movers = await readMovers(db, request.params.channelId, { ...request.query, now: clock() });
  return { success: true as const, requestId: request.id, ...movers };
}
