// Prometheus metrics, one registry per app instance (tests build many apps in one process).
import { timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// Each group registers its metrics in the order listed, and the groups are built in the order
// createMetrics lists them: /metrics prints metrics in the order they were registered.

function httpMetrics(registry: Registry) {
  return {
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
}

function upstreamMetrics(registry: Registry) {
  return {
    upstreamCalls: new Counter({
      name: 'upstream_calls_total',
      help: 'Calls to the video platform API by endpoint and HTTP status',
      labelNames: ['endpoint', 'status'],
      registers: [registry],
    }),
    upstreamQuota: new Counter({
      name: 'upstream_quota_units_total',
      help: 'Video platform quota units spent, by endpoint and key ("<index>:<hash>", never the key)',
      labelNames: ['endpoint', 'key'],
      registers: [registry],
    }),
    upstreamKeyUnitsUsed: new Gauge({
      name: 'upstream_key_units_used',
      help: 'Units used today (quota day, America/Los_Angeles) per Data API key, across all instances',
      labelNames: ['key'],
      registers: [registry],
    }),
    upstreamKeyUnitsRemaining: new Gauge({
      name: 'upstream_key_units_remaining',
      help: 'Units left today per Data API key (0 when resting or rejected)',
      labelNames: ['key', 'state'],
      registers: [registry],
    }),
    innertubeCalls: new Counter({
      name: 'innertube_calls_total',
      help: "Calls to YouTube's web API (InnerTube) by endpoint and HTTP status (0: no answer)",
      labelNames: ['endpoint', 'status'],
      registers: [registry],
    }),
    sourceSuccessRatio: new Gauge({
      name: 'upstream_source_success_ratio',
      help: "Share of the source's calls in the last 15 minutes that succeeded (absent without calls)",
      labelNames: ['source'],
      registers: [registry],
    }),
    sourceBreakerOpen: new Gauge({
      name: 'upstream_source_breaker_open',
      help: 'Whether the breaker of this source and call kind pauses calls now (1) or not (0)',
      labelNames: ['source', 'call'],
      registers: [registry],
    }),
    sourceLastError: new Gauge({
      name: 'upstream_source_last_error_timestamp_seconds',
      help: "When the source's last failure happened, labelled with its class",
      labelNames: ['source', 'class'],
      registers: [registry],
    }),
    innertubeFailures: new Counter({
      name: 'innertube_failures_total',
      help: 'InnerTube failures by kind (bot-check, rate-limited, parse, unavailable, timeout)',
      labelNames: ['kind'],
      registers: [registry],
    }),
  };
}

function accountMetrics(registry: Registry) {
  return {
    creditsCharged: new Counter({
      name: 'credits_charged_total',
      help: 'Credits charged to accounts',
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
}

function watchMetrics(registry: Registry) {
  return {
    watchChecks: new Counter({
      name: 'watch_checks_total',
      help: 'Watch checks by trigger (create, schedule, push, manual) and outcome (ok, failed, paused)',
      labelNames: ['trigger', 'outcome'],
      registers: [registry],
    }),
    watchUnits: new Counter({
      name: 'watch_quota_units_total',
      help: 'Data API units spent by watch checks',
      registers: [registry],
    }),
    watchShorts: new Counter({
      name: 'watch_shorts_reported_total',
      help: 'New shorts reported by watches (shorts.created)',
      registers: [registry],
    }),
    watchLag: new Histogram({
      name: 'watch_notification_lag_seconds',
      help: "From a reported short's publication to its shorts.created event being recorded",
      labelNames: ['trigger'],
      buckets: [1, 5, 15, 60, 300, 900, 1800, 3600, 7200, 86400],
      registers: [registry],
    }),
    websubNotifications: new Counter({
      name: 'websub_notifications_total',
      help: 'WebSub notifications received by outcome (accepted, bad-signature, unknown-topic)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
}

function storageMetrics(registry: Registry) {
  return {
    jobWakeups: new Counter({
      name: 'job_wakeups_total',
      help: 'Idle workers woken at once by jobs another process queued (PostgreSQL NOTIFY), by queue',
      labelNames: ['queue'],
      registers: [registry],
    }),
    dbRetries: new Counter({
      name: 'db_retries_total',
      help:
        'PostgreSQL statements and transactions run again after the server aborted them (40P01 deadlock ' +
        'victim, 40001 serialization failure), by code',
      labelNames: ['code'],
      registers: [registry],
    }),
    queueDepth: new Gauge({
      name: 'queue_depth',
      help: 'Queued jobs waiting per queue',
      labelNames: ['queue'],
      registers: [registry],
    }),
  };
}

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    ...httpMetrics(registry),
    ...upstreamMetrics(registry),
    ...accountMetrics(registry),
    ...watchMetrics(registry),
    ...storageMetrics(registry),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Whether an Authorization header carries `Bearer <expected>` (compared in constant time). */
export function bearerMatches(authorization: string | undefined, expected: Buffer): boolean {
  const sent = Buffer.from(/^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? '');
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}
