// The WebSub callback of watched channels' upload feeds (domain/watches/websub.ts): the hub's
// verification of intent (GET) and its notifications (POST, Atom). Public: the hub authenticates
// itself by knowing the challenge flow and by the HMAC signature made with our hub.secret.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { readNotification, verifyIntent } from '../../domain/watches/websub.ts';
import { checkChannelNow, type PushedAccount } from '../../domain/watches/scheduler.ts';
import { meteredLimitOf } from '../plugins/rate-limit.ts';
import { errorResponse } from '../schemas/common.ts';
import type { ReplyOf, RequestOf } from '../types.ts';

/** A YouTube upload notification is about 1 KiB; 16 KiB leaves room for any real one. */
export const NOTIFICATION_BODY_LIMIT = 16 * 1024;

const ChannelParams = Type.Object({
  channelId: Type.String({ pattern: '^UC[A-Za-z0-9_-]{22}$', description: 'The watched channel.' }),
  token: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9_-]{32}$', description: 'The callback token this service gave the hub.' }),
  ),
});

export const websubRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Atom arrives as application/atom+xml; the raw bytes are needed for the signature. A YouTube
  // notification is one <entry> of about 1 KiB, so a body past NOTIFICATION_BODY_LIMIT is refused
  // (413) while it is read, never buffered whole.
  app.addContentTypeParser(
    ['application/atom+xml', 'application/rss+xml', 'application/xml', 'text/xml'],
    { parseAs: 'buffer', bodyLimit: NOTIFICATION_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  // The callback the service gives the hub ends in a token (websub.ts callbackToken); the one
  // without is kept for notifications under leases taken before it had one (they are signed).
  for (const url of ['/websub/youtube/:channelId/:token', '/websub/youtube/:channelId']) {
    app.route({ method: 'GET', url, ...verificationRoute, handler: verifyCallback });
    app.route({ method: 'POST', url, ...notificationRoute, handler: receiveNotification });
  }
};

/** The services of a callback, or 404 when push is off (no PUBLIC_BASE_URL). */
function pushServices(request: FastifyRequest) {
  const { websub, watches, metrics } = request.server.services;
  if (!websub) throw new AppError('NOT_FOUND', 'Push is off (PUBLIC_BASE_URL is not set).');
  return { websub, watches, metrics };
}

// With push off every callback answers 404 before its body is read: the answer costs the same
// for any channel id, so it tells nothing about which channels are watched.
async function pushOff(request: FastifyRequest) {
  pushServices(request);
}

const verificationRoute = {
  schema: {
    hide: true,
    params: ChannelParams,
    querystring: Type.Object({
      'hub.mode': Type.String({ maxLength: 20 }),
      'hub.topic': Type.String({ maxLength: 2048 }),
      'hub.challenge': Type.Optional(Type.String({ maxLength: 1024 })),
      'hub.lease_seconds': Type.Optional(Type.Integer({ minimum: 1 })),
      'hub.reason': Type.Optional(Type.String({ maxLength: 1024 })),
    }),
    response: {
      200: Type.String({ description: 'The intent is verified: the body is hub.challenge, as text/plain.' }),
      400: errorResponse('hub.mode is not subscribe, unsubscribe or denied, or hub.challenge is missing.', [
        'VALIDATION_FAILED',
      ]),
      404: errorResponse(
        'Push is off, not a callback this service gave a hub, or not a subscription it requested (or a channel ' +
          'it still watches, for unsubscribe).',
        ['NOT_FOUND'],
      ),
    },
  },
} as const;

/** The hub's verification of intent: answered with its challenge when the subscription is ours. */
async function verifyCallback(
  request: RequestOf<typeof verificationRoute.schema>,
  reply: ReplyOf<typeof verificationRoute.schema>,
) {
  const { websub } = pushServices(request);
  const { channelId, token } = request.params;
  const challenge = await verifyIntent(websub, channelId, token, request.query);
  return reply.type('text/plain; charset=utf-8').send(challenge);
}

const notificationRoute = {
  onRequest: pushOff,
  bodyLimit: NOTIFICATION_BODY_LIMIT,
  schema: {
    hide: true,
    params: ChannelParams,
    response: {
      202: Type.Null({
        description:
          'Acknowledged, with an empty body; a notification with a bad signature, or about a channel without a ' +
          'subscription, is acknowledged too, and ignored.',
      }),
      404: errorResponse('Push is off.', ['NOT_FOUND']),
      413: errorResponse('The body is over 16 KiB.', ['PAYLOAD_TOO_LARGE']),
    },
  },
} as const;

/** A signed notification: the channel is checked now when it names new videos. */
async function receiveNotification(
  request: RequestOf<typeof notificationRoute.schema>,
  reply: ReplyOf<typeof notificationRoute.schema>,
) {
  const { websub, watches, metrics } = pushServices(request);
  const { channelId, token } = request.params;
  const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const signature = request.headers['x-hub-signature'];
  const read = await readNotification(
    websub,
    channelId,
    token,
    Array.isArray(signature) ? signature[0] : signature,
    body,
  );
  metrics.websubNotifications.inc({ outcome: read.outcome });
  // A bad signature is acknowledged but ignored (WebSub: subscribers must not act on it). So is a
  // channel without a subscription: a 404 would tell anyone asking which channels are watched here;
  // the metric still counts it apart.
  if (read.outcome !== 'accepted') return reply.code(202).send(null);
  // Each check is a metered call of its account; one past its limits waits for its schedule.
  const { rateLimiter, config } = request.server.services;
  const admit = async (account: PushedAccount) => {
    const { bucket, windows } = meteredLimitOf(config, account);
    return (await rateLimiter.consume(bucket, windows)).allowed;
  };
  if ((await checkChannelNow(watches, channelId, read.videoIds, admit)).length > 0) watches.wakeChecks?.();
  return reply.code(202).send(null);
}
