// Idempotent retries of the POSTs that charge or create (routes marked config.idempotent): a call sent
// with an Idempotency-Key claims the key after authentication, rate limiting and validation (preHandler);
// its answer is stored as it is sent (onSend, or rememberAnswer for a hijacked reply). A retry with the
// same key and request gets that answer (status, body, request id; header Idempotent-Replayed: true) and
// runs nothing; another request under the key is 422 IDEMPOTENCY_KEY_REUSED; a retry while the first
// still runs is 409 IDEMPOTENCY_IN_PROGRESS with Retry-After.
//
// Not stored, so a retry runs again: 5xx (the call failed on our side or upstream's, nothing charged)
// and 429 (a limit said "later"). Every other answer of the handler is the call's outcome and is kept.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import { AppError, type ErrorCode } from '../../errors.ts';
import {
  claimKey,
  type KeyRef,
  releaseKey,
  requestHash,
  type StoredAnswer,
  storeAnswer,
} from '../../domain/idempotency/idempotency-keys.ts';
import { errorResponse, failureResponse } from '../schemas/responses.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this call claimed and has not yet answered. */
    idempotencyClaim: KeyRef | null;
  }
  interface FastifyContextConfig {
    /** Takes an Idempotency-Key: a retry with the same key and body gets the first answer back. */
    idempotent?: boolean;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** What a retry that finds the first call still running waits, in seconds. */
const IN_PROGRESS_RETRY_AFTER = '1';
/** The headers that belong to an answer (the rest — rate limits, security headers — are the retry's own). */
const STORED_HEADERS = ['content-type', 'location', 'retry-after', 'cache-control'];
/** The operator token has no account: its keys are kept under this name. */
const OPERATOR_TOKEN_OWNER = 'operator-token';

/** The header as the document and the validator see it: printable ASCII, up to 255 characters. */
export const IDEMPOTENCY_KEY_SCHEMA = {
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x21-\\x7E]+$',
  description:
    'A unique value per intended call (a UUID), kept per account: a retry with the same key and body within ' +
    '24 h answers what the first call answered (status, body, requestId) with Idempotent-Replayed: true and ' +
    'charges nothing more; the same key with another body is 422 IDEMPOTENCY_KEY_REUSED, and a retry while the ' +
    'first call still runs is 409 IDEMPOTENCY_IN_PROGRESS with Retry-After.',
};
const IdempotencyKeyHeader = Type.String(IDEMPOTENCY_KEY_SCHEMA);

export const idempotency = fp(
  async (app: FastifyInstance) => {
    const { db, clock } = app.services;
    app.decorateRequest('idempotencyClaim', null);
    app.addHook('onRoute', documentIdempotency);

    app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!request.routeOptions.config?.idempotent) return;
      const key = request.headers[IDEMPOTENCY_HEADER];
      const owner = ownerOf(request);
      if (typeof key !== 'string' || owner === null) return;
      const ref = { owner, key, requestId: request.id };
      const hash = requestHash({
        method: request.method,
        route: request.routeOptions.url ?? request.url,
        params: request.params,
        query: request.query,
        body: request.body,
      });
      const claim = await claimKey(db, ref, hash, clock());
      if (claim.outcome === 'claimed') request.idempotencyClaim = ref;
      else if (claim.outcome === 'replay') return replay(request, reply, claim.answer);
      else if (claim.outcome === 'reused') throw new AppError('IDEMPOTENCY_KEY_REUSED');
      else
        throw new AppError('IDEMPOTENCY_IN_PROGRESS', undefined, {
          headers: { 'retry-after': IN_PROGRESS_RETRY_AFTER },
        });
    });

    app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (!request.idempotencyClaim) return payload;
      const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
      await settleClaim(request, reply.statusCode, reply.getHeaders(), text);
      return payload;
    });

    // An answer that never passed onSend (the connection broke first, a hook threw): a retry runs again.
    app.addHook('onResponse', async (request: FastifyRequest) => {
      if (request.idempotencyClaim) await settleClaim(request, 500, {}, null);
    });
  },
  { name: 'idempotency', dependencies: ['authenticate'] },
);

/**
 * Stores the answer of a reply written without reply.send (send-rendered.ts hijacks it): called with the
 * body before it is written, so a retry that arrives once the client has it finds it stored.
 */
export async function rememberAnswer(reply: FastifyReply, status: number, body: () => string): Promise<void> {
  const request = reply.request;
  if (request.idempotencyClaim) await settleClaim(request, status, reply.getHeaders(), body());
}

async function settleClaim(
  request: FastifyRequest,
  status: number,
  headers: Record<string, unknown>,
  body: string | null,
): Promise<void> {
  const ref = request.idempotencyClaim!;
  request.idempotencyClaim = null;
  const { db, answerSeal } = request.server.services;
  if (status >= 500 || status === 429 || body === null) return releaseKey(db, ref);
  const kept: Record<string, string> = {};
  for (const name of STORED_HEADERS) if (headers[name] !== undefined) kept[name] = String(headers[name]);
  // A hijacked reply sets its content type on the raw response, past reply.getHeaders().
  kept['content-type'] ??= 'application/json; charset=utf-8';
  await storeAnswer(db, ref, { status, headers: kept, body: answerSeal.seal(body) });
}

function replay(request: FastifyRequest, reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  const body = request.server.services.answerSeal.open(answer.body);
  // Sealed under another secret (JWT_SECRET was changed): the answer is lost, and running the call again could
  // charge it twice.
  if (body === null) throw new Error(`the answer kept for ${answer.requestId} cannot be opened`);
  request.log.info({ replayOf: answer.requestId }, 'idempotent replay');
  return reply
    .code(answer.status)
    .headers(answer.headers)
    .header('x-request-id', answer.requestId)
    .header('idempotent-replayed', 'true')
    .send(Buffer.from(body, 'utf8'));
}

/** Whose key it is: the caller's account, or the operator token (operator routes authenticate on their own). */
function ownerOf(request: FastifyRequest): string | null {
  if (request.account) return request.account.id;
  const operator = (request as { operator?: { accountId: string | null } | null }).operator;
  if (!operator) return null;
  return operator.accountId ?? OPERATOR_TOKEN_OWNER;
}

/** The header parameter and the two answers it adds, on every route that takes it. */
function documentIdempotency(route: RouteOptions): void {
  if (!route.config?.idempotent || !route.schema) return;
  const schema = route.schema as { headers?: unknown; response?: Record<string, unknown> };
  schema.headers = Type.Object({ [IDEMPOTENCY_HEADER]: Type.Optional(IdempotencyKeyHeader) });
  const response = schema.response;
  if (!response) return;
  const respond = route.config.failureBody ? failureResponse : errorResponse;
  addAnswer(response, 409, respond, 'A call with this Idempotency-Key is still running; see Retry-After.', [
    'IDEMPOTENCY_IN_PROGRESS',
  ]);
  addAnswer(response, 422, respond, 'The Idempotency-Key was used with another request.', ['IDEMPOTENCY_KEY_REUSED']);
}

type Respond = typeof errorResponse;
type JsonResponse = ReturnType<Respond>;

function addAnswer(
  response: Record<string, unknown>,
  status: 409 | 422,
  respond: Respond,
  description: string,
  codes: ErrorCode[],
): void {
  const added = respond(description, codes);
  const own = response[status] as JsonResponse | undefined;
  // A schema object shared by two apps in one process is seen twice.
  if (own && codes.every((code) => own.content['application/json'].examples?.[code])) return;
  if (!own) {
    response[status] = added;
    return;
  }
  const media = own.content['application/json'];
  response[status] = {
    ...own,
    description: `${own.description} Or: ${description}`,
    content: {
      'application/json': {
        ...media,
        examples: { ...media.examples, ...added.content['application/json'].examples },
      },
    },
  };
}
