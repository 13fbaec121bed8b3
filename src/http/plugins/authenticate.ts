// Bearer authentication, in onRequest so rejected calls cost no body parsing. Order matches the
// design: authenticate → rate limit (plugins/rate-limit.ts, registered right after) → validate.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../errors.ts';

export const authenticate = fp(
  async (app: FastifyInstance) => {
    const { auth } = app.services;
    app.decorateRequest('caller', null);
    app.decorateRequest('account', null);
    app.addHook('onRequest', async (request: FastifyRequest, _reply: FastifyReply) => {
      const routeConfig = request.routeOptions.config;
      if (!routeConfig?.auth) return;
      // The caller and its account, each cached for CREDENTIAL_CACHE_MS: disabling an account reaches every instance
      // within it.
      const { caller, account } = await auth.identify(request.headers.authorization);
      if (!account) throw new AppError('UNAUTHORIZED', 'The account behind this credential no longer exists.');
      if (account.disabled_at) throw new AppError('FORBIDDEN', 'This account is disabled; contact support.');
      if (routeConfig.auth === 'session' && caller.via !== 'session')
        throw new AppError(
          'FORBIDDEN',
          'This resource needs a dashboard session (log in with POST /auth/login); API keys may not use it.',
        );
      if (routeConfig.scope && caller.scopes && !caller.scopes.includes(routeConfig.scope)) {
        throw new AppError(
          'FORBIDDEN',
          `This API key lacks the scope "${routeConfig.scope}"; create a key with it in the dashboard.`,
        );
      }
      request.caller = caller;
      request.account = account;
    });
  },
  { name: 'authenticate' },
);

/** The authenticated caller; routes with config.auth always have one. */
export function callerOf(request: FastifyRequest) {
  if (!request.caller) throw new AppError('UNAUTHORIZED');
  return request.caller;
}
