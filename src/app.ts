// Builds the HTTP app from ready services. Tests call buildApp() directly and use app.inject().
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './infra/paths.ts';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { fastifyOptions } from './http/logging.ts';
import { registerAjvFormats, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { validatorCompiler } from './http/validator.ts';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import './http/types.ts';
import type { Services } from './services.ts';
import { errorHandler } from './http/plugins/error-handler.ts';
import { securityHeaders } from './http/plugins/security-headers.ts';
import { inputGuard } from './http/plugins/input-guard.ts';
import { authenticate } from './http/plugins/authenticate.ts';
import { rateLimit } from './http/plugins/rate-limit.ts';
import { rejections } from './http/plugins/rejections.ts';
import { idempotency } from './http/plugins/idempotency.ts';
import { observe } from './http/plugins/observe.ts';
import { openApiDocument } from './http/openapi.ts';
import { docsUiOptions } from './http/docs-ui.ts';
import { authRoutes } from './http/routes/auth.ts';
import { keyRoutes } from './http/routes/keys.ts';
import { creditRoutes } from './http/routes/credits.ts';
import { accountRoutes } from './http/routes/accounts.ts';
import { shortsRoutes } from './http/routes/shorts.ts';
import { shortsFeatureRoutes } from './http/routes/shorts-features.ts';
import { requestsLogRoutes } from './http/routes/requests-log.ts';
import { healthRoutes } from './http/routes/health.ts';
import { operatorRoutes } from './http/routes/operator.ts';
import { signupRoutes } from './http/routes/signup.ts';
import { setupRoutes } from './http/routes/setup.ts';
import { pricingRoutes } from './http/routes/pricing.ts';
import { watchRoutes } from './http/routes/watches.ts';
import { statsRoutes } from './http/routes/stats.ts';
import { websubRoutes } from './http/routes/websub.ts';
import { mcpRoutes } from './http/routes/mcp.ts';
import { llmsRoutes } from './http/routes/llms.ts';

const DASHBOARD_DIR = join(ROOT, 'web', 'dist');

registerAjvFormats();

export async function buildApp(
  services: Services,
  options: FastifyServerOptions = fastifyOptions(false, services.config),
): Promise<FastifyInstance> {
  const app = Fastify(options).withTypeProvider<TypeBoxTypeProvider>();
  // Bodies are JSON (and the WebSub hub's Atom, on its own routes): a text/plain body is refused
  // with 415 like any other type, not parsed as a string and refused as a malformed body (400).
  app.removeContentTypeParser('text/plain');
  // Every route, as registered: the shared security suite (test/security/) iterates over it.
  const routeTable: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routeTable.push(route);
  });
  app.decorate('routeTable', routeTable);
  // TypeBox validation: query strings and params are converted to their declared types, bodies are
  // taken as sent (no silent coercion of "123" into a number).
  app.setValidatorCompiler(validatorCompiler);
  app.decorate('services', services);
  await app.register(errorHandler);
  await app.register(observe);
  await app.register(securityHeaders);
  await app.register(inputGuard);
  await app.register(swagger, openApiDocument(services.config));
  await app.register(swaggerUi, docsUiOptions());
  await app.register(authenticate);
  await app.register(rateLimit);
  await app.register(rejections);
  await app.register(idempotency);
  await app.register(authRoutes);
  await app.register(keyRoutes);
  await app.register(accountRoutes);
  await app.register(creditRoutes);
  await app.register(shortsRoutes);
  await app.register(shortsFeatureRoutes);
  await app.register(requestsLogRoutes);
  await app.register(healthRoutes);
  await app.register(operatorRoutes);
  await app.register(signupRoutes);
  await app.register(setupRoutes);
  await app.register(pricingRoutes);
  await app.register(watchRoutes);
  await app.register(statsRoutes);
  await app.register(websubRoutes);
  await app.register(mcpRoutes);
  await app.register(llmsRoutes);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  if (existsSync(DASHBOARD_DIR)) {
    await app.register(fastifyStatic, { root: DASHBOARD_DIR, prefix: '/dashboard/', index: 'index.html' });
    app.get('/dashboard', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard/'));
    // The setup link the service prints (`?token=`) opens the dashboard's setup page, whose router reads the hash.
    app.get<{ Querystring: { token?: string } }>(
      '/dashboard/setup',
      { schema: { hide: true } },
      async (request, reply) =>
        reply.redirect(`/dashboard/#/setup/${encodeURIComponent(String(request.query.token ?? ''))}`),
    );
    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard/'));
  } else {
    app.get('/', { schema: { hide: true } }, async () => ({
      name: 'channel-shorts',
      docs: '/docs',
      openapi: '/openapi.json',
      dashboard: 'not built: run npm run prepare',
    }));
  }
  return app;
}
