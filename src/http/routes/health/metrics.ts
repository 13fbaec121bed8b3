// GET /metrics: Prometheus metrics, behind METRICS_TOKEN when the operator sets one. The queue depths
// and per-key usage live in the databases (shared by every instance): they are read at scrape time.
import type { FastifyBaseLogger } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../../errors.ts';
import type { Services } from '../../../services.ts';
import { bearerMatches } from '../../../infra/metrics.ts';
import { QUEUES } from '../../../infra/queue.ts';
import { withTimeout } from '../../../infra/timeout.ts';
import { errorResponse } from '../../schemas/common.ts';
import type { ReplyOf, RequestOf } from '../../types.ts';

export const metricsRoute = {
  method: 'GET',
  url: '/metrics',
  schema: {
    tags: ['operations'],
    summary:
      'Prometheus metrics. When the operator sets METRICS_TOKEN, send it as "Authorization: Bearer <METRICS_TOKEN>".',
    hide: false,
    // Declared as text/plain, as it is sent.
    response: {
      200: {
        description: 'Prometheus text exposition format.',
        content: {
          'text/plain': {
            schema: Type.String({
              examples: [
                '# HELP http_request_duration_seconds Request latency\n# TYPE ' +
                  'http_request_duration_seconds histogram\n',
              ],
            }),
          },
        },
      },
      401: errorResponse('METRICS_TOKEN is set and was not sent.', ['UNAUTHORIZED']),
    },
  },
} as const;

export async function metrics(
  request: RequestOf<typeof metricsRoute.schema>,
  reply: ReplyOf<typeof metricsRoute.schema>,
) {
  const { services } = request.server;
  const token = services.config.METRICS_TOKEN;
  if (token && !bearerMatches(request.headers.authorization, Buffer.from(token))) {
    throw new AppError('UNAUTHORIZED', 'Metrics need "Authorization: Bearer <METRICS_TOKEN>".');
  }
  await readQueueDepths(services, request.log);
  await readKeyUsage(services, request.log);
  readSourceHealth(services);
  reply.header('content-type', services.metrics.registry.contentType);
  return services.metrics.registry.metrics();
}

async function readQueueDepths({ boss, metrics }: Services, log: FastifyBaseLogger) {
  for (const name of Object.values(QUEUES)) {
    // Bounded like the readiness checks: a hung queue database must not hang the scrape.
    try {
      const stats = await withTimeout(boss.getQueueStats(name), 2000, `queue ${name} statistics`);
      metrics.queueDepth.set(
        { queue: name },
        stats.reduce((sum, s) => sum + s.queuedCount, 0),
      );
    } catch (error) {
      // Unknown is not 0: drop the series (Prometheus reads an absent sample as "no data")
      // rather than report an empty queue that may be full.
      metrics.queueDepth.remove({ queue: name });
      log.warn({ err: error, queue: name }, 'queue depth unavailable');
    }
  }
}

async function readKeyUsage({ keyPool, metrics }: Services, log: FastifyBaseLogger) {
  const keys = await keyPool.status().catch((error: unknown) => {
    // The per-key series keep their last values; the scrape still answers.
    log.warn({ err: error }, 'key pool status unavailable');
    return [];
  });
  metrics.upstreamKeyUnitsRemaining.reset(); // a key's state label changes: drop the old series
  for (const key of keys) {
    metrics.upstreamKeyUnitsUsed.set({ key: key.label }, key.unitsUsed);
    metrics.upstreamKeyUnitsRemaining.set({ key: key.label, state: key.state }, key.unitsRemaining);
  }
}

/** Each source's health as gauges: read from the process's own tracker at scrape time. */
function readSourceHealth({ health, metrics }: Services) {
  metrics.sourceSuccessRatio.reset();
  metrics.sourceLastError.reset(); // only the last class stays
  for (const view of health.view()) {
    if (view.successRate !== null) metrics.sourceSuccessRatio.set({ source: view.source }, view.successRate);
    for (const [call, state] of Object.entries(view.breakers))
      metrics.sourceBreakerOpen.set({ source: view.source, call }, state === 'open' ? 1 : 0);
    if (view.lastError)
      metrics.sourceLastError.set(
        { source: view.source, class: view.lastError.class },
        Date.parse(view.lastError.at) / 1000,
      );
  }
}
