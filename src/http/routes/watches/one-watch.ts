// One watch of the caller's: read it with its latest checks and events, change it, delete it.
import { Type } from 'typebox';
import {
  deleteWatch as deleteOwnWatch,
  ownWatch,
  updateWatch as updateOwnWatch,
} from '../../../domain/watches/watches.ts';
import { listChecks, toWatch } from '../../../domain/watches/watch-store.ts';
import { listEvents } from '../../../domain/webhooks/events.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { failureResponse as failure, json } from '../../schemas/common.ts';
import { UpdateWatchBody, WatchDetailSchema, WatchParams, WatchSchema } from '../../schemas/watches.ts';
import type { ReplyOf, RequestOf } from '../../types.ts';
import { countMeteredCall } from '../../plugins/rate-limit.ts';
import { commonErrors, malformedId, noSuchWatch } from './common.ts';

export const getWatchRoute = {
  method: 'GET',
  url: '/api/youtube/watches/:watchId',
  config: { auth: true, scope: 'shorts:read', failureBody: true },
  schema: {
    tags: ['watches'],
    summary: 'One watch, with its latest checks and events (and their delivery state).',
    security: [{ bearer: [] }],
    params: WatchParams,
    querystring: Type.Object({
      limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Checks and events to include.' }),
    }),
    response: {
      200: json('The watch with its latest checks and events, newest first.', WatchDetailSchema),
      400: failure('Malformed watch id or limit.', ['VALIDATION_FAILED']),
      404: noSuchWatch,
      ...commonErrors,
    },
  },
} as const;

export async function getWatch(request: RequestOf<typeof getWatchRoute.schema>) {
  const { watches } = request.server.services;
  const row = await ownWatch(watches, callerOf(request).accountId, request.params.watchId);
  return {
    watch: toWatch(row),
    checks: await listChecks(watches.db, row.id, request.query.limit),
    events: await listEvents(watches.db, row.account_id, row.id, request.query.limit),
  };
}

export const updateWatchRoute = {
  method: 'PATCH',
  url: '/api/youtube/watches/:watchId',
  config: { auth: true, scope: 'shorts:write', failureBody: true },
  schema: {
    tags: ['watches'],
    summary: "Change a watch's webhookUrl or interval, pause it or resume it.",
    security: [{ bearer: [] }],
    params: WatchParams,
    body: UpdateWatchBody,
    response: {
      200: json('The watch after the change.', WatchSchema),
      400: failure('Malformed watch id, invalid body, unsafe webhookUrl or an interval below the minimum.', [
        'VALIDATION_FAILED',
        'UNSAFE_WEBHOOK_URL',
        'INVALID_JSON',
      ]),
      404: noSuchWatch,
      429: failure(
        'status "active" (a resume, checked at once) counts as a metered call: past the minute, hour or day limit, 429 with Retry-After and the RateLimit headers.',
        ['RATE_LIMITED'],
      ),
      ...commonErrors,
    },
  },
} as const;

export async function updateWatch(
  request: RequestOf<typeof updateWatchRoute.schema>,
  reply: ReplyOf<typeof updateWatchRoute.schema>,
) {
  const { watches } = request.server.services;
  // Resuming checks the watch at once, as POST …/check does: it counts in the metered windows.
  if (request.body.status === 'active') await countMeteredCall(request, reply);
  return updateOwnWatch(watches, callerOf(request).accountId, request.params.watchId, request.body);
}

export const deleteWatchRoute = {
  method: 'DELETE',
  url: '/api/youtube/watches/:watchId',
  config: { auth: true, scope: 'shorts:write', failureBody: true },
  schema: {
    tags: ['watches'],
    summary: 'Stop watching; answers the watch as it was. Events already recorded are still delivered.',
    security: [{ bearer: [] }],
    params: WatchParams,
    response: {
      200: json('The watch as it was before it was deleted.', WatchSchema),
      400: malformedId,
      404: noSuchWatch,
      ...commonErrors,
    },
  },
} as const;

export async function deleteWatch(request: RequestOf<typeof deleteWatchRoute.schema>) {
  const { watches } = request.server.services;
  return deleteOwnWatch(watches, callerOf(request).accountId, request.params.watchId);
}
