// Builds the HTTP app from ready services. Tests call buildApp() directly and use app.inject().
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { registerAjvFormats, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { validatorCompiler } from './http/validator.ts';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import './http/types.ts';
import type { Services } from './services.ts';
import { newRequestId } from './http/request-id.ts';
import { errorHandler } from './http/plugins/error-handler.ts';
import { authenticate } from './http/plugins/authenticate.ts';
import { observe } from './http/plugins/observe.ts';
import { openApiDocument } from './http/openapi.ts';
import { authRoutes } from './http/routes/auth.ts';
import { keyRoutes } from './http/routes/keys.ts';
import { accountRoutes } from './http/routes/accounts.ts';
import { shortsRoutes } from './http/routes/shorts.ts';
import { shortsFeatureRoutes } from './http/routes/shorts-features.ts';
import { healthRoutes } from './http/routes/health.ts';

const DASHBOARD_DIR = fileURLToPath(new URL('../web/dist/', import.meta.url));

export const LOG_REDACTIONS = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.token', '*.key', '*.secret'];

registerAjvFormats();

export function fastifyOptions(logger: FastifyServerOptions['logger']): FastifyServerOptions {
  return {
    logger,
    genReqId: () => newRequestId(),
    bodyLimit: 64 * 1024,
    // A client gets 30 s to send its (small) request; slow senders cannot hold connections forever.
    requestTimeout: 30_000,
    trustProxy: true,
  };
}

export async function buildApp(services: Services, options: FastifyServerOptions = fastifyOptions(false)): Promise<FastifyInstance> {
  const app = Fastify(options).withTypeProvider<TypeBoxTypeProvider>();
  // TypeBox validation: query strings and params are converted to their declared types, bodies are
  // taken as sent (no silent coercion of "123" into a number).
  app.setValidatorCompiler(validatorCompiler);
  app.decorate('services', services);
  await app.register(errorHandler);
  await app.register(observe);
  await app.register(swagger, openApiDocument(services.config));
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await app.register(authenticate);
  await app.register(authRoutes);
  await app.register(keyRoutes);
  await app.register(accountRoutes);
  await app.register(shortsRoutes);
  await app.register(shortsFeatureRoutes);
  await app.register(healthRoutes);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  if (existsSync(DASHBOARD_DIR)) {
    await app.register(fastifyStatic, { root: DASHBOARD_DIR, prefix: '/dashboard/', index: 'index.html' });
    app.get('/dashboard', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard/'));
    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard/'));
  } else {
    app.get('/', { schema: { hide: true } }, async () => ({ name: 'channel-shorts', docs: '/docs', openapi: '/openapi.json', dashboard: 'not built: run npm run prepare' }));
  }
  return app;
}
