// GET /api/youtube/videos/:videoId/stats: a Short's stored counts over time and its growth. Reads
// stored snapshots only: no upstream call, no credits.
import { readSeries } from '../../../domain/stats/series.ts';
import { authErrors, FailureBody, failureResponse as failure, json } from '../../schemas/common.ts';
import { VideoStatsParams, VideoStatsQuery, VideoStatsSchema } from '../../schemas/stats.ts';
import type { RequestOf } from '../../types.ts';

export const videoStatsRoute = {
  method: 'GET',
  url: '/api/youtube/videos/:videoId/stats',
  config: { auth: true, scope: 'shorts:read', failureBody: true },
  schema: {
    tags: ['statistics'],
    summary: "A Short's counts over time and its growth (stored snapshots; no credits).",
    description:
      'Every fresh read of a Short from the platform (shorts requests, batches, watch checks, tracked channels) ' +
      'stores a snapshot of its counts, shared by all accounts. This reads them: points oldest first in from..to ' +
      '(default the last 30 days), and growth over the last 24 hours, 7 days and 30 days: the latest point minus ' +
      'the earliest stored point inside the window (`since`), present when the window holds two points or more. ' +
      'Counts in the read rate limit; costs no credits.',
    security: [{ bearer: [] }],
    params: VideoStatsParams,
    querystring: VideoStatsQuery,
    response: {
      200: json("The Short's points and growth.", VideoStatsSchema),
      400: failure('Invalid input: the message names the field.', ['VALIDATION_FAILED']),
      404: failure('Nothing was ever read of this video.', ['VIDEO_NOT_TRACKED']),
      ...authErrors(FailureBody),
    },
  },
} as const;

export async function getVideoStats(request: RequestOf<typeof videoStatsRoute.schema>) {
  const { db, stats, clock } = request.server.services;
  // Snapshots this instance is still writing are part of the answer.
  await stats.snapshots.idle();
  const series = await readSeries(db, request.params.videoId, { ...request.query, now: clock() });
  return { success: true as const, requestId: request.id, ...series };
}
