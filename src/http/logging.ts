// Logging and server options shared by every process: the API server (app.ts, server.ts), the
// worker (which logs but serves no HTTP, so it must not load app.ts), the demo and the tests.
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { newRequestId } from './request-id.ts';
import { clientErrorHandler, frameworkErrors, MAX_PARAM_LENGTH } from './plugins/error-handler.ts';
import { parseTrustedProxies, type Config } from '../config.ts';

/**
 * The one redaction setting for every logger (server, worker, demo, tests): credentials in headers
 * and any field named like a secret are replaced before a line is written.
 */
export const LOG_REDACT = {
  paths: [
    'req.headers.authorization',
    'req.headers.cookie',
    'req.headers["x-channel-shorts-call-source"]',
    'res.headers["set-cookie"]',
    '*.password',
    '*.token',
    '*.key',
    '*.secret',
  ],
  censor: '[redacted]',
};

/** A URL for the logs: the query string may carry credentials (?api_key=…), so it is never logged. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  // The WebSub callback's last segment is a secret token (domain/watches/websub.ts): whoever read it
  // in the logs could forge the hub's verifications.
  const shown = path.startsWith(WEBSUB_CALLBACK)
    ? path.replace(/^(\/websub\/youtube\/[^/]*\/)[^/]+/, '$1[redacted]')
    : path;
  return q === -1 ? shown : `${shown}?[redacted]`;
}
const WEBSUB_CALLBACK = '/websub/youtube/';

/**
 * One log line per request, written when the response is done, with what Fastify's two default
 * lines ('incoming request', 'request completed') carried between them. Each line is a synchronous
 * write on the request's thread; the second one was ~3 % of the hot path's CPU.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error)
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

type SecurityConfig = Pick<Config, 'TRUSTED_PROXIES' | 'HTTP_HEADERS_TIMEOUT_MS' | 'HTTP_REQUEST_TIMEOUT_MS'>;
const SECURITY_DEFAULTS: SecurityConfig = {
  TRUSTED_PROXIES: '',
  HTTP_HEADERS_TIMEOUT_MS: 10_000,
  HTTP_REQUEST_TIMEOUT_MS: 30_000,
};

export function fastifyOptions(
  logger: FastifyServerOptions['logger'],
  config: SecurityConfig = SECURITY_DEFAULTS,
): FastifyServerOptions {
  const proxies = parseTrustedProxies(config.TRUSTED_PROXIES);
  const withSerializers =
    logger && typeof logger === 'object'
      ? {
          ...logger,
          serializers: {
            req: (req: {
              method: string;
              url: string;
              host?: string;
              ip?: string;
              socket?: { remotePort?: number };
            }) => ({
              method: req.method,
              url: redactUrl(req.url),
              host: req.host,
              remoteAddress: req.ip,
              remotePort: req.socket?.remotePort,
            }),
          },
        }
      : logger;
  return {
    logger: withSerializers,
    genReqId: () => newRequestId(),
    logController: new OneLinePerRequest(),
    bodyLimit: 64 * 1024,
    // Path parameters: an email (254 characters, up to three times that percent-encoded) names a user
    // in the operator API; Fastify's default of 100 answered 414 for long ones.
    // Each route's schema bounds its own parameters below this.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Slow clients (docs/spec.md, security commitments): the request headers must arrive within
    // HTTP_HEADERS_TIMEOUT_MS and the whole request within HTTP_REQUEST_TIMEOUT_MS (defaults 10 s and 30 s). Node
    // checks these every connectionsCheckingInterval, so that is kept short for the limits to be what they say.
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    http: {
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: 500,
    },
    // X-Forwarded-For is believed only from the listed proxies; by default the TCP peer is the client.
    trustProxy: proxies.length > 0 ? proxies : false,
    frameworkErrors,
    clientErrorHandler,
  } as FastifyServerOptions;
}
