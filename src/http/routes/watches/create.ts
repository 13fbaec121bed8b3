// POST /api/youtube/watches: a channel watched for new Shorts, its current ones recorded as the baseline.
import type { Config } from '../../../config.ts';
import { normalizeChannelUrl } from '../../../domain/shorts/channel-url.ts';
import { createWatch as createChannelWatch } from '../../../domain/watches/watches.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { failureResponse as failure, json } from '../../schemas/common.ts';
import { CreateWatchBody, WatchSchema } from '../../schemas/watches.ts';
import type { ReplyOf, RequestOf } from '../../types.ts';
import { commonErrors } from './common.ts';

export function createWatchRoute(config: Config) {
  return {
    method: 'POST',
    url: '/api/youtube/watches',
    config: { auth: true, scope: 'shorts:write', rateLimited: true, failureBody: true, idempotent: true },
    schema: {
      tags: ['watches'],
      summary: 'Watch a channel: its new Shorts are POSTed to webhookUrl as shorts.created events.',
      description:
        'Resolves the channel and records its current shorts as the baseline (they are never reported), then ' +
        'checks it every intervalSeconds ' +
        `(at least ${config.WATCH_MIN_INTERVAL_SECONDS}) and, with PUBLIC_BASE_URL set, as soon as YouTube's ` +
        'WebSub hub announces an upload. ' +
        "A check reads only the newest page of the channel's Shorts: about 1 upstream unit when nothing is new, " +
        `2 when something is. Price: units are paid in advance, 1 credit per ${config.QUOTA_UNITS_PER_CREDIT} units; ` +
        `reported shorts cost ${config.CREDITS_PER_BLOCK} credit(s) per started block ` +
        `of ${config.SHORTS_PER_CREDIT_BLOCK}. A watch whose account cannot pay is paused (watch.paused) and ` +
        'resumed when credits return (watch.resumed). ' +
        `At most ${config.WATCHES_PER_ACCOUNT} watches per account. See docs/watches.md.`,
      security: [{ bearer: [] }],
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
        ...commonErrors,
        503: failure('Every platform key is out of quota, the platform throttles, or a backing store is unavailable.', [
          'UPSTREAM_QUOTA_EXHAUSTED',
          'UPSTREAM_RATE_LIMITED',
          'UPSTREAM_BLOCKED',
          'UPSTREAM_UNAVAILABLE',
          'SERVICE_UNAVAILABLE',
        ]),
      },
    },
  } as const;
}

type CreateSchema = ReturnType<typeof createWatchRoute>['schema'];

export async function createWatch(request: RequestOf<CreateSchema>, reply: ReplyOf<CreateSchema>) {
  const { watches } = request.server.services;
  const watch = await createChannelWatch(watches, {
    accountId: callerOf(request).accountId,
    ...request.body,
    channelUrl: normalizeChannelUrl(request.body.channelUrl),
  });
  reply.code(201).header('location', `/api/youtube/watches/${watch.id}`);
  return watch;
}
