// The account's webhook signing secrets: the ones that sign, and a rotation. Dashboard session only:
// a leaked API key must not read or replace them.
import { Type } from 'typebox';
import { activeWebhookSecrets, createWebhookSecret } from '../../../domain/webhooks/webhook-secrets.ts';
import { enforceLimit } from '../../rate-limit-headers.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { authErrors, errorResponse, json } from '../../schemas/common.ts';
import { RotatedSecretSchema, WebhookSecretSchema } from '../../../contract/accounts.ts';
import type { ReplyOf, RequestOf } from '../../types.ts';

export const webhookSecretsRoute = {
  method: 'GET',
  url: '/accounts/webhook-secret',
  config: { auth: 'session' },
  schema: {
    tags: ['webhooks'],
    summary: 'The webhook signing secrets that currently sign (the newest first). Dashboard session only.',
    security: [{ bearer: [] }],
    response: {
      200: json('The secrets that sign, newest first.', Type.Object({ secrets: Type.Array(WebhookSecretSchema) })),
      ...authErrors(),
    },
  },
} as const;

export async function webhookSecrets(
  request: RequestOf<typeof webhookSecretsRoute.schema>,
  reply: ReplyOf<typeof webhookSecretsRoute.schema>,
) {
  reply.header('cache-control', 'no-store');
  return { secrets: await activeWebhookSecrets(request.server.services.db, callerOf(request).accountId) };
}

export const rotateSecretRoute = {
  method: 'POST',
  url: '/accounts/webhook-secret/rotate',
  config: { auth: 'session' },
  schema: {
    tags: ['webhooks'],
    summary:
      'Create a new signing secret; the one it replaces keeps signing until previousExpiresAt, older ones stop ' +
      'at once (at most two sign). Rate limited per account.',
    security: [{ bearer: [] }],
    response: {
      200: json('The new secret; the replaced one signs until previousExpiresAt.', RotatedSecretSchema),
      429: errorResponse('Too many rotations this hour; see Retry-After.', ['RATE_LIMITED']),
      ...authErrors(),
    },
  },
} as const;

export async function rotateSecret(
  request: RequestOf<typeof rotateSecretRoute.schema>,
  reply: ReplyOf<typeof rotateSecretRoute.schema>,
) {
  const { db, rateLimiter, config } = request.server.services;
  const limit = config.WEBHOOK_SECRET_ROTATIONS_PER_HOUR;
  await enforceLimit(rateLimiter, reply, {
    bucket: `webhook-secret-rotate:${callerOf(request).accountId}`,
    windows: [{ name: 'hour', limit, seconds: 3600 }],
    scope: 'rotate',
    message: (decision) =>
      `At most ${limit} webhook secret rotations per hour; retry in ${decision.retryAfterSeconds} s.`,
  });
  // The wall clock, as the secrets' own `now` (domain/webhooks/webhook-secrets.ts) that decides when
  // the replaced secret stops signing.
  const previousExpiresAt = new Date(Date.now() + config.WEBHOOK_SECRET_OVERLAP_SECONDS * 1000);
  const created = await db.transaction((tx) => createWebhookSecret(tx, callerOf(request).accountId, previousExpiresAt));
  reply.header('cache-control', 'no-store');
  return {
    secret: created.secret,
    createdAt: created.createdAt,
    previousExpiresAt: previousExpiresAt.toISOString(),
  };
}
