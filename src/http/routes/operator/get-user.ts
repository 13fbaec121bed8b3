import { Type } from 'typebox';
import { findUser } from '../../../domain/operators/users.ts';
import { accountTotals, usageByDay } from '../../../domain/requests/request-store.ts';
import { UserSchema } from '../../../contract/operator.ts';
import { UsageDaySchema } from '../../../contract/accounts.ts';
import { json } from '../../schemas/common.ts';
import type { RequestOf } from '../../types.ts';
import { operatorErrors, operatorSchema, UserParams, viewOf } from './common.ts';

export const getUserRoute = {
  method: 'GET',
  url: '/operator/users/:id',
  schema: {
    ...operatorSchema(),
    summary: 'One user with totals and usage per UTC day.',
    params: UserParams,
    querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 366, default: 30 }) }),
    response: {
      200: json(
        'The user, totals and usage per day.',
        Type.Object({
          user: UserSchema,
          totals: Type.Object({ totalRequests: Type.Integer(), totalCreditsCharged: Type.Integer() }),
          usage: Type.Array(UsageDaySchema),
        }),
      ),
      ...operatorErrors(),
    },
  },
} as const;

export async function getUser(request: RequestOf<typeof getUserRoute.schema>) {
  const { db } = request.server.services;
  const row = await findUser(db, request.params.id);
  return {
    user: viewOf(request, row),
    totals: await accountTotals(db, row.id),
    usage: await usageByDay(db, row.id, request.query.days),
  };
}
