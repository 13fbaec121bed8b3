// The operator API (/operator/...): users, credits, limits, activity, the audit log, invitations and
// doctor. Callers are an operator's dashboard session or the OPERATOR_TOKEN (the CLI against a
// running service); everyone else gets 401/403. Thin: every use case is in src/domain/operators.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../domain/operators/audit.ts';
import { listAudit } from '../../domain/operators/audit.ts';
import { authenticateOperator } from '../../domain/operators/operator-auth.ts';
import { adjustCredits, createUser, findUser, listUserDeliveries, searchUsers, setUserDisabled, setUserLimits, setUserRole, userView } from '../../domain/operators/users.ts';
import { createInvitation, listInvitations } from '../../domain/operators/invitations.ts';
import { ownLockStatus, runDoctor } from '../../domain/operators/doctor.ts';
import { listLedger } from '../../domain/credits/ledger.ts';
import { accountTotals, listRequests, usageByDay } from '../../domain/requests/request-store.ts';
import { ErrorBody, Nullable } from '../schemas/common.ts';
import { nextQuotaDayStart } from '../../domain/quota/quota-day.ts';
import { defaultRateLimits } from '../../domain/limits/windows.ts';
import { startupNotes } from '../../startup-notes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    operator: (Actor & { via: 'token' | 'session' }) | null;
  }
  interface FastifyContextConfig {
    /** An operator route: guarded by the operator hook below (not by config.auth), for route-table tools. */
    operator?: boolean;
  }
}

const Role = Type.Union([Type.Literal('customer'), Type.Literal('operator')]);
const Limits = Type.Object({ perMinute: Type.Integer(), perHour: Type.Integer(), perDay: Type.Integer() });
const User = Type.Object({
  id: Type.String({ format: 'uuid' }),
  email: Type.String(),
  role: Role,
  credits: Type.Integer(),
  disabledAt: Nullable(Type.String({ format: 'date-time' })),
  createdAt: Type.String({ format: 'date-time' }),
  limitOverrides: Type.Object({ perMinute: Nullable(Type.Integer()), perHour: Nullable(Type.Integer()), perDay: Nullable(Type.Integer()) }, { description: 'Per-account overrides; null = the default.' }),
  rateLimits: Limits,
});
const UserParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 254, description: 'The user\'s id (or email).' }) });
const Reason = Type.String({ minLength: 1, maxLength: 500 });
const AuditEntry = Type.Object({
  id: Type.Integer(), actor: Type.String(), actorAccountId: Nullable(Type.String()), action: Type.String(), targetAccountId: Nullable(Type.String()), target: Nullable(Type.String()),
  reason: Nullable(Type.String()), before: Type.Unknown(), after: Type.Unknown(), createdAt: Type.String({ format: 'date-time' }),
});
const Invitation = Type.Object({
  id: Type.String(), email: Type.String(), credits: Type.Integer(), role: Role, createdBy: Type.String(),
  createdAt: Type.String({ format: 'date-time' }), expiresAt: Type.String({ format: 'date-time' }), acceptedAt: Nullable(Type.String({ format: 'date-time' })),
});
const LedgerEntry = Type.Object({
  id: Type.Integer(), kind: Type.Union([Type.Literal('grant'), Type.Literal('charge'), Type.Literal('deduct')]), amount: Type.Integer(), balanceAfter: Type.Integer(),
  requestId: Nullable(Type.String()), note: Nullable(Type.String()), createdAt: Type.String({ format: 'date-time' }),
});
const RequestSummary = Type.Object({
  requestId: Type.String(), createdAt: Type.String({ format: 'date-time' }), completedAt: Nullable(Type.String({ format: 'date-time' })), channelUrl: Type.String(),
  oldestDate: Nullable(Type.Integer()), webhookUrl: Nullable(Type.String()), mode: Type.Union([Type.Literal('sync'), Type.Literal('webhook')]),
  status: Type.Union([Type.Literal('processing'), Type.Literal('completed'), Type.Literal('failed')]), itemCount: Nullable(Type.Integer()), creditsCharged: Nullable(Type.Integer()), error: Nullable(Type.String()),
});
const Delivery = Type.Object({
  id: Type.Integer(), requestId: Type.String(), webhookId: Type.String(), attempt: Type.Integer(), startedAt: Type.String({ format: 'date-time' }),
  statusCode: Nullable(Type.Integer()), latencyMs: Nullable(Type.Integer()), outcome: Type.Union([Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('gone')]), error: Nullable(Type.String()),
});
const Severity = Type.Union([Type.Literal('ok'), Type.Literal('warn'), Type.Literal('breach')]);
const Doctor = Type.Object({
  ok: Type.Boolean(), checkedAt: Type.String({ format: 'date-time' }),
  findings: Type.Array(Type.Object({ check: Type.String(), severity: Severity, summary: Type.String(), details: Type.Array(Type.String()) })),
});

function operatorErrors() {
  return {
    400: { ...ErrorBody, description: 'Invalid input.' },
    401: { ...ErrorBody, description: 'Missing, invalid or expired credential.' },
    403: { ...ErrorBody, description: 'Not an operator (customers, API keys and disabled accounts are refused).' },
    404: { ...ErrorBody, description: 'No such user.' },
    409: { ...ErrorBody, description: 'The action conflicts with the current state (e.g. deducting below 0); nothing was changed.' },
    500: { ...ErrorBody, description: 'Unexpected server error.' },
    503: { ...ErrorBody, description: 'A backing store is unavailable.' },
  };
}

export const operatorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, auth, config, keyPool, source, shortsRequests } = app.services;
  const defaults = defaultRateLimits(config);
  const security = [{ bearer: [] }];
  const tags = ['operator'];
  const view = (row: Parameters<typeof userView>[0]) => userView(row, defaults);

  // Encapsulated: this hook guards the routes of this plugin only; each is marked config.operator.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, operator: true };
  });
  app.decorateRequest('operator', null);
  app.addHook('onRequest', async (request) => {
    request.operator = await authenticateOperator({ db, auth, operatorToken: config.OPERATOR_TOKEN }, request.headers.authorization);
  });
  const actorOf = (request: { operator: (Actor & { via: 'token' | 'session' }) | null }): Actor => {
    if (!request.operator) throw new AppError('UNAUTHORIZED');
    return request.operator;
  };

  app.get('/operator/me', {
    schema: { tags, security, summary: 'Who the operator API sees: an operator session or the operator token.', response: { 200: Type.Object({ actor: Type.String(), accountId: Nullable(Type.String()), via: Type.Union([Type.Literal('token'), Type.Literal('session')]) }), ...operatorErrors() } },
  }, async (request) => ({ actor: request.operator!.label, accountId: request.operator!.accountId, via: request.operator!.via }));

  app.get('/operator/users', {
    schema: {
      tags, security, summary: 'List users, newest first; search matches part of the email or the exact id.',
      querystring: Type.Object({ search: Type.Optional(Type.String({ maxLength: 254 })), limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }), offset: Type.Integer({ minimum: 0, default: 0 }) }),
      response: { 200: Type.Object({ users: Type.Array(User), total: Type.Integer() }), ...operatorErrors() },
    },
  }, async (request) => {
    const { users, total } = await searchUsers(db, request.query);
    return { users: users.map(view), total };
  });

  app.post('/operator/users', {
    schema: {
      tags, security, summary: 'Create a user (customer or operator) with an optional starting balance.',
      body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 256 }), credits: Type.Optional(Type.Integer({ minimum: 0 })), role: Type.Optional(Role) }, { additionalProperties: false }),
      response: { 201: User, ...operatorErrors() },
    },
  }, async (request, reply) => {
    const row = await createUser(db, actorOf(request), request.body);
    reply.code(201);
    return view(row);
  });

  app.get('/operator/users/:id', {
    schema: {
      tags, security, summary: 'One user with totals and usage per UTC day.',
      params: UserParams,
      querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 366, default: 30 }) }),
      response: {
        200: Type.Object({
          user: User,
          totals: Type.Object({ totalRequests: Type.Integer(), totalCreditsCharged: Type.Integer() }),
          usage: Type.Array(Type.Object({ date: Type.String(), requests: Type.Integer(), items: Type.Integer(), credits: Type.Integer() })),
        }),
        ...operatorErrors(),
      },
    },
  }, async (request) => {
    const row = await findUser(db, request.params.id);
    return { user: view(row), totals: await accountTotals(db, row.id), usage: await usageByDay(db, row.id, request.query.days) };
  });

  const listQuery = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }) });
  app.get('/operator/users/:id/ledger', {
    schema: { tags, security, summary: 'A user\'s credit ledger, newest first.', params: UserParams, querystring: listQuery, response: { 200: Type.Object({ entries: Type.Array(LedgerEntry) }), ...operatorErrors() } },
  }, async (request) => ({ entries: await listLedger(db, (await findUser(db, request.params.id)).id, request.query.limit) }));

  app.get('/operator/users/:id/requests', {
    schema: { tags, security, summary: 'A user\'s shorts requests, newest first.', params: UserParams, querystring: listQuery, response: { 200: Type.Object({ requests: Type.Array(RequestSummary) }), ...operatorErrors() } },
  }, async (request) => ({ requests: await listRequests(db, (await findUser(db, request.params.id)).id, request.query.limit) }));

  app.get('/operator/users/:id/deliveries', {
    schema: { tags, security, summary: 'A user\'s webhook delivery attempts, newest first.', params: UserParams, querystring: listQuery, response: { 200: Type.Object({ deliveries: Type.Array(Delivery) }), ...operatorErrors() } },
  }, async (request) => ({ deliveries: await listUserDeliveries(db, (await findUser(db, request.params.id)).id, request.query.limit) }));

  const ReasonBody = Type.Object({ reason: Type.Optional(Reason) }, { additionalProperties: false });
  for (const [action, disabled] of [['disable', true], ['enable', false]] as const) {
    app.post(`/operator/users/:id/${action}`, {
      schema: { tags, security, summary: disabled ? 'Disable a user: every credential of theirs is refused (403) within a second.' : 'Enable a disabled user again.', params: UserParams, body: ReasonBody, response: { 200: User, ...operatorErrors() } },
      // The body is optional: no body at all counts as {}.
      preValidation: async (request) => {
        (request as { body: unknown }).body ??= {};
      },
    }, async (request) => view(await setUserDisabled(db, actorOf(request), request.params.id, disabled, request.body.reason ?? null)));
  }

  app.post('/operator/users/:id/role', {
    schema: { tags, security, summary: 'Make a user an operator, or a customer again.', params: UserParams, body: Type.Object({ role: Role }, { additionalProperties: false }), response: { 200: User, ...operatorErrors() } },
  }, async (request) => view(await setUserRole(db, actorOf(request), request.params.id, request.body.role)));

  app.post('/operator/users/:id/credits', {
    schema: {
      tags, security, summary: 'Grant or deduct credits with a reason (a ledger entry). A deduction never takes the balance below 0 (409, nothing changed).',
      params: UserParams,
      body: Type.Object({ direction: Type.Union([Type.Literal('grant'), Type.Literal('deduct')]), amount: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }), reason: Reason }, { additionalProperties: false }),
      response: { 200: User, ...operatorErrors() },
    },
  }, async (request) => view(await adjustCredits(db, actorOf(request), request.params.id, request.body)));

  app.put('/operator/users/:id/limits', {
    schema: {
      tags, security, summary: 'Set a user\'s rate limits; a window given as null goes back to the default, one left out stays as it is.',
      params: UserParams,
      body: Type.Object({ perMinute: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))), perHour: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))), perDay: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))) }, { additionalProperties: false }),
      response: { 200: User, ...operatorErrors() },
    },
  }, async (request) => view(await setUserLimits(db, actorOf(request), request.params.id, request.body)));

  app.delete('/operator/users/:id/limits', {
    schema: { tags, security, summary: 'Reset a user\'s rate limits to the defaults.', params: UserParams, response: { 200: User, ...operatorErrors() } },
  }, async (request) => view(await setUserLimits(db, actorOf(request), request.params.id, { perMinute: null, perHour: null, perDay: null })));

  app.get('/operator/audit', {
    schema: {
      tags, security, summary: 'The audit log of operator actions, newest first (optionally about one user).',
      querystring: Type.Object({ userId: Type.Optional(Type.String({ format: 'uuid' })), limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }), before: Type.Optional(Type.Integer({ minimum: 1, description: 'Entries older than this id (paging).' })) }),
      response: { 200: Type.Object({ entries: Type.Array(AuditEntry) }), ...operatorErrors() },
    },
  }, async (request) => ({ entries: await listAudit(db, { ...(request.query.userId ? { accountId: request.query.userId } : {}), limit: request.query.limit, ...(request.query.before ? { beforeId: request.query.before } : {}) }) }));

  app.post('/operator/invitations', {
    schema: {
      tags, security, summary: 'Invite an email (SIGNUP=invite or open): returns a one-time link that sets the password. Send it to the person; it is shown once.',
      body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), credits: Type.Optional(Type.Integer({ minimum: 0 })), role: Type.Optional(Role) }, { additionalProperties: false }),
      response: { 201: Type.Object({ ...Invitation.properties, token: Type.String(), link: Type.String() }), ...operatorErrors() },
    },
  }, async (request, reply) => {
    const invitation = await createInvitation(db, actorOf(request), request.body, { mode: config.SIGNUP, ttlHours: config.INVITATION_TTL_HOURS });
    const base = config.PUBLIC_BASE_URL ?? `${request.protocol}://${request.host}`;
    reply.code(201).header('cache-control', 'no-store');
    return { ...invitation, link: `${base.replace(/\/$/, '')}/dashboard/#/invite/${invitation.token}` };
  });

  app.get('/operator/invitations', {
    schema: { tags, security, summary: 'Invitations, newest first (never their tokens).', querystring: listQuery, response: { 200: Type.Object({ invitations: Type.Array(Invitation) }), ...operatorErrors() } },
  }, async (request) => ({ invitations: await listInvitations(db, request.query.limit) }));

  app.get('/operator/doctor', {
    schema: { tags, security, summary: 'Check the data\'s invariants (balances, charges, stuck requests, queue, lock); ok=false on a breach.', response: { 200: Doctor, ...operatorErrors() } },
  }, async () => runDoctor(db, { lock: ownLockStatus(db) }));

  app.get('/operator/setup', {
    schema: {
      tags, security,
      summary: 'What the operator should know about the configuration (the start-up notes): the YouTube source and keys, rejected keys, no users yet. The dashboard shows the warnings as a banner.',
      response: {
        200: Type.Object({ notes: Type.Array(Type.Object({ code: Type.String(), level: Type.Union([Type.Literal('info'), Type.Literal('warn')]), message: Type.String() })) }),
        ...operatorErrors(),
      },
    },
  }, async () => ({ notes: await startupNotes(app.services) }));

  const KeyState = Type.Object({
    label: Type.String({ description: '"<index>:<8 hex of SHA-256>": never the key itself.' }),
    quotaDay: Type.String({ description: 'The Data API quota day (America/Los_Angeles date).' }),
    unitsUsed: Type.Integer(), budget: Type.Integer(), unitsRemaining: Type.Integer(),
    state: Type.Union([Type.Literal('active'), Type.Literal('exhausted'), Type.Literal('invalid')]),
    invalidReason: Type.Optional(Type.String()),
  });
  app.get('/operator/quota', {
    schema: {
      tags, security, summary: 'Upstream quota per YouTube Data API key today (the pool shared by every instance), and the source in use.',
      response: { 200: Type.Object({ source: Type.String(), resetsAt: Type.String({ format: 'date-time' }), keys: Type.Array(KeyState) }), ...operatorErrors() },
    },
  }, async () => {
    const keys = await keyPool.status();
    return {
      source,
      resetsAt: new Date(nextQuotaDayStart(shortsRequests.now())).toISOString(),
      keys: keys.map(({ label, quotaDay, unitsUsed, budget, unitsRemaining, state, invalidReason }) => ({ label, quotaDay, unitsUsed, budget, unitsRemaining, state, ...(invalidReason ? { invalidReason } : {}) })),
    };
  });
};
