// GET /api/youtube/shorts: the caller's requests log, filtered and paged.
import { listRequestLog } from '../../../domain/requests/request-log.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { authErrors, FailureBody, failureResponse as failure, json } from '../../schemas/common.ts';
import { RequestLogPageSchema, RequestLogQuerySchema } from '../../schemas/requests-log.ts';
import type { RequestOf } from '../../types.ts';

export const listShortsRequestsRoute = {
  method: 'GET',
  url: '/api/youtube/shorts',
  config: { auth: true, scope: 'shorts:read', failureBody: true },
  schema: {
    tags: ['shorts'],
    summary: "The caller's shorts requests, newest first, filtered and paged.",
    description:
      'Each entry names the API key that made it and, for webhook requests, the state of the delivery ' +
      "(delivered, retrying with the next attempt's time, failed after the last attempt, gone). Filters combine; " +
      'pages follow nextCursor. Calls refused before they were recorded are counted at GET ' +
      '/api/youtube/shorts/rejections.',
    security: [{ bearer: [] }],
    querystring: RequestLogQuerySchema,
    response: {
      200: json('Requests, newest first, one page.', RequestLogPageSchema),
      400: failure('Invalid input: the message names the field.', ['VALIDATION_FAILED']),
      ...authErrors(FailureBody),
    },
  },
} as const;

export async function listShortsRequests(request: RequestOf<typeof listShortsRequestsRoute.schema>) {
  const { db, delivery } = request.server.services;
  const { limit, cursor, from, to, ...filter } = request.query;
  return listRequestLog(db, callerOf(request).accountId, {
    limit,
    cursor: cursor || undefined,
    retrySchedule: delivery.schedule,
    filter: { ...filter, ...(from ? { from: new Date(from) } : {}), ...(to ? { to: new Date(to) } : {}) },
  });
}
