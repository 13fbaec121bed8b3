// The worker process's own /metrics and /healthz (WORKER_METRICS_PORT). Its counters — webhook
// attempts, upstream calls and units, InnerTube calls, watch checks, job wakeups — live in its
// process, which serves no HTTP otherwise: in scale-out they were never scraped.
// node:http, not Fastify: two fixed answers need no router, schemas or plugins.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { bearerMatches } from './metrics.ts';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

export async function serveMetrics(options: {
  registry: Registry;
  host: string;
  port: number;
  token: string | undefined;
  warn(err: unknown, msg: string): void;
}): Promise<MetricsServer> {
  const token = options.token ? Buffer.from(options.token) : null;
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const answer = (status: number, type: string, body: string) =>
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return answer(
        405,
        'application/json',
        JSON.stringify({ error: 'METHOD_NOT_ALLOWED', message: 'GET /metrics or /healthz.' }),
      );
    if (path === '/healthz') return answer(200, 'application/json', JSON.stringify({ status: 'ok' }));
    if (path !== '/metrics')
      return answer(
        404,
        'application/json',
        JSON.stringify({ error: 'NOT_FOUND', message: 'This worker serves GET /metrics and /healthz only.' }),
      );
    if (token && !bearerMatches(req.headers.authorization, token)) {
      return answer(
        401,
        'application/json',
        JSON.stringify({ error: 'UNAUTHORIZED', message: 'Metrics need "Authorization: Bearer <METRICS_TOKEN>".' }),
      );
    }
    options.registry.metrics().then(
      (text) => answer(200, options.registry.contentType, text),
      (error: unknown) => {
        options.warn(error, 'rendering the metrics failed');
        answer(
          500,
          'application/json',
          JSON.stringify({ error: 'INTERNAL_ERROR', message: 'Unexpected server error.' }),
        );
      },
    );
  });
  // A scraper that keeps its connection open must not hold the worker's stop.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
