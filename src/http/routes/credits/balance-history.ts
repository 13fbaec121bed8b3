import { Type } from 'typebox';
import { balanceHistory as readBalanceHistory } from '../../../domain/credits/statement.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { authErrors, invalidInput, json } from '../../schemas/common.ts';
import { BalanceHistorySchema } from '../../schemas/credits.ts';
import type { RequestOf } from '../../types.ts';
import { accountRead } from './common.ts';

export const balanceHistoryRoute = {
  method: 'GET',
  url: '/accounts/balance-history',
  config: accountRead,
  schema: {
    tags: ['accounts'],
    summary: 'The balance at the end of each UTC day, oldest first, every day present (from the ledger).',
    security: [{ bearer: [] }],
    querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 366, default: 30 }) }),
    response: {
      200: json('The balance at the end of each day, oldest first.', BalanceHistorySchema),
      400: invalidInput(),
      ...authErrors(),
    },
  },
} as const;

export async function balanceHistory(request: RequestOf<typeof balanceHistoryRoute.schema>) {
  const { db, clock } = request.server.services;
  return {
    days: await readBalanceHistory(db, callerOf(request).accountId, request.query.days, new Date(clock())),
  };
}
