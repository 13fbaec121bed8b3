// Renders every error as docs/spec.md's body: {error, message, requestId}, plus success:false on the
// shorts routes. Known infrastructure outages answer 503 instead of 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { errorResponse, failureResponse } from '../schemas/responses.ts';
import fp from 'fastify-plugin';
import { AppError, ERROR_CATALOG, type ErrorCode } from '../../errors.ts';
import { isRedisUnavailable } from '../../infra/redis.ts';
import { isDatabaseUnavailable } from '../../infra/db/unavailable.ts';
import { newRequestId } from '../request-id.ts';
import type { Duplex } from 'node:stream';

// Not `import … from 'node:http'`: an ES import of a built-in module fills in every export of its
// namespace, and node:http's include WebSocket and MessageEvent, which load Node's internal copy of
// undici (~3 MiB for good; the service makes its calls with the undici package).
const { STATUS_CODES } = process.getBuiltinModule('node:http');

// What a field's value means, added to its validation error: "must be integer" alone does not say
// that a date is wanted in milliseconds (not seconds, not ISO 8601).
const FIELD_HINTS: Record<string, string> = {
  oldestDate: 'Unix milliseconds, e.g. 1735689600000 for 2025-01-01T00:00:00Z',
};

function hintFor(where: string): string {
  const hint = FIELD_HINTS[where.split('.').pop() ?? ''];
  return hint ? ` (${hint})` : '';
}

export function classify(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  if (error.validation) {
    const detail = error.validation
      // TypeBox reports an unknown field twice; the additionalProperties entry says it best.
      .filter((v) => v.keyword !== 'boolean')
      .map((v) => {
        const where = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.');
        const params = (v.params ?? {}) as { requiredProperties?: string[]; additionalProperties?: string[] };
        if (v.keyword === 'required' && params.requiredProperties)
          return `${params.requiredProperties.map((p) => (where ? `${where}.${p}` : p)).join(', ')} is required`;
        if (v.keyword === 'additionalProperties' && params.additionalProperties)
          return `unknown field ${params.additionalProperties.join(', ')}`;
        const allowed = (v.params as { allowedValues?: unknown[] } | undefined)?.allowedValues;
        if (v.keyword === 'enum' && allowed)
          return `${where || error.validationContext || 'body'} must be one of ${allowed.join(', ')}`;
        return `${where || error.validationContext || 'body'} ${v.message}${hintFor(where)}`;
      })
      .join('; ');
    return new AppError('VALIDATION_FAILED', `Invalid ${error.validationContext ?? 'request'}: ${detail}.`);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(
        'INVALID_JSON',
        error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'The JSON body is empty.'
          : 'The request body is not valid JSON.',
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE');
  }
  if ((error as { type?: string }).type === 'entity.parse.failed' || error instanceof SyntaxError)
    return new AppError('INVALID_JSON');
  if (isUnstorableText(error))
    return new AppError(
      'VALIDATION_FAILED',
      'A text field contains characters that cannot be stored (NUL or unpaired surrogates).',
    );
  if (isRedisUnavailable(error) || isDatabaseUnavailable(error))
    return new AppError('SERVICE_UNAVAILABLE', undefined, { headers: { 'retry-after': '5' } });
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    const code =
      (Object.keys(ERROR_CATALOG) as ErrorCode[]).find((c) => ERROR_CATALOG[c].status === error.statusCode) ??
      'VALIDATION_FAILED';
    return new AppError(code, error.message);
  }
  return new AppError('INTERNAL_ERROR');
}

/** Text PostgreSQL cannot store (a backstop: the input guard refuses it before it gets here). */
function isUnstorableText(error: unknown): boolean {
  return ['22021', '22P05', '54000'].includes((error as { code?: string } | null)?.code ?? '');
}

function errorBody(code: ErrorCode, requestId: string, message?: string) {
  return { error: code, message: message ?? ERROR_CATALOG[code].message, requestId };
}

/**
 * Every /api/youtube/… route answers failures with success:false (its config says failureBody);
 * errors raised before a route is found go by the path, so they answer the same (a bad percent-encoding or a too long
 * id there got the plain body).
 */
const FAILURE_BODY_PREFIX = '/api/youtube/';

/** Errors Fastify's router raises before any route or hook runs (bad percent-encoding, a too long parameter). */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const code: ErrorCode =
    error.code === 'FST_ERR_BAD_URL'
      ? 'INVALID_URL'
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'URI_TOO_LONG'
        : 'INTERNAL_ERROR';
  if (code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'request failed');
  else request.log.info({ code }, error.message);
  const body = errorBody(code, request.id);
  reply
    .code(ERROR_CATALOG[code].status)
    .header('x-request-id', request.id)
    .send(request.url.startsWith(FAILURE_BODY_PREFIX) ? { success: false, ...body } : body);
}

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (malformed HTTP, headers too
 * large, a client too slow): answered with the same JSON body and an X-Request-Id, then closed.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: ErrorCode =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 'REQUEST_TIMEOUT'
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? 'HEADERS_TOO_LARGE'
        : error.code === 'HPE_URI_TOO_LONG'
          ? 'URI_TOO_LONG'
          : 'BAD_REQUEST';
  const requestId = newRequestId();
  this.log.debug({ code, parserError: error.code, requestId }, 'client error');
  const body = JSON.stringify(errorBody(code, requestId));
  const status = ERROR_CATALOG[code].status;
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; ` +
        `charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: ` +
        `close\r\n\r\n${body}`,
    );
    setTimeout(() => socket.destroy(), 1000).unref();
  } else {
    socket.destroy();
  }
}

/** The longest path parameter the router takes (414 URI_TOO_LONG beyond; logging.ts sets it). */
export const MAX_PARAM_LENGTH = 800;

export const errorHandler = fp(async (app: FastifyInstance) => {
  // Errors raised before a handler runs, documented on every route they can reach: a client reading
  // the document must find every status it can be answered with.
  app.addHook('onRoute', (route: RouteOptions) => {
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (!response) return;
    const respond =
      route.config?.failureBody || route.url.startsWith(FAILURE_BODY_PREFIX) ? failureResponse : errorResponse;
    if (route.schema?.body) {
      response[413] ??= respond('The body is over 64 KiB.', ['PAYLOAD_TOO_LARGE']);
      response[415] ??= respond('The body is not sent as application/json.', ['UNSUPPORTED_MEDIA_TYPE']);
    }
    if (route.schema?.params)
      response[414] ??= respond(`A path parameter is over ${MAX_PARAM_LENGTH} characters.`, ['URI_TOO_LONG']);
    // The input guard reads every route's query string (input-guard.ts).
    response[400] ??= respond('The query string holds a NUL character or an unpaired surrogate.', [
      'VALIDATION_FAILED',
    ]);
  });
  app.setErrorHandler(async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = classify(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: appError.code }, appError.message);
    reply.code(appError.status).headers(appError.headers);
    const base = { error: appError.code, message: appError.message, requestId: request.id };
    return request.routeOptions.config?.failureBody ? { success: false, ...base } : base;
  });
  app.setNotFoundHandler(async (request, reply) => {
    reply.code(404).header('x-request-id', request.id);
    const body = {
      error: 'NOT_FOUND',
      message: `No route ${request.method} ${request.url.split('?')[0]}.`,
      requestId: request.id,
    };
    return request.url.startsWith(FAILURE_BODY_PREFIX) ? { success: false, ...body } : body;
  });
});
