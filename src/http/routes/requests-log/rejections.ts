// GET /api/youtube/shorts/rejections: calls refused before a request was recorded, counted per day.
import { rejectionsByDay } from '../../../domain/requests/rejections.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { authErrors, FailureBody, failureResponse, json } from '../../schemas/common.ts';
import { RejectionsQuerySchema, RejectionsSchema } from '../../schemas/requests-log.ts';
import type { RequestOf } from '../../types.ts';

export const rejectionsRoute = {
  method: 'GET',
  url: '/api/youtube/shorts/rejections',
  config: { auth: true, scope: 'shorts:read', failureBody: true },
  schema: {
    tags: ['shorts'],
    summary: 'Calls refused before a request was recorded (400, 402, 429 …), counted per UTC day.',
    description:
      'A refused call (invalid body, not enough credits at acceptance, rate limited) has no request record; it ' +
      'is counted here by day, status, error code and key, so the requests listed plus the calls counted here ' +
      "account for every call. Counts are written every few seconds; this instance's latest are included at once.",
    security: [{ bearer: [] }],
    querystring: RejectionsQuerySchema,
    response: {
      200: json('Refused calls per UTC day, newest first.', RejectionsSchema),
      400: failureResponse('Invalid input: the message names the field.', ['VALIDATION_FAILED']),
      ...authErrors(FailureBody),
    },
  },
} as const;

export async function rejections(request: RequestOf<typeof rejectionsRoute.schema>) {
  const { services, rejections: counter } = request.server;
  const { db, clock } = services;
  return {
    days: await rejectionsByDay(db, counter, callerOf(request).accountId, request.query.days, new Date(clock())),
  };
}
