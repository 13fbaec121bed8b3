import { Type } from 'typebox';
import { balanceSteps, balanceHistory as readBalanceHistory } from '../../../domain/credits/statement.ts';
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
    summary:
      'The balance at the end of each UTC day, oldest first, every day present, and each change in the period ' +
      '(from the ledger).',
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
  const accountId = callerOf(request).accountId;
  const now = new Date(clock());
  return {
    days: await readBalanceHistory(db, accountId, request.query.days, now),
    ...(await balanceSteps(db, accountId, request.query.days, now)),
  };
}
