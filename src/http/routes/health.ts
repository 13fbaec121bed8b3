import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { QUEUES } from '../../infra/queue.ts';

const Check = Type.Object({ status: Type.Union([Type.Literal('ok'), Type.Literal('down'), Type.Literal('disabled')]), error: Type.Optional(Type.String()) });

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, redis, boss, metrics } = app.services;

  app.get('/healthz', {
    schema: { tags: ['operations'], summary: 'Liveness: the process is up.', response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
  }, async () => ({ status: 'ok' as const }));

  app.get('/readyz', {
    schema: {
      tags: ['operations'],
      summary: 'Readiness: database, queue and Redis (when configured) reachable.',
      response: {
        200: Type.Object({ status: Type.Literal('ok'), checks: Type.Object({ database: Check, queue: Check, redis: Check }) }),
        503: Type.Object({ status: Type.Literal('unavailable'), checks: Type.Object({ database: Check, queue: Check, redis: Check }) }),
      },
    },
  }, async (_request, reply) => {
    const check = async (probe: (() => Promise<unknown>) | null) => {
      if (!probe) return { status: 'disabled' as const };
      try {
        await Promise.race([probe(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out after 2 s')), 2000).unref())]);
        return { status: 'ok' as const };
      } catch (error) {
        return { status: 'down' as const, error: (error as Error).message };
      }
    };
    const [database, queue, redisCheck] = await Promise.all([
      check(() => db.ping()),
      check(() => boss.getQueue(QUEUES.webhookDelivery)),
      check(redis ? () => redis.ping() : null),
    ]);
    const checks = { database, queue, redis: redisCheck };
    const ok = Object.values(checks).every((c) => c.status !== 'down');
    reply.code(ok ? 200 : 503);
    return { status: ok ? ('ok' as const) : ('unavailable' as const), checks };
  });

  app.get('/metrics', { schema: { tags: ['operations'], summary: 'Prometheus metrics.', hide: false } }, async (_request, reply) => {
    for (const name of Object.values(QUEUES)) {
      const stats = await boss.getQueueStats(name).catch(() => []);
      const queued = stats.reduce((sum, s) => sum + s.queuedCount, 0);
      metrics.queueDepth.set({ queue: name }, queued);
    }
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
};
