// Fastify typing for our decorations and route config.
import type { Caller } from '../domain/auth/authenticator.ts';
import type { AccountRow } from '../domain/accounts/accounts.ts';
import type { Services } from '../services.ts';
import type {
  ContextConfigDefault,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteOptions,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { KeyScope } from '../domain/keys/scopes.ts';
import type { RejectionCounter } from '../domain/requests/rejections.ts';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    /** Every route as registered (onRoute), for the shared security suite. */
    routeTable: RouteOptions[];
    /** Refused calls of metered routes, counted per day (http/plugins/rejections.ts). */
    rejections: RejectionCounter;
  }
  interface FastifyRequest {
    caller: Caller | null;
    /** The caller's account as authentication read it (cached for CREDENTIAL_CACHE_MS). */
    account: AccountRow | null;
  }
  interface FastifyContextConfig {
    /** true: API key or session; 'session': only a dashboard session (JWT). */
    auth?: boolean | 'session';
    /** The scope an API key needs for this route (sessions have every scope). */
    scope?: KeyScope;
    /** Counted against the account's rate limits. */
    rateLimited?: boolean;
    /**
     * Counted by the calls it makes instead (the MCP server: each tool call is a REST call through
     * the app, counted in that call's own window).
     */
    innerCallsCounted?: boolean;
    /** Errors use the failure body of docs/spec.md ({success:false, error, message, requestId}). */
    failureBody?: boolean;
  }
}

/** The request a named handler of a route with this schema takes: params, query and body typed from the schema. */
export type RequestOf<S extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  S,
  TypeBoxTypeProvider
>;

/** The reply a named handler of a route with this schema takes: `code()` and `send()` typed by its responses. */
export type ReplyOf<S extends FastifySchema> = FastifyReply<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  ContextConfigDefault,
  S,
  TypeBoxTypeProvider
>;
