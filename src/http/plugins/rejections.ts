// Counts the calls a metered route (config.rateLimited) refused without recording a request row:
// 4xx other than 401/403 (those never reach the limiter). See domain/requests/rejections.ts
// for why they are counted in memory and flushed, not inserted one by one.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { FLUSH_INTERVAL_MS, RejectionCounter } from '../../domain/requests/rejections.ts';
import { wasRecorded } from '../../domain/requests/recorded-failures.ts';
import { classify } from './error-handler.ts';

export const rejections = fp(
  async (app: FastifyInstance) => {
    const counter = new RejectionCounter(app.services.db, (error) =>
      app.log.warn({ err: error }, 'rejected-call counts not flushed; kept for the next flush'),
    );
    app.decorate('rejections', counter);
    // The code each refused request answered with; a failure written as a request row is not counted.
    const codes = new WeakMap<FastifyRequest, string | null>();

    app.addHook('onError', async (request, _reply, error) => {
      if (!request.routeOptions.config?.rateLimited) return;
      codes.set(request, wasRecorded(error) ? null : classify(error as FastifyError).code);
    });

    app.addHook('onResponse', async (request, reply) => {
      const status = reply.statusCode;
      if (status < 400 || status >= 500 || status === 401 || status === 403) return;
      if (!request.routeOptions.config?.rateLimited || !request.account) return;
      const code = codes.get(request);
      if (code === null) return;
      // The service's clock (injected in tests), as the limiter's windows and the request rows use: a refusal counts
      // on their day.
      counter.count({
        accountId: request.account.id,
        apiKeyId: request.caller?.keyId ?? null,
        httpStatus: status,
        errorCode: code ?? `HTTP_${status}`,
        at: new Date(app.services.clock()),
      });
    });

    const timer = setInterval(() => void counter.flush(), FLUSH_INTERVAL_MS);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await counter.flush();
    });
  },
  { name: 'rejections', dependencies: ['authenticate'] },
);
