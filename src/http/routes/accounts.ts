import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { effectiveRateLimits, getAccount } from '../../domain/accounts/accounts.ts';
import { accountBucket, accountWindows, defaultRateLimits } from '../../domain/limits/windows.ts';
import { getCreditAlerts } from '../../domain/credits/credit-alerts.ts';
import { accountTotals, usageByDay } from '../../domain/requests/request-store.ts';
import { activeWebhookSecrets, createWebhookSecret } from '../../domain/webhooks/webhook-secrets.ts';
import { callerOf } from '../plugins/authenticate.ts';
import { accountQuotaDay } from '../../domain/quota/account-quota.ts';
import { quotaDay, nextQuotaDayStart } from '../../domain/quota/quota-day.ts';
import { authErrors, ErrorBody, Nullable } from '../schemas/common.ts';
import { CreditAlertsSchema } from '../schemas/credits.ts';

const Limits = Type.Object({ perMinute: Type.Integer(), perHour: Type.Integer(), perDay: Type.Integer() });

export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, rateLimiter, config, shortsRequests } = app.services;
  const defaults = defaultRateLimits(config);
  const security = [{ bearer: [] }];

  const upstreamQuotaOf = async (accountId: string) => {
    const now = shortsRequests.now();
    const day = await accountQuotaDay(db, accountId, quotaDay(now));
    const allowance = config.QUOTA_ALLOWANCE_UNITS;
    return {
      quotaDay: day.quotaDay,
      resetsAt: new Date(nextQuotaDayStart(now)).toISOString(),
      unitsToday: day.units,
      allowance: { units: allowance, used: day.unpaidUnits, remaining: Math.max(0, allowance - day.unpaidUnits) },
    };
  };

  app.get('/accounts', {
    config: { auth: true, scope: 'account:read' },
    schema: {
      tags: ['accounts'],
      summary: 'The caller\'s account: credits, rate limits and usage.',
      security,
      response: {
        200: Type.Object({
          id: Type.String(),
          email: Type.String(),
          createdAt: Type.String({ format: 'date-time' }),
          credits: Type.Object({
            balance: Type.Integer(),
            reserved: Type.Integer({ description: 'Held by requests in progress (a webhook request holds its minimum price from acceptance until it settles).' }),
            available: Type.Integer({ description: 'balance - reserved: what new requests may spend.' }),
          }),
          upstreamQuota: Type.Object({
            quotaDay: Type.String({ description: 'The video platform\'s quota day (America/Los_Angeles date).' }),
            resetsAt: Type.String({ format: 'date-time' }),
            unitsToday: Type.Integer({ description: 'Upstream units spent on this account\'s behalf today, paid or not.' }),
            allowance: Type.Object({
              units: Type.Integer({ description: 'Unpaid units allowed per quota day (failed lookups, refusals after a probe).' }),
              used: Type.Integer(),
              remaining: Type.Integer(),
            }),
          }),
          rateLimits: Limits,
          usage: Type.Object({
            minute: Type.Integer({ description: 'Requests counted in the current minute window.' }),
            hour: Type.Integer(),
            day: Type.Integer(),
            totalRequests: Type.Integer(),
            totalCreditsCharged: Type.Integer(),
          }),
          alerts: CreditAlertsSchema,
        }),
        ...authErrors(),
      },
    },
  }, async (request) => {
    const account = await getAccount(db, callerOf(request).accountId);
    if (!account) throw new AppError('UNAUTHORIZED');
    const limits = effectiveRateLimits(account, defaults);
    const state = await rateLimiter.peek(accountBucket(account.id), accountWindows(limits));
    const used = (i: number) => state.windows[i]!.limit - state.windows[i]!.remaining;
    return {
      id: account.id,
      email: account.email,
      createdAt: account.created_at.toISOString(),
      credits: { balance: account.credit_balance, reserved: account.credits_reserved, available: Math.max(0, account.credit_balance - account.credits_reserved) },
      upstreamQuota: await upstreamQuotaOf(account.id),
      rateLimits: limits,
      usage: { minute: used(0), hour: used(1), day: used(2), ...(await accountTotals(db, account.id)) },
      // Read fresh, not from the cached account: the dashboard's banner follows a threshold just set.
      alerts: await getCreditAlerts(db, account.id),
    };
  });

  app.get('/accounts/usage', {
    config: { auth: true, scope: 'account:read' },
    schema: {
      tags: ['accounts'],
      summary: 'Requests, items and credits per UTC day, oldest first, every day present.',
      security,
      querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 366, default: 30 }) }),
      response: { 200: Type.Object({ days: Type.Array(Type.Object({ date: Type.String(), requests: Type.Integer(), items: Type.Integer(), credits: Type.Integer() })) }), 400: ErrorBody, ...authErrors() },
    },
  }, async (request) => ({ days: await usageByDay(db, callerOf(request).accountId, request.query.days) }));

  const SecretView = Type.Object({ secret: Type.String(), createdAt: Type.String({ format: 'date-time' }), expiresAt: Nullable(Type.String({ format: 'date-time' })) });

  app.get('/accounts/webhook-secret', {
    config: { auth: 'session' },
    schema: {
      tags: ['webhooks'],
      summary: 'The webhook signing secrets that currently sign (the newest first). Dashboard session only.',
      security,
      response: { 200: Type.Object({ secrets: Type.Array(SecretView) }), ...authErrors() },
    },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { secrets: await activeWebhookSecrets(db, callerOf(request).accountId) };
  });

  app.post('/accounts/webhook-secret/rotate', {
    config: { auth: 'session' },
    schema: {
      tags: ['webhooks'],
      summary: 'Create a new signing secret; the one it replaces keeps signing until previousExpiresAt, older ones stop at once (at most two sign). Rate limited per account.',
      security,
      response: { 200: Type.Object({ secret: Type.String(), createdAt: Type.String({ format: 'date-time' }), previousExpiresAt: Type.String({ format: 'date-time' }) }), 429: { ...ErrorBody, description: 'Too many rotations this hour; see Retry-After.' }, ...authErrors() },
    },
  }, async (request, reply) => {
    const limit = config.WEBHOOK_SECRET_ROTATIONS_PER_HOUR;
    const decision = await rateLimiter.consume(`webhook-secret-rotate:${callerOf(request).accountId}`, [{ name: 'hour', limit, seconds: 3600 }]);
    if (!decision.allowed) {
      throw new AppError('RATE_LIMITED', `At most ${limit} webhook secret rotations per hour; retry in ${decision.retryAfterSeconds} s.`, { headers: { 'retry-after': String(decision.retryAfterSeconds) } });
    }
    const previousExpiresAt = new Date(Date.now() + config.WEBHOOK_SECRET_OVERLAP_SECONDS * 1000);
    const created = await db.transaction((tx) => createWebhookSecret(tx, callerOf(request).accountId, previousExpiresAt));
    reply.header('cache-control', 'no-store');
    return { secret: created.secret, createdAt: created.createdAt, previousExpiresAt: previousExpiresAt.toISOString() };
  });
};
