// /api/youtube/watches (#15): a channel checked on a schedule (and on WebSub pushes) for new Shorts,
// reported to a webhook. Thin: the use cases are in domain/watches/.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { createWatch, deleteWatch, ownWatch, updateWatch } from '../../domain/watches/watches.ts';
import { listChecks, listWatches, newCheckId, toWatch } from '../../domain/watches/watch-store.ts';
import { listEvents } from '../../domain/webhooks/events.ts';
import { callerOf } from '../plugins/authenticate.ts';
import { authErrors, FailureBody, failureResponse as failure, json } from '../schemas/common.ts';
import {
  CreateWatchBody,
  UpdateWatchBody,
  WatchCheckQueuedSchema,
  WatchDetailSchema,
  WatchListSchema,
  WatchParams,
  WatchSchema,
} from '../schemas/watches.ts';

// Every watch route answers errors in the failure body ({success: false, …}), like the shorts routes.
const common = authErrors(FailureBody);
const malformedId = failure('Malformed watch id.', ['VALIDATION_FAILED']);
const noSuchWatch = failure('No such watch on this account.', ['NOT_FOUND']);

export const watchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { watches, config } = app.services;
  const security = [{ bearer: [] }];

  app.post(
    '/api/youtube/watches',
    {
      config: { auth: true, scope: 'shorts:write', rateLimited: true, failureBody: true },
      schema: {
        tags: ['watches'],
        summary: 'Watch a channel: its new Shorts are POSTed to webhookUrl as shorts.created events.',
        description:
          'Resolves the channel and records its current shorts as the baseline (they are never reported), then checks it every intervalSeconds ' +
          `(at least ${config.WATCH_MIN_INTERVAL_SECONDS}) and, with PUBLIC_BASE_URL set, as soon as YouTube's WebSub hub announces an upload. ` +
          `A check reads only the newest page of the channel's Shorts: about 1 upstream unit when nothing is new, 2 when something is. Price: units are paid in advance, 1 credit per ${config.QUOTA_UNITS_PER_CREDIT} units; ` +
          `reported shorts cost ${config.CREDITS_PER_BLOCK} credit(s) per started block of ${config.SHORTS_PER_CREDIT_BLOCK}. A watch whose account cannot pay is paused (watch.paused) and resumed when credits return (watch.resumed). ` +
          `At most ${config.WATCHES_PER_ACCOUNT} watches per account. See docs/watches.md.`,
        security,
        body: CreateWatchBody,
        response: {
          201: json('The watch, with its baseline recorded (Location: /api/youtube/watches/{watchId}).', WatchSchema),
          400: failure(
            'Invalid body, unrecognised channel address, unsafe webhookUrl or an interval below the minimum.',
            ['VALIDATION_FAILED', 'INVALID_CHANNEL_URL', 'UNSAFE_WEBHOOK_URL', 'INVALID_JSON'],
          ),
          402: failure('The available credits cannot pay for creating the watch.', ['INSUFFICIENT_CREDITS']),
          404: failure('No channel at that address.', ['CHANNEL_NOT_FOUND']),
          409: failure('The account has its maximum number of watches.', ['CONFLICT']),
          429: failure('Rate limit exceeded, or the daily allowance of unpaid upstream work is spent.', [
            'RATE_LIMITED',
            'QUOTA_ALLOWANCE_EXHAUSTED',
          ]),
          502: failure('The video platform failed.', ['UPSTREAM_ERROR']),
          504: failure('The video platform did not answer in time.', ['UPSTREAM_TIMEOUT']),
          ...common,
          503: failure(
            'Every platform key is out of quota, the platform throttles, or a backing store is unavailable.',
            ['UPSTREAM_QUOTA_EXHAUSTED', 'UPSTREAM_RATE_LIMITED', 'SERVICE_UNAVAILABLE'],
          ),
        },
      },
    },
    async (request, reply) => {
      const watch = await createWatch(watches, { accountId: callerOf(request).accountId, ...request.body });
      reply.code(201).header('location', `/api/youtube/watches/${watch.id}`);
      return watch;
    },
  );

  app.get(
    '/api/youtube/watches',
    {
      config: { auth: true, scope: 'shorts:read', failureBody: true },
      schema: {
        tags: ['watches'],
        summary: "The caller's watches, oldest first.",
        security,
        response: { 200: json("The caller's watches, oldest first.", WatchListSchema), ...common },
      },
    },
    async (request) => ({ watches: (await listWatches(watches.db, callerOf(request).accountId)).map(toWatch) }),
  );

  app.get(
    '/api/youtube/watches/:watchId',
    {
      config: { auth: true, scope: 'shorts:read', failureBody: true },
      schema: {
        tags: ['watches'],
        summary: 'One watch, with its latest checks and events (and their delivery state).',
        security,
        params: WatchParams,
        querystring: Type.Object({
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Checks and events to include.' }),
        }),
        response: {
          200: json('The watch with its latest checks and events, newest first.', WatchDetailSchema),
          400: failure('Malformed watch id or limit.', ['VALIDATION_FAILED']),
          404: noSuchWatch,
          ...common,
        },
      },
    },
    async (request) => {
      const row = await ownWatch(watches, callerOf(request).accountId, request.params.watchId);
      return {
        watch: toWatch(row),
        checks: await listChecks(watches.db, row.id, request.query.limit),
        events: await listEvents(watches.db, row.account_id, row.id, request.query.limit),
      };
    },
  );

  app.patch(
    '/api/youtube/watches/:watchId',
    {
      config: { auth: true, scope: 'shorts:write', failureBody: true },
      schema: {
        tags: ['watches'],
        summary: "Change a watch's webhookUrl or interval, pause it or resume it.",
        security,
        params: WatchParams,
        body: UpdateWatchBody,
        response: {
          200: json('The watch after the change.', WatchSchema),
          400: failure('Malformed watch id, invalid body, unsafe webhookUrl or an interval below the minimum.', [
            'VALIDATION_FAILED',
            'UNSAFE_WEBHOOK_URL',
            'INVALID_JSON',
          ]),
          404: noSuchWatch,
          ...common,
        },
      },
    },
    async (request) => updateWatch(watches, callerOf(request).accountId, request.params.watchId, request.body),
  );

  app.delete(
    '/api/youtube/watches/:watchId',
    {
      config: { auth: true, scope: 'shorts:write', failureBody: true },
      schema: {
        tags: ['watches'],
        summary: 'Stop watching; answers the watch as it was. Events already recorded are still delivered.',
        security,
        params: WatchParams,
        response: {
          200: json('The watch as it was before it was deleted.', WatchSchema),
          400: malformedId,
          404: noSuchWatch,
          ...common,
        },
      },
    },
    async (request) => deleteWatch(watches, callerOf(request).accountId, request.params.watchId),
  );

  app.post(
    '/api/youtube/watches/:watchId/check',
    {
      config: { auth: true, scope: 'shorts:write', rateLimited: true, failureBody: true },
      schema: {
        tags: ['watches'],
        summary: 'Check a watch now (priced like any check); the schedule is unchanged.',
        security,
        params: WatchParams,
        response: {
          202: json("The check is queued; it appears in the watch's checks once it has run.", WatchCheckQueuedSchema),
          400: malformedId,
          404: noSuchWatch,
          409: failure('The watch is paused.', ['CONFLICT']),
          429: failure('Rate limit exceeded.', ['RATE_LIMITED']),
          ...common,
        },
      },
    },
    async (request, reply) => {
      const row = await ownWatch(watches, callerOf(request).accountId, request.params.watchId);
      if (row.status !== 'active') {
        throw new AppError('CONFLICT', 'This watch is paused; resume it (PATCH status active) to check it.');
      }
      const checkId = newCheckId(watches.now());
      await watches.db.transaction((tx) => watches.enqueueCheck(tx, { watchId: row.id, checkId, trigger: 'manual' }));
      watches.wakeChecks?.();
      reply.code(202);
      return { watchId: row.id, checkId, status: 'queued' as const };
    },
  );
};
