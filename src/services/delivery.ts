// Webhook delivery: the guarded agent (addresses checked at connect time), the retry schedule, and
// attempts read and recorded in groups, each attempt counted and logged.
import type { PgBoss } from 'pg-boss';
import { parseRetrySchedule } from '../config.ts';
import type { Core } from './core.ts';
import { createAttemptRecorder } from '../domain/webhooks/delivery-log.ts';
import { createWebhookAgent } from '../domain/webhooks/guarded-agent.ts';
import { createRequestAttemptReader, type DeliveryDeps } from '../jobs/webhook-delivery-job.ts';

export function buildDelivery({ config, db, metrics, log, clock }: Core, boss: PgBoss): DeliveryDeps {
  return {
    db,
    boss,
    agent: createWebhookAgent({
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    }),
    schedule: parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE),
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    readRequestAttempt: createRequestAttemptReader(db),
    recordAttempt: createAttemptRecorder(db),
    resultPayload: {
      maxBodyBytes: config.WEBHOOK_MAX_BODY_BYTES,
      // Without PUBLIC_BASE_URL, where this configuration listens (as the OpenAPI document's server says).
      publicBaseUrl: (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, ''),
    },
    disableAfterDays: config.WEBHOOK_DISABLE_AFTER_DAYS,
    now: clock,
    onAttempt: (result, job) => {
      metrics.webhookAttempts.inc({ outcome: result.outcome });
      log.info(
        {
          webhook: {
            ...job,
            outcome: result.outcome,
            statusCode: result.statusCode,
            latencyMs: result.latencyMs,
            error: result.error,
            detail: result.detail,
          },
        },
        'webhook attempt',
      );
    },
  };
}
