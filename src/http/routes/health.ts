import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { bearerMatches } from '../../infra/metrics.ts';
import { QUEUES } from '../../infra/queue.ts';
import { withTimeout } from '../../infra/timeout.ts';
import { AppError } from '../../errors.ts';
import { errorResponse, json } from '../schemas/common.ts';
import { startupNotes } from '../../startup-notes.ts';

// The public answer names the store and its state only; the error itself goes to the logs (docs/spec.md, security commitments).
const Check = Type.Object({ status: Type.Union([Type.Literal('ok'), Type.Literal('down'), Type.Literal('disabled')]) });

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, redis, boss, metrics, config, keyPool } = app.services;
  // Configuration problems, as codes only: /readyz is public, the wording (and what to do) is in the
  // start-up log and the operator's dashboard (GET /operator/setup).
  const Setup = Type.Object({
    warnings: Type.Array(
      Type.Union([Type.Literal('NO_DATA_API_KEY'), Type.Literal('DATA_API_KEYS_REJECTED'), Type.Literal('NO_USERS')]),
      {
        description:
          'NO_DATA_API_KEY: the source needs a Data API key and none is set; DATA_API_KEYS_REJECTED: YouTube rejected a configured key; NO_USERS: nobody can sign in yet. Not decisive for readiness.',
      },
    ),
  });
  const metricsToken = config.METRICS_TOKEN ? Buffer.from(config.METRICS_TOKEN) : null;
  const Upstream = Type.Object({
    status: Type.Union(
      [Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('exhausted'), Type.Literal('down')],
      {
        description:
          'ok: every key usable; degraded: some keys resting or rejected; exhausted: no key has quota left today (stale results are served); down: every key rejected.',
      },
    ),
    keys: Type.Object({ active: Type.Integer(), exhausted: Type.Integer(), invalid: Type.Integer() }),
  });

  app.get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness: the process is up.',
        response: { 200: json('The process is up.', Type.Object({ status: Type.Literal('ok') })) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Readiness: database, queue and Redis (when configured) reachable.',
        response: {
          200: json(
            'Ready: every configured store answers.',
            Type.Object({
              status: Type.Literal('ok'),
              checks: Type.Object({ database: Check, queue: Check, redis: Check }),
              upstream: Type.Optional(Upstream),
              setup: Type.Optional(Setup),
            }),
          ),
          503: json(
            'Not ready: a store is down (named in checks).',
            Type.Object({
              status: Type.Literal('unavailable'),
              checks: Type.Object({ database: Check, queue: Check, redis: Check }),
              upstream: Type.Optional(Upstream),
              setup: Type.Optional(Setup),
            }),
          ),
        },
      },
    },
    async (request, reply) => {
      const check = async (name: string, probe: (() => Promise<unknown>) | null) => {
        if (!probe) return { status: 'disabled' as const };
        try {
          await withTimeout(probe(), 2000, name);
          return { status: 'ok' as const };
        } catch (error) {
          request.log.warn({ store: name, err: error }, 'readiness check failed');
          return { status: 'down' as const };
        }
      };
      const [database, queue, redisCheck] = await Promise.all([
        check('database', () => db.ping()),
        check('queue', () => boss.getQueue(QUEUES.webhookDelivery)),
        // A write, not a PING: a Redis that answers but refuses writes (at maxmemory, unable to save, a
        // replica after a failover) cannot serve the limits or the cache (found by review: ready meanwhile).
        check('redis', redis ? () => redis.set('readyz', '1', 'PX', 5000) : null),
      ]);
      const checks = { database, queue, redis: redisCheck };
      const ok = Object.values(checks).every((c) => c.status !== 'down');
      reply.code(ok ? 200 : 503);
      // The key pool does not decide readiness (stale results are still served), it is reported.
      const keys =
        database.status === 'ok' && keyPool.size > 0
          ? await keyPool.status().catch((error: unknown) => {
              // Reported, not decisive: without the pool's state the answer simply omits `upstream`.
              request.log.warn({ err: error }, 'key pool status unavailable');
              return undefined;
            })
          : undefined;
      const count = (state: string) => keys?.filter((k) => k.state === state).length ?? 0;
      const upstream = keys && {
        status:
          count('invalid') === keys.length
            ? ('down' as const)
            : keys.every((k) => k.unitsRemaining === 0)
              ? ('exhausted' as const)
              : count('active') < keys.length
                ? ('degraded' as const)
                : ('ok' as const),
        keys: { active: count('active'), exhausted: count('exhausted'), invalid: count('invalid') },
      };
      const notes =
        database.status === 'ok'
          ? await withTimeout(startupNotes(app.services), 2000, 'setup notes').catch((error: unknown) => {
              request.log.warn({ err: error }, 'setup notes unavailable');
              return undefined;
            })
          : undefined;
      const warnings = notes?.flatMap((n) =>
        n.code === 'NO_DATA_API_KEY' || n.code === 'DATA_API_KEYS_REJECTED' || n.code === 'NO_USERS' ? [n.code] : [],
      );
      return {
        status: ok ? ('ok' as const) : ('unavailable' as const),
        checks,
        ...(upstream ? { upstream } : {}),
        ...(warnings ? { setup: { warnings } } : {}),
      };
    },
  );

  app.get(
    '/metrics',
    {
      schema: {
        tags: ['operations'],
        summary:
          'Prometheus metrics. When the operator sets METRICS_TOKEN, send it as "Authorization: Bearer <METRICS_TOKEN>".',
        hide: false,
        // Declared as text/plain, as it is sent (the document said application/json: found by review).
        response: {
          200: {
            description: 'Prometheus text exposition format.',
            content: {
              'text/plain': {
                schema: Type.String({
                  examples: [
                    '# HELP http_request_duration_seconds Request latency\n# TYPE http_request_duration_seconds histogram\n',
                  ],
                }),
              },
            },
          },
          401: errorResponse('METRICS_TOKEN is set and was not sent.', ['UNAUTHORIZED']),
        },
      },
    },
    async (request, reply) => {
      if (metricsToken) {
        if (!bearerMatches(request.headers.authorization, metricsToken)) {
          throw new AppError('UNAUTHORIZED', 'Metrics need "Authorization: Bearer <METRICS_TOKEN>".');
        }
      }
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
          request.log.warn({ err: error, queue: name }, 'queue depth unavailable');
        }
      }
      // Per-key usage lives in the database (shared by every instance): read it at scrape time.
      const keys = await keyPool.status().catch((error: unknown) => {
        // The per-key series keep their last values; the scrape still answers.
        request.log.warn({ err: error }, 'key pool status unavailable');
        return [];
      });
      metrics.upstreamKeyUnitsRemaining.reset(); // a key's state label changes: drop the old series
      for (const key of keys) {
        metrics.upstreamKeyUnitsUsed.set({ key: key.label }, key.unitsUsed);
        metrics.upstreamKeyUnitsRemaining.set({ key: key.label, state: key.state }, key.unitsRemaining);
      }
      reply.header('content-type', metrics.registry.contentType);
      return metrics.registry.metrics();
    },
  );
};
