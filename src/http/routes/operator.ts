// The operator API (/operator/...): users, credits, limits, activity, the audit log, invitations and
// doctor. Callers are an operator's dashboard session or the OPERATOR_TOKEN (the CLI against a
// running service); everyone else gets 401/403. Thin: every use case is in src/domain/operators.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../domain/operators/audit.ts';
import { listAudit } from '../../domain/operators/audit.ts';
import { authenticateOperator } from '../../domain/operators/operator-auth.ts';
import {
  adjustCredits,
  createUser,
  findUser,
  listUserDeliveries,
  MAX_LIMIT,
  searchUsers,
  setUserDisabled,
  setUserLimits,
  setUserRole,
  userView,
} from '../../domain/operators/users.ts';
import { createInvitation, listInvitations } from '../../domain/operators/invitations.ts';
import { ownLockStatus, runDoctor } from '../../domain/operators/doctor.ts';
import { listLedger, MAX_BALANCE } from '../../domain/credits/ledger.ts';
import { accountTotals, listRequests, usageByDay } from '../../domain/requests/request-store.ts';
import { errorResponse, json, Nullable } from '../schemas/common.ts';
import {
  AuditEntrySchema,
  CreatedInvitationSchema,
  DoctorReportSchema,
  InvitationSchema,
  UserDeliverySchema,
  UserSchema,
} from '../../contract/operator.ts';
import { Role } from '../../contract/common.ts';
import { LedgerEntrySchema, UsageDaySchema } from '../../contract/accounts.ts';
import { RequestSummarySchema } from '../../contract/shorts.ts';
import { nextQuotaDayStart, quotaDay } from '../../domain/quota/quota-day.ts';
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

const UserParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 254, description: "The user's id (or email)." }),
});
const Reason = Type.String({ minLength: 1, maxLength: 500 });

function operatorErrors() {
  return {
    400: errorResponse('Invalid input.', ['VALIDATION_FAILED']),
    401: errorResponse('Missing, invalid or expired credential.', ['UNAUTHORIZED', 'TOKEN_EXPIRED']),
    403: errorResponse('Not an operator (customers, API keys and disabled accounts are refused).', ['FORBIDDEN']),
    404: errorResponse('No such user.', ['NOT_FOUND']),
    409: errorResponse('The action conflicts with the current state (e.g. deducting below 0); nothing was changed.', [
      'CONFLICT',
    ]),
    500: errorResponse('Unexpected server error.', ['INTERNAL_ERROR']),
    503: errorResponse('A backing store is unavailable.', ['SERVICE_UNAVAILABLE']),
  };
}

export const operatorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, auth, config, keyPool, source, clock } = app.services;
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
    request.operator = await authenticateOperator(
      { db, auth, operatorToken: config.OPERATOR_TOKEN },
      request.headers.authorization,
    );
  });
  const actorOf = (request: { operator: (Actor & { via: 'token' | 'session' }) | null }): Actor => {
    if (!request.operator) throw new AppError('UNAUTHORIZED');
    return request.operator;
  };

  app.get(
    '/operator/me',
    {
      schema: {
        tags,
        security,
        summary: 'Who the operator API sees: an operator session or the operator token.',
        response: {
          200: json(
            'The operator.',
            Type.Object(
              {
                actor: Type.String(),
                accountId: Nullable(Type.String()),
                via: Type.Union([Type.Literal('token'), Type.Literal('session')]),
              },
              {
                examples: [
                  { actor: 'ops@example.com', accountId: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f', via: 'session' },
                ],
              },
            ),
          ),
          ...operatorErrors(),
        },
      },
    },
    async (request) => ({
      actor: request.operator!.label,
      accountId: request.operator!.accountId,
      via: request.operator!.via,
    }),
  );

  app.get(
    '/operator/users',
    {
      schema: {
        tags,
        security,
        summary: 'List users, newest first; search matches part of the email or the exact id.',
        querystring: Type.Object({
          search: Type.Optional(Type.String({ maxLength: 254 })),
          limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
          offset: Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0 }),
        }),
        response: {
          200: json(
            'A page of users and the total matching.',
            Type.Object({ users: Type.Array(UserSchema), total: Type.Integer() }),
          ),
          ...operatorErrors(),
        },
      },
    },
    async (request) => {
      const { users, total } = await searchUsers(db, request.query);
      return { users: users.map(view), total };
    },
  );

  app.post(
    '/operator/users',
    {
      schema: {
        tags,
        security,
        summary: 'Create a user (customer or operator) with an optional starting balance.',
        body: Type.Object(
          {
            email: Type.String({ minLength: 3, maxLength: 254 }),
            password: Type.String({ minLength: 1, maxLength: 256 }),
            credits: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_BALANCE })),
            role: Type.Optional(Role),
          },
          { additionalProperties: false },
        ),
        response: { 201: json('The new user.', UserSchema), ...operatorErrors() },
      },
    },
    async (request, reply) => {
      const row = await createUser(db, actorOf(request), request.body);
      reply.code(201);
      return view(row);
    },
  );

  app.get(
    '/operator/users/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One user with totals and usage per UTC day.',
        params: UserParams,
        querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 366, default: 30 }) }),
        response: {
          200: json(
            'The user, totals and usage per day.',
            Type.Object({
              user: UserSchema,
              totals: Type.Object({ totalRequests: Type.Integer(), totalCreditsCharged: Type.Integer() }),
              usage: Type.Array(UsageDaySchema),
            }),
          ),
          ...operatorErrors(),
        },
      },
    },
    async (request) => {
      const row = await findUser(db, request.params.id);
      return {
        user: view(row),
        totals: await accountTotals(db, row.id),
        usage: await usageByDay(db, row.id, request.query.days),
      };
    },
  );

  const listQuery = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }) });
  app.get(
    '/operator/users/:id/ledger',
    {
      schema: {
        tags,
        security,
        summary: "A user's credit ledger, newest first.",
        params: UserParams,
        querystring: listQuery,
        response: {
          200: json('Ledger entries, newest first.', Type.Object({ entries: Type.Array(LedgerEntrySchema) })),
          ...operatorErrors(),
        },
      },
    },
    async (request) => ({
      entries: await listLedger(db, (await findUser(db, request.params.id)).id, request.query.limit),
    }),
  );

  app.get(
    '/operator/users/:id/requests',
    {
      schema: {
        tags,
        security,
        summary: "A user's shorts requests, newest first.",
        params: UserParams,
        querystring: listQuery,
        response: {
          200: json('Requests, newest first.', Type.Object({ requests: Type.Array(RequestSummarySchema) })),
          ...operatorErrors(),
        },
      },
    },
    async (request) => ({
      requests: await listRequests(db, (await findUser(db, request.params.id)).id, request.query.limit),
    }),
  );

  app.get(
    '/operator/users/:id/deliveries',
    {
      schema: {
        tags,
        security,
        summary: "A user's webhook delivery attempts, newest first.",
        params: UserParams,
        querystring: listQuery,
        response: {
          200: json('Delivery attempts, newest first.', Type.Object({ deliveries: Type.Array(UserDeliverySchema) })),
          ...operatorErrors(),
        },
      },
    },
    async (request) => ({
      deliveries: await listUserDeliveries(db, (await findUser(db, request.params.id)).id, request.query.limit),
    }),
  );

  const ReasonBody = Type.Object({ reason: Type.Optional(Reason) }, { additionalProperties: false });
  for (const [action, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    app.post(
      `/operator/users/:id/${action}`,
      {
        schema: {
          tags,
          security,
          summary: disabled
            ? 'Disable a user: every credential of theirs is refused (403) within a second.'
            : 'Enable a disabled user again.',
          params: UserParams,
          body: ReasonBody,
          response: { 200: json('The user after the change.', UserSchema), ...operatorErrors() },
        },
        // The body is optional: no body at all counts as {}.
        preValidation: async (request) => {
          (request as { body: unknown }).body ??= {};
        },
      },
      async (request) =>
        view(await setUserDisabled(db, actorOf(request), request.params.id, disabled, request.body.reason ?? null)),
    );
  }

  app.post(
    '/operator/users/:id/role',
    {
      schema: {
        tags,
        security,
        summary: 'Make a user an operator, or a customer again.',
        params: UserParams,
        body: Type.Object({ role: Role }, { additionalProperties: false }),
        response: { 200: json('The user after the change.', UserSchema), ...operatorErrors() },
      },
    },
    async (request) => view(await setUserRole(db, actorOf(request), request.params.id, request.body.role)),
  );

  app.post(
    '/operator/users/:id/credits',
    {
      schema: {
        tags,
        security,
        summary:
          'Grant or deduct credits with a reason (a ledger entry). A deduction never takes the balance below 0 (409, nothing changed).',
        params: UserParams,
        body: Type.Object(
          {
            direction: Type.Union([Type.Literal('grant'), Type.Literal('deduct')]),
            amount: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
            reason: Reason,
          },
          { additionalProperties: false },
        ),
        response: { 200: json('The user after the change.', UserSchema), ...operatorErrors() },
      },
    },
    async (request) => view(await adjustCredits(db, actorOf(request), request.params.id, request.body)),
  );

  app.put(
    '/operator/users/:id/limits',
    {
      schema: {
        tags,
        security,
        summary:
          "Set a user's rate limits; a window given as null goes back to the default, one left out stays as it is.",
        params: UserParams,
        body: Type.Object(
          {
            perMinute: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: MAX_LIMIT }))),
            perHour: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: MAX_LIMIT }))),
            perDay: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: MAX_LIMIT }))),
          },
          { additionalProperties: false, examples: [{ perMinute: 120, perDay: null }] },
        ),
        response: { 200: json('The user after the change.', UserSchema), ...operatorErrors() },
      },
    },
    async (request) => view(await setUserLimits(db, actorOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/operator/users/:id/limits',
    {
      schema: {
        tags,
        security,
        summary: "Reset a user's rate limits to the defaults.",
        params: UserParams,
        response: { 200: json('The user after the change.', UserSchema), ...operatorErrors() },
      },
    },
    async (request) =>
      view(
        await setUserLimits(db, actorOf(request), request.params.id, { perMinute: null, perHour: null, perDay: null }),
      ),
  );

  app.get(
    '/operator/audit',
    {
      schema: {
        tags,
        security,
        summary: 'The audit log of operator actions, newest first (optionally about one user).',
        querystring: Type.Object({
          userId: Type.Optional(Type.String({ format: 'uuid' })),
          limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
          before: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: Number.MAX_SAFE_INTEGER,
              description: 'Entries older than this id (paging).',
            }),
          ),
        }),
        response: {
          200: json('Audit entries, newest first.', Type.Object({ entries: Type.Array(AuditEntrySchema) })),
          ...operatorErrors(),
        },
      },
    },
    async (request) => ({
      entries: await listAudit(db, {
        ...(request.query.userId ? { accountId: request.query.userId } : {}),
        limit: request.query.limit,
        ...(request.query.before ? { beforeId: request.query.before } : {}),
      }),
    }),
  );

  app.post(
    '/operator/invitations',
    {
      schema: {
        tags,
        security,
        summary:
          'Invite an email (SIGNUP=invite or open): returns a one-time link that sets the password. Send it to the person; it is shown once.',
        body: Type.Object(
          {
            email: Type.String({ minLength: 3, maxLength: 254 }),
            credits: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_BALANCE })),
            role: Type.Optional(Role),
          },
          { additionalProperties: false },
        ),
        response: { 201: json('The invitation and its one-time link.', CreatedInvitationSchema), ...operatorErrors() },
      },
    },
    async (request, reply) => {
      const invitation = await createInvitation(db, actorOf(request), request.body, {
        mode: config.SIGNUP,
        ttlHours: config.INVITATION_TTL_HOURS,
      });
      const base = config.PUBLIC_BASE_URL ?? `${request.protocol}://${request.host}`;
      reply.code(201).header('cache-control', 'no-store');
      return { ...invitation, link: `${base.replace(/\/$/, '')}/dashboard/#/invite/${invitation.token}` };
    },
  );

  app.get(
    '/operator/invitations',
    {
      schema: {
        tags,
        security,
        summary: 'Invitations, newest first (never their tokens).',
        querystring: listQuery,
        response: {
          200: json('Invitations, newest first.', Type.Object({ invitations: Type.Array(InvitationSchema) })),
          ...operatorErrors(),
        },
      },
    },
    async (request) => ({ invitations: await listInvitations(db, request.query.limit) }),
  );

  app.get(
    '/operator/doctor',
    {
      schema: {
        tags,
        security,
        summary: "Check the data's invariants (balances, charges, stuck requests, queue, lock); ok=false on a breach.",
        response: { 200: json('The findings.', DoctorReportSchema), ...operatorErrors() },
      },
    },
    async () => runDoctor(db, { lock: ownLockStatus(db) }),
  );

  app.get(
    '/operator/setup',
    {
      schema: {
        tags,
        security,
        summary:
          'What the operator should know about the configuration (the start-up notes): the YouTube source and keys, rejected keys, no users yet. The dashboard shows the warnings as a banner.',
        response: {
          200: json(
            'The start-up notes, warnings first.',
            Type.Object(
              {
                notes: Type.Array(
                  Type.Object({
                    code: Type.String(),
                    level: Type.Union([Type.Literal('info'), Type.Literal('warn')]),
                    message: Type.String(),
                  }),
                ),
              },
              {
                examples: [
                  {
                    notes: [
                      {
                        code: 'NO_DATA_API_KEY',
                        level: 'warn',
                        message:
                          'No YouTube Data API key is configured: the service reads YouTube without one (keyless InnerTube), with approximate dates and counts.',
                      },
                    ],
                  },
                ],
              },
            ),
          ),
          ...operatorErrors(),
        },
      },
    },
    async () => ({ notes: await startupNotes(app.services) }),
  );

  const KeyState = Type.Object({
    label: Type.String({ description: '"<index>:<8 hex of SHA-256>": never the key itself.' }),
    quotaDay: Type.String({ description: 'The Data API quota day (America/Los_Angeles date).' }),
    unitsUsed: Type.Integer(),
    budget: Type.Integer(),
    unitsRemaining: Type.Integer(),
    state: Type.Union([Type.Literal('active'), Type.Literal('exhausted'), Type.Literal('invalid')]),
    invalidReason: Type.Optional(Type.String()),
  });
  app.get(
    '/operator/quota',
    {
      schema: {
        tags,
        security,
        summary:
          'Upstream quota per YouTube Data API key today (the pool shared by every instance), and the source in use.',
        response: {
          200: json(
            "The source and each key's quota today.",
            Type.Object({
              source: Type.String(),
              resetsAt: Type.String({ format: 'date-time' }),
              keys: Type.Array(KeyState),
              lostUnits: Type.Integer({
                description:
                  "Units spent today on requests that then failed on the service's own side (its database or Redis unavailable, an unexpected error): its loss, counted against no account's allowance.",
              }),
            }),
          ),
          ...operatorErrors(),
        },
      },
    },
    async () => {
      const keys = await keyPool.status();
      const now = clock();
      const [lost] = await db.query<{ n: number }>(
        'SELECT coalesce(sum(lost_units), 0)::int AS n FROM account_quota_days WHERE quota_day = $1',
        [quotaDay(now)],
      );
      return {
        source,
        lostUnits: lost?.n ?? 0,
        resetsAt: new Date(nextQuotaDayStart(now)).toISOString(),
        keys: keys.map(({ label, quotaDay, unitsUsed, budget, unitsRemaining, state, invalidReason }) => ({
          label,
          quotaDay,
          unitsUsed,
          budget,
          unitsRemaining,
          state,
          ...(invalidReason ? { invalidReason } : {}),
        })),
      };
    },
  );
};
