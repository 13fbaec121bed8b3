// The caller's account (/accounts): credits, limits and usage; its usage per day; its webhook
// signing secrets; the health of its webhook destinations. One operation per file in accounts/ (the
// secrets' read and rotation together, the destinations' list and resume together).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getAccount, getAccountRoute } from './accounts/account.ts';
import { usage, usageRoute } from './accounts/usage.ts';
import { rotateSecret, rotateSecretRoute, webhookSecrets, webhookSecretsRoute } from './accounts/webhook-secret.ts';
import {
  resumeDestinationRoute,
  resumeWebhookDestination,
  webhookDestinations,
  webhookDestinationsRoute,
} from './accounts/webhook-destinations.ts';

export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({ ...getAccountRoute, handler: getAccount });
  app.route({ ...usageRoute, handler: usage });
  app.route({ ...webhookSecretsRoute, handler: webhookSecrets });
  app.route({ ...rotateSecretRoute, handler: rotateSecret });
  app.route({ ...webhookDestinationsRoute, handler: webhookDestinations });
  app.route({ ...resumeDestinationRoute, handler: resumeWebhookDestination });
};
