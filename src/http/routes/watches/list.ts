import { listWatches as listAccountWatches, toWatch } from '../../../domain/watches/watch-store.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { json } from '../../schemas/common.ts';
import { WatchListSchema } from '../../schemas/watches.ts';
import type { RequestOf } from '../../types.ts';
import { commonErrors } from './common.ts';

export const listWatchesRoute = {
  method: 'GET',
  url: '/api/youtube/watches',
  config: { auth: true, scope: 'shorts:read', failureBody: true },
  schema: {
    tags: ['watches'],
    summary: "The caller's watches, oldest first.",
    security: [{ bearer: [] }],
    response: { 200: json("The caller's watches, oldest first.", WatchListSchema), ...commonErrors },
  },
} as const;

export async function listWatches(request: RequestOf<typeof listWatchesRoute.schema>) {
  const { watches } = request.server.services;
  return { watches: (await listAccountWatches(watches.db, callerOf(request).accountId)).map(toWatch) };
}
