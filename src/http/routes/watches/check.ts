// POST /api/youtube/watches/:watchId/check: one check queued now, priced like a scheduled one.
import { AppError } from '../../../errors.ts';
import { ownWatch } from '../../../domain/watches/watches.ts';
import { newCheckId } from '../../../domain/watches/watch-store.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { failureResponse as failure, json } from '../../schemas/common.ts';
import { WatchCheckQueuedSchema, WatchParams } from '../../schemas/watches.ts';
import type { ReplyOf, RequestOf } from '../../types.ts';
import { commonErrors, malformedId, noSuchWatch } from './common.ts';

export const checkWatchRoute = {
  method: 'POST',
  url: '/api/youtube/watches/:watchId/check',
  config: { auth: true, scope: 'shorts:write', rateLimited: true, failureBody: true, idempotent: true },
  schema: {
    tags: ['watches'],
    summary: 'Check a watch now (priced like any check); the schedule is unchanged.',
    security: [{ bearer: [] }],
    params: WatchParams,
    response: {
      202: json("The check is queued; it appears in the watch's checks once it has run.", WatchCheckQueuedSchema),
      400: malformedId,
      404: noSuchWatch,
      409: failure('The watch is paused.', ['CONFLICT']),
      429: failure('Rate limit exceeded.', ['RATE_LIMITED']),
      ...commonErrors,
    },
  },
} as const;

export async function checkWatch(
  request: RequestOf<typeof checkWatchRoute.schema>,
  reply: ReplyOf<typeof checkWatchRoute.schema>,
) {
  const { watches } = request.server.services;
  const row = await ownWatch(watches, callerOf(request).accountId, request.params.watchId);
  if (row.status !== 'active') {
    throw new AppError('CONFLICT', 'This watch is paused; resume it (PATCH status active) to check it.');
  }
  const checkId = newCheckId(watches.now());
  await watches.db.transaction((tx) => watches.enqueueCheck(tx, { watchId: row.id, checkId, trigger: 'manual' }));
  watches.wakeChecks?.();
  reply.code(202);
  return { watchId: row.id, checkId, status: 'queued' as const };
}
