// API keys (/keys): create, list, usage per key, revoke; one operation per file in keys/ (the list
// and the usage per key together). Every key route needs a dashboard session.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createKey, createKeyRoute } from './keys/create.ts';
import { keyUsage, keyUsageRoute, listKeys, listKeysRoute } from './keys/list.ts';
import { revokeKey, revokeKeyRoute } from './keys/revoke.ts';

export const keyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({ ...createKeyRoute, handler: createKey });
  app.route({ ...listKeysRoute, handler: listKeys });
  app.route({ ...keyUsageRoute, handler: keyUsage });
  app.route({ ...revokeKeyRoute, handler: revokeKey });
};
