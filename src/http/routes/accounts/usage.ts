import { Type } from 'typebox';
import { usageByDay } from '../../../domain/requests/request-store.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { authErrors, invalidInput, json } from '../../schemas/common.ts';
import { UsageDaySchema } from '../../../contract/accounts.ts';
import type { RequestOf } from '../../types.ts';

export const usageRoute = {
  method: 'GET',
  url: '/accounts/usage',
  config: { auth: true, scope: 'account:read' },
  schema: {
    tags: ['accounts'],
    summary: 'Requests, items and credits per UTC day, oldest first, every day present.',
    security: [{ bearer: [] }],
    querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 366, default: 30 }) }),
    response: {
      200: json('One entry per UTC day, oldest first.', Type.Object({ days: Type.Array(UsageDaySchema) })),
      400: invalidInput(),
      ...authErrors(),
    },
  },
} as const;

export async function usage(request: RequestOf<typeof usageRoute.schema>) {
  return { days: await usageByDay(request.server.services.db, callerOf(request).accountId, request.query.days) };
}
