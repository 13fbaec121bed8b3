// Fastify typing for our decorations and route config.
import type { Caller } from '../domain/auth/authenticator.ts';
import type { AccountRow } from '../domain/accounts/accounts.ts';
import type { Services } from '../services.ts';
import type { RouteOptions } from 'fastify';
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
    /** Errors use the failure body of docs/spec.md ({success:false, error, message, requestId}). */
    failureBody?: boolean;
  }
}
