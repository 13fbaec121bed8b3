// X-Request-Id on every response, and the HTTP latency histogram by route and status.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const observe = fp(async (app: FastifyInstance) => {
  const { metrics } = app.services;
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
});
