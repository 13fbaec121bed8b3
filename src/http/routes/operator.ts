// The operator API (/operator/...): users, credits, limits, activity, the audit log, invitations and
// doctor. Callers are an operator's dashboard session or the OPERATOR_TOKEN (the CLI against a
// running service); everyone else gets 401/403. One operation per file in operator/; thin: every
// use case is in src/domain/operators. Registered in this order, which the OpenAPI document keeps.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticateOperator } from '../../domain/operators/operator-auth.ts';
import type { OperatorActor } from './operator/common.ts';
import { me, meRoute } from './operator/me.ts';
import { listUsers, listUsersRoute } from './operator/list-users.ts';
import { createUser, createUserRoute } from './operator/create-user.ts';
import { getUser, getUserRoute } from './operator/get-user.ts';
import {
  userDeliveries,
  userDeliveriesRoute,
  userLedger,
  userLedgerRoute,
  userRequests,
  userRequestsRoute,
} from './operator/user-history.ts';
import { disableUser, disableUserRoute, enableUser, enableUserRoute } from './operator/user-disabled.ts';
import { setRole, setRoleRoute } from './operator/user-role.ts';
import { adjustCredits, adjustCreditsRoute } from './operator/user-credits.ts';
import { resetLimits, resetLimitsRoute, setLimits, setLimitsRoute } from './operator/user-limits.ts';
import { listAuditEntries, listAuditRoute } from './operator/audit.ts';
import {
  createInvitation,
  createInvitationRoute,
  listInvitationsPage,
  listInvitationsRoute,
} from './operator/invitations.ts';
import { doctor, doctorRoute } from './operator/doctor.ts';
import { setup, setupRoute } from './operator/setup.ts';
import { quota, quotaRoute } from './operator/quota.ts';

declare module 'fastify' {
  interface FastifyRequest {
    operator: OperatorActor | null;
  }
  interface FastifyContextConfig {
    /** An operator route: guarded by the operator hook below (not by config.auth), for route-table tools. */
    operator?: boolean;
  }
}

export const operatorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, auth, config } = app.services;
  // Encapsulated: this hook guards the routes of this plugin only; each is marked config.operator.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, operator: true };
  });
  app.decorateRequest('operator', null);
  app.addHook('onRequest', async (request) => {
    request.operator = await authenticateOperator(
      { db, auth, operatorToken: config.OPERATOR_TOKEN },
      request.headers.authorization,
    );
  });

  app.route({ ...meRoute, handler: me });
  app.route({ ...listUsersRoute, handler: listUsers });
  app.route({ ...createUserRoute, handler: createUser });
  app.route({ ...getUserRoute, handler: getUser });
  app.route({ ...userLedgerRoute, handler: userLedger });
  app.route({ ...userRequestsRoute, handler: userRequests });
  app.route({ ...userDeliveriesRoute, handler: userDeliveries });
  app.route({ ...disableUserRoute, handler: disableUser });
  app.route({ ...enableUserRoute, handler: enableUser });
  app.route({ ...setRoleRoute, handler: setRole });
  app.route({ ...adjustCreditsRoute, handler: adjustCredits });
  app.route({ ...setLimitsRoute, handler: setLimits });
  app.route({ ...resetLimitsRoute, handler: resetLimits });
  app.route({ ...listAuditRoute, handler: listAuditEntries });
  app.route({ ...createInvitationRoute, handler: createInvitation });
  app.route({ ...listInvitationsRoute, handler: listInvitationsPage });
  app.route({ ...doctorRoute, handler: doctor });
  app.route({ ...setupRoute, handler: setup });
  app.route({ ...quotaRoute, handler: quota });
};
