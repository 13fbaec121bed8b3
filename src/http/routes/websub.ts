// The WebSub callback of watched channels' upload feeds (#15, domain/watches/websub.ts): the hub's
// verification of intent (GET) and its notifications (POST, Atom). Public: the hub authenticates
// itself by knowing the challenge flow and by the HMAC signature made with our hub.secret.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { readNotification, verifyIntent } from '../../domain/watches/websub.ts';
import { checkChannelNow } from '../../domain/watches/scheduler.ts';
import { errorResponse } from '../schemas/common.ts';

/** A YouTube upload notification is about 1 KiB; 16 KiB leaves room for any real one. */
export const NOTIFICATION_BODY_LIMIT = 16 * 1024;

const ChannelParams = Type.Object({
  channelId: Type.String({ pattern: '^UC[A-Za-z0-9_-]{22}$', description: 'The watched channel.' }),
  token: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9_-]{32}$', description: 'The callback token this service gave the hub.' }),
  ),
});

export const websubRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { websub, watches, metrics } = app.services;
  // Atom arrives as application/atom+xml; the raw bytes are needed for the signature. A YouTube
  // notification is one <entry> of about 1 KiB, so a body past NOTIFICATION_BODY_LIMIT is refused
  // (413) while it is read, never buffered whole.
  app.addContentTypeParser(
    ['application/atom+xml', 'application/rss+xml', 'application/xml', 'text/xml'],
    { parseAs: 'buffer', bodyLimit: NOTIFICATION_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  // With push off every callback answers 404 before its body is read: the answer costs the same
  // for any channel id, so it tells nothing about which channels are watched.
  const pushOff = async () => {
    if (!websub) throw new AppError('NOT_FOUND', 'Push is off (PUBLIC_BASE_URL is not set).');
  };

  const verification = {
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
          'Push is off, not a callback this service gave a hub, or not a subscription it requested (or a channel it still watches, for unsubscribe).',
          ['NOT_FOUND'],
        ),
      },
    },
  } as const;
  const notification = {
    onRequest: pushOff,
    bodyLimit: NOTIFICATION_BODY_LIMIT,
    schema: {
      hide: true,
      params: ChannelParams,
      response: {
        202: Type.Null({
          description:
            'Acknowledged, with an empty body; a notification with a bad signature, or about a channel without a subscription, is acknowledged too, and ignored.',
        }),
        404: errorResponse('Push is off.', ['NOT_FOUND']),
        413: errorResponse('The body is over 16 KiB.', ['PAYLOAD_TOO_LARGE']),
      },
    },
  } as const;

  // The callback the service gives the hub ends in a token (websub.ts callbackToken); the one
  // without is kept for notifications under leases taken before it had one (they are signed).
  for (const path of ['/websub/youtube/:channelId/:token', '/websub/youtube/:channelId']) {
    app.get(path, verification, async (request, reply) => {
      if (!websub) throw new AppError('NOT_FOUND', 'Push is off (PUBLIC_BASE_URL is not set).');
      const { channelId, token } = request.params as { channelId: string; token?: string };
      const challenge = await verifyIntent(websub, channelId, token, request.query);
      return reply.type('text/plain; charset=utf-8').send(challenge);
    });

    app.post(path, notification, async (request, reply) => {
      if (!websub) throw new AppError('NOT_FOUND', 'Push is off (PUBLIC_BASE_URL is not set).');
      const { channelId, token } = request.params as { channelId: string; token?: string };
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
      // channel without a subscription: a 404 told anyone asking which channels are watched here
      // (found by review); the metric still counts it apart.
      if (read.outcome === 'accepted' && (await checkChannelNow(watches, channelId, read.videoIds)).length > 0)
        watches.wakeChecks?.();
      return reply.code(202).send(null);
    });
  }
};
