import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { enforceLimit } from '../rate-limit-headers.ts';
import { AppError } from '../../errors.ts';
import { effectiveRateLimits, getAccount } from '../../domain/accounts/accounts.ts';
import { accountBucket, accountWindows, defaultRateLimits, readsPerMinute } from '../../domain/limits/windows.ts';
import { getCreditAlerts } from '../../domain/credits/credit-alerts.ts';
import { accountTotals, usageByDay } from '../../domain/requests/request-store.ts';
import { activeWebhookSecrets, createWebhookSecret } from '../../domain/webhooks/webhook-secrets.ts';
import { callerOf } from '../plugins/authenticate.ts';
import { accountQuotaDay } from '../../domain/quota/account-quota.ts';
import { quotaDay, nextQuotaDayStart } from '../../domain/quota/quota-day.ts';
import { authErrors, errorResponse, invalidInput, json } from '../schemas/common.ts';
import { AccountSchema, RotatedSecretSchema, UsageDaySchema, WebhookSecretSchema } from '../../contract/accounts.ts';

export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, rateLimiter, config, clock } = app.services;
  const defaults = defaultRateLimits(config);
  const security = [{ bearer: [] }];

  const upstreamQuotaOf = async (accountId: string) => {
    const now = clock();
    const day = await accountQuotaDay(db, accountId, quotaDay(now));
    const allowance = config.QUOTA_ALLOWANCE_UNITS;
    return {
      quotaDay: day.quotaDay,
      resetsAt: new Date(nextQuotaDayStart(now)).toISOString(),
      unitsToday: day.units,
      allowance: { units: allowance, used: day.unpaidUnits, remaining: Math.max(0, allowance - day.unpaidUnits) },
    };
  };

  app.get(
    '/accounts',
    {
      config: { auth: true, scope: 'account:read' },
      schema: {
        tags: ['accounts'],
        summary: "The caller's account: credits, rate limits and usage.",
        security,
        response: {
          200: json('The account.', AccountSchema),
          ...authErrors(),
        },
      },
    },
    async (request) => {
      const account = await getAccount(db, callerOf(request).accountId);
      if (!account) throw new AppError('UNAUTHORIZED');
      const limits = effectiveRateLimits(account, defaults);
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
        upstreamQuota: await upstreamQuotaOf(account.id),
        rateLimits: limits,
        readsPerMinute: readsPerMinute(config, limits),
        usage: { minute: used(0), hour: used(1), day: used(2), ...(await accountTotals(db, account.id)) },
        // Read fresh, not from the cached account: the dashboard's banner follows a threshold just set.
        alerts: await getCreditAlerts(db, account.id),
      };
    },
  );

  app.get(
    '/accounts/usage',
    {
      config: { auth: true, scope: 'account:read' },
      schema: {
        tags: ['accounts'],
        summary: 'Requests, items and credits per UTC day, oldest first, every day present.',
        security,
        querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 366, default: 30 }) }),
        response: {
          200: json('One entry per UTC day, oldest first.', Type.Object({ days: Type.Array(UsageDaySchema) })),
          400: invalidInput(),
          ...authErrors(),
        },
      },
    },
    async (request) => ({ days: await usageByDay(db, callerOf(request).accountId, request.query.days) }),
  );

  app.get(
    '/accounts/webhook-secret',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['webhooks'],
        summary: 'The webhook signing secrets that currently sign (the newest first). Dashboard session only.',
        security,
        response: {
          200: json('The secrets that sign, newest first.', Type.Object({ secrets: Type.Array(WebhookSecretSchema) })),
          ...authErrors(),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { secrets: await activeWebhookSecrets(db, callerOf(request).accountId) };
    },
  );

  app.post(
    '/accounts/webhook-secret/rotate',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['webhooks'],
        summary:
          'Create a new signing secret; the one it replaces keeps signing until previousExpiresAt, older ones stop at once (at most two sign). Rate limited per account.',
        security,
        response: {
          200: json('The new secret; the replaced one signs until previousExpiresAt.', RotatedSecretSchema),
          429: errorResponse('Too many rotations this hour; see Retry-After.', ['RATE_LIMITED']),
          ...authErrors(),
        },
      },
    },
    async (request, reply) => {
      const limit = config.WEBHOOK_SECRET_ROTATIONS_PER_HOUR;
      await enforceLimit(rateLimiter, reply, {
        bucket: `webhook-secret-rotate:${callerOf(request).accountId}`,
        windows: [{ name: 'hour', limit, seconds: 3600 }],
        scope: 'rotate',
        message: (decision) =>
          `At most ${limit} webhook secret rotations per hour; retry in ${decision.retryAfterSeconds} s.`,
      });
      const previousExpiresAt = new Date(Date.now() + config.WEBHOOK_SECRET_OVERLAP_SECONDS * 1000);
      const created = await db.transaction((tx) =>
        createWebhookSecret(tx, callerOf(request).accountId, previousExpiresAt),
      );
      reply.header('cache-control', 'no-store');
      return {
        secret: created.secret,
        createdAt: created.createdAt,
        previousExpiresAt: previousExpiresAt.toISOString(),
      };
    },
  );
};
