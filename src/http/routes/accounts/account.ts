// GET /accounts: the caller's account: credits, rate limits with what is used of them, usage, alerts.
import { AppError } from '../../../errors.ts';
import type { Services } from '../../../services.ts';
import { effectiveRateLimits, getAccount as readAccount } from '../../../domain/accounts/accounts.ts';
import { accountBucket, accountWindows, defaultRateLimits, readsPerMinute } from '../../../domain/limits/windows.ts';
import { getCreditAlerts } from '../../../domain/credits/credit-alerts.ts';
import { accountTotals } from '../../../domain/requests/request-store.ts';
import { accountQuotaDay } from '../../../domain/quota/account-quota.ts';
import { nextQuotaDayStart, quotaDay } from '../../../domain/quota/quota-day.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { authErrors, json } from '../../schemas/common.ts';
import { AccountSchema } from '../../../contract/accounts.ts';
import type { RequestOf } from '../../types.ts';

export const getAccountRoute = {
  method: 'GET',
  url: '/accounts',
  config: { auth: true, scope: 'account:read' },
  schema: {
    tags: ['accounts'],
    summary: "The caller's account: credits, rate limits and usage.",
    security: [{ bearer: [] }],
    response: {
      200: json('The account.', AccountSchema),
      ...authErrors(),
    },
  },
} as const;

export async function getAccount(request: RequestOf<typeof getAccountRoute.schema>) {
  const { services } = request.server;
  const { db, rateLimiter, config } = services;
  const account = await readAccount(db, callerOf(request).accountId);
  if (!account) throw new AppError('UNAUTHORIZED');
  const limits = effectiveRateLimits(account, defaultRateLimits(config));
  const state = await rateLimiter.peek(accountBucket(account.id), accountWindows(limits));
  const used = (i: number) => state.windows[i]!.limit - state.windows[i]!.remaining;
  return {
    id: account.id,
    email: account.email,
    role: account.role,
    createdAt: account.created_at.toISOString(),
    credits: {
      balance: account.credit_balance,
      reserved: account.credits_reserved,
      available: Math.max(0, account.credit_balance - account.credits_reserved),
    },
    upstreamQuota: await upstreamQuotaOf(services, account.id),
    rateLimits: limits,
    readsPerMinute: readsPerMinute(config, limits),
    usage: { minute: used(0), hour: used(1), day: used(2), ...(await accountTotals(db, account.id)) },
    // Read fresh, not from the cached account: the dashboard's banner follows a threshold just set.
    alerts: await getCreditAlerts(db, account.id),
  };
}

/** The account's upstream units today and what is left of its allowance of unpaid ones. */
async function upstreamQuotaOf({ db, config, clock }: Services, accountId: string) {
  const now = clock();
  const day = await accountQuotaDay(db, accountId, quotaDay(now));
  const allowance = config.QUOTA_ALLOWANCE_UNITS;
  return {
    quotaDay: day.quotaDay,
    resetsAt: new Date(nextQuotaDayStart(now)).toISOString(),
    unitsToday: day.units,
    allowance: { units: allowance, used: day.unpaidUnits, remaining: Math.max(0, allowance - day.unpaidUnits) },
  };
}
