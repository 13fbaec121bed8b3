// Bodies of the operator API (/operator/...).
import { Type, type Static } from 'typebox';
import { EXAMPLE_REQUEST_ID, EXAMPLE_TIME, Nullable, RateLimits, Role } from './common.ts';
import { EXAMPLE_ACCOUNT_ID } from './accounts.ts';
import { DeliveryAttemptSchema } from './shorts.ts';

export const UserSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    email: Type.String(),
    role: Role,
    credits: Type.Integer(),
    disabledAt: Nullable(Type.String({ format: 'date-time' })),
    createdAt: Type.String({ format: 'date-time' }),
    limitOverrides: Type.Object(
      { perMinute: Nullable(Type.Integer()), perHour: Nullable(Type.Integer()), perDay: Nullable(Type.Integer()) },
      { description: 'Per-account overrides; null = the default.' },
    ),
    rateLimits: RateLimits,
  },
  {
    $id: 'User',
    description: 'A user as operators see it.',
    examples: [
      {
        id: EXAMPLE_ACCOUNT_ID,
        email: 'ada@example.com',
        role: 'customer',
        credits: 97,
        disabledAt: null,
        createdAt: '2026-05-01T09:00:00.000Z',
        limitOverrides: { perMinute: null, perHour: null, perDay: null },
        rateLimits: { perMinute: 60, perHour: 1000, perDay: 10000 },
      },
    ],
  },
);
export type User = Static<typeof UserSchema>;

export const AuditEntrySchema = Type.Object(
  {
    id: Type.Integer(),
    actor: Type.String(),
    actorAccountId: Nullable(Type.String()),
    action: Type.String(),
    targetAccountId: Nullable(Type.String()),
    target: Nullable(Type.String()),
    reason: Nullable(Type.String()),
    before: Type.Unknown(),
    after: Type.Unknown(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  {
    $id: 'AuditEntry',
    description: 'One operator action.',
    examples: [
      {
        id: 7,
        actor: 'ops@example.com',
        actorAccountId: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
        action: 'credits.grant',
        targetAccountId: EXAMPLE_ACCOUNT_ID,
        target: 'ada@example.com',
        reason: 'welcome',
        before: { credits: 0 },
        after: { credits: 100 },
        createdAt: EXAMPLE_TIME,
      },
    ],
  },
);
export type AuditEntry = Static<typeof AuditEntrySchema>;

const exampleInvitation = {
  id: 'e5f6a7b8-c9d0-4e1f-a2b3-c4d5e6f7a8b9',
  email: 'grace@example.com',
  credits: 100,
  role: 'customer' as const,
  createdBy: 'ops@example.com',
  createdAt: EXAMPLE_TIME,
  expiresAt: '2026-06-04T12:00:00.000Z',
  acceptedAt: null,
};

export const InvitationSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    credits: Type.Integer(),
    role: Role,
    createdBy: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.String({ format: 'date-time' }),
    acceptedAt: Nullable(Type.String({ format: 'date-time' })),
  },
  {
    $id: 'Invitation',
    examples: [exampleInvitation],
  },
);
export type Invitation = Static<typeof InvitationSchema>;

export const CreatedInvitationSchema = Type.Object(
  {
    ...InvitationSchema.properties,
    token: Type.String(),
    link: Type.String({ description: 'Send it to the person; it works once.' }),
  },
  {
    $id: 'CreatedInvitation',
    description: 'A new invitation with its one-time link (shown once).',
    examples: [
      {
        ...exampleInvitation,
        token: 'inv_4Yw8Qm2Zr7',
        link: 'http://localhost:3000/dashboard/#/invite/inv_4Yw8Qm2Zr7',
      },
    ],
  },
);

export const UserDeliverySchema = Type.Object(
  {
    ...DeliveryAttemptSchema.properties,
    requestId: Type.Union([Type.String(), Type.Null()], {
      description:
        "The request it delivered; null for a batch summary or an account event (credits.low, a watch's " +
        'events), which its webhookId names.',
    }),
  },
  {
    $id: 'UserDelivery',
    description: "A webhook delivery attempt of the user's: a request's, a batch summary's or an account event's.",
    examples: [
      {
        id: 41,
        requestId: EXAMPLE_REQUEST_ID,
        webhookId: `msg_${EXAMPLE_REQUEST_ID}`,
        attempt: 1,
        startedAt: EXAMPLE_TIME,
        statusCode: 503,
        latencyMs: 120,
        outcome: 'failed',
        error: 'HTTP 503',
        requestHeaders: null,
        responseExcerpt: null,
        nextAttemptAt: null,
      },
    ],
  },
);
export type UserDelivery = Static<typeof UserDeliverySchema>;

export const DoctorFindingSchema = Type.Object(
  {
    check: Type.String(),
    severity: Type.Union([Type.Literal('ok'), Type.Literal('warn'), Type.Literal('breach')]),
    summary: Type.String(),
    details: Type.Array(Type.String(), { description: 'Offending rows, for the operator to look at.' }),
  },
  {
    $id: 'DoctorFinding',
    examples: [
      { check: 'ledger', severity: 'ok', summary: 'Every balance equals the sum of its ledger entries.', details: [] },
    ],
  },
);
export type DoctorFinding = Static<typeof DoctorFindingSchema>;

export const DoctorReportSchema = Type.Object(
  { ok: Type.Boolean(), checkedAt: Type.String({ format: 'date-time' }), findings: Type.Array(DoctorFindingSchema) },
  { $id: 'DoctorReport', description: 'The invariants checked by doctor.' },
);
export type DoctorReport = Static<typeof DoctorReportSchema>;

export const SourceHealthSchema = Type.Object(
  {
    source: Type.Union([Type.Literal('data-api'), Type.Literal('innertube')]),
    recentCalls: Type.Integer({
      description: 'Calls in the last 15 minutes (at most the last 200), by this instance.',
    }),
    successRate: Nullable(Type.Number({ minimum: 0, maximum: 1, description: 'Share of those that succeeded.' })),
    lastError: Nullable(
      Type.Object({
        class: Type.String({
          description:
            'InnerTube: bot-check, consent, rate-limited, http-error, parse, unavailable, timeout. Data API: ' +
            'forbidden (quota, key), rate-limited, http-error, no-answer.',
        }),
        status: Nullable(Type.Integer({ description: 'The HTTP status answered, when there was one.' })),
        at: Type.String({ format: 'date-time' }),
      }),
    ),
    breakerOpen: Type.Boolean({ description: 'Whether a breaker of this source pauses calls now.' }),
    breakers: Type.Record(
      Type.String(),
      Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('half-open')]),
      { description: "InnerTube's breaker per call kind (resolve_url, browse, player); none for the Data API." },
    ),
  },
  {
    $id: 'SourceHealth',
    description: "An upstream source's recent health as this instance met it.",
    examples: [
      {
        source: 'innertube',
        recentCalls: 40,
        successRate: 0.25,
        lastError: { class: 'bot-check', status: 403, at: EXAMPLE_TIME },
        breakerOpen: true,
        breakers: { resolve_url: 'closed', browse: 'open', player: 'closed' },
      },
    ],
  },
);
export type SourceHealth = Static<typeof SourceHealthSchema>;
