// Bodies of the account, key, session and webhook-secret routes.
import { Type, type Static } from 'typebox';
import { EXAMPLE_REQUEST_ID, EXAMPLE_TIME, Nullable, RateLimits, Role } from './common.ts';
import { WebhookPayloadForm } from './shorts.ts';

export const EXAMPLE_ACCOUNT_ID = '7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93';
export const EXAMPLE_KEY_ID = 'b3e1f6a2-4c7d-4e8f-a1b2-c3d4e5f6a7b8';

export const SessionSchema = Type.Object(
  {
    token: Type.String({ description: 'A session JWT: send it as Authorization: Bearer <token>.' }),
    user: Type.Object({ id: Type.String(), email: Type.String() }),
    expiresAt: Type.String({ format: 'date-time' }),
  },
  {
    $id: 'Session',
    description: 'A dashboard session.',
    examples: [
      {
        token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI3ZDJmIn0.c2lnbmF0dXJl',
        user: { id: EXAMPLE_ACCOUNT_ID, email: 'ada@example.com' },
        expiresAt: '2026-06-01T23:59:00.000Z',
      },
    ],
  },
);
export type Session = Static<typeof SessionSchema>;

export const CreditAlertsSchema = Type.Object(
  {
    lowBalanceThreshold: Nullable(
      Type.Integer({
        minimum: 1,
        description:
          'Below this balance the dashboard shows a banner and one credits.low event is sent (again only after ' +
          'the balance has been back up). null: off.',
      }),
    ),
    eventsWebhookUrl: Nullable(
      Type.String({
        description:
          'Where account events (credits.low, webhook.destination.paused) are delivered, signed like every webhook.',
      }),
    ),
    low: Type.Boolean({ description: 'The balance is below the threshold now.' }),
    webhookPayload: WebhookPayloadForm(
      "The account's default form of shorts.completed webhooks, for requests that do not say (webhookPayload): " +
        'full (the whole result) or thin (counts and resultUrl).',
    ),
  },
  {
    $id: 'CreditAlerts',
    description: 'The low-balance alert, where account events go, and the default webhook payload form.',
    examples: [
      {
        lowBalanceThreshold: 50,
        eventsWebhookUrl: 'https://example.com/hooks/account',
        low: false,
        webhookPayload: 'full',
      },
    ],
  },
);
export type CreditAlerts = Static<typeof CreditAlertsSchema>;

export const AccountSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    role: Role,
    createdAt: Type.String({ format: 'date-time' }),
    credits: Type.Object({
      balance: Type.Integer(),
      reserved: Type.Integer({
        description:
          'Held by requests in progress (a webhook request holds its minimum price from acceptance until it settles).',
      }),
      available: Type.Integer({ description: 'balance - reserved: what new requests may spend.' }),
    }),
    upstreamQuota: Type.Object({
      quotaDay: Type.String({ description: "The video platform's quota day (America/Los_Angeles date)." }),
      resetsAt: Type.String({ format: 'date-time' }),
      unitsToday: Type.Integer({ description: "Upstream units spent on this account's behalf today, paid or not." }),
      allowance: Type.Object({
        units: Type.Integer({
          description: 'Unpaid units allowed per quota day (failed lookups, refusals after a probe).',
        }),
        used: Type.Integer(),
        remaining: Type.Integer(),
      }),
    }),
    rateLimits: RateLimits,
    readsPerMinute: Type.Integer({
      description:
        'Calls per minute outside the metered routes (reads, keys, webhook tools): READ_RATE_LIMIT_PER_MINUTE, ' +
        'at least ten times perMinute; 0: unlimited.',
    }),
    usage: Type.Object({
      minute: Type.Integer({ description: 'Requests counted in the current minute window.' }),
      hour: Type.Integer(),
      day: Type.Integer(),
      totalRequests: Type.Integer(),
      totalCreditsCharged: Type.Integer(),
    }),
    alerts: CreditAlertsSchema,
  },
  {
    $id: 'Account',
    description: "The caller's account: credits, upstream quota, rate limits and usage.",
    examples: [
      {
        id: EXAMPLE_ACCOUNT_ID,
        email: 'ada@example.com',
        role: 'customer',
        createdAt: '2026-05-01T09:00:00.000Z',
        credits: { balance: 97, reserved: 0, available: 97 },
        upstreamQuota: {
          quotaDay: '2026-06-01',
          resetsAt: '2026-06-02T07:00:00.000Z',
          unitsToday: 6,
          allowance: { units: 50, used: 0, remaining: 50 },
        },
        rateLimits: { perMinute: 60, perHour: 1000, perDay: 10000 },
        readsPerMinute: 600,
        usage: { minute: 1, hour: 3, day: 3, totalRequests: 12, totalCreditsCharged: 31 },
        alerts: { lowBalanceThreshold: 50, eventsWebhookUrl: null, low: false, webhookPayload: 'full' },
      },
    ],
  },
);
export type Account = Static<typeof AccountSchema>;

export const UsageDaySchema = Type.Object(
  {
    date: Type.String({ description: 'UTC date, YYYY-MM-DD.' }),
    requests: Type.Integer(),
    items: Type.Integer({ description: 'Shorts returned.' }),
    credits: Type.Integer({ description: 'Credits charged.' }),
  },
  { $id: 'UsageDay', examples: [{ date: '2026-06-01', requests: 3, items: 360, credits: 9 }] },
);
export type UsageDay = Static<typeof UsageDaySchema>;

export const LedgerEntrySchema = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Union([Type.Literal('grant'), Type.Literal('charge'), Type.Literal('deduct')], {
      description: 'deduct: taken back by an operator (note says why).',
    }),
    amount: Type.Integer({ description: 'Signed: charges and deductions are negative.' }),
    balanceAfter: Type.Integer(),
    requestId: Nullable(Type.String({ description: 'The request a charge paid for.' })),
    note: Nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
  },
  {
    $id: 'LedgerEntry',
    description: 'One change of the credit balance.',
    examples: [
      {
        id: 318,
        kind: 'charge',
        amount: -3,
        balanceAfter: 97,
        requestId: EXAMPLE_REQUEST_ID,
        note: null,
        createdAt: EXAMPLE_TIME,
      },
    ],
  },
);
export type LedgerEntry = Static<typeof LedgerEntrySchema>;

export const ApiKeySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    prefix: Type.String({ description: 'The first characters of the key, to recognise it.' }),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Nullable(Type.String({ format: 'date-time' })),
    revokedAt: Nullable(Type.String({ format: 'date-time' })),
    expiresAt: Nullable(
      Type.String({ format: 'date-time', description: 'The key stops authenticating at this time; null: never.' }),
    ),
    scopes: Type.Array(Type.String(), { description: 'What the key may do (see the scopes in POST /keys).' }),
  },
  {
    $id: 'ApiKey',
    description: 'An API key, without its secret.',
    examples: [
      {
        id: EXAMPLE_KEY_ID,
        name: 'production backend',
        prefix: 'csk_lEaNrfoT',
        createdAt: '2026-05-01T09:05:00.000Z',
        lastUsedAt: EXAMPLE_TIME,
        revokedAt: null,
        expiresAt: null,
        scopes: ['shorts:write', 'shorts:read', 'account:read'],
      },
    ],
  },
);
export type ApiKey = Static<typeof ApiKeySchema>;

export const CreatedKeySchema = Type.Object(
  { ...ApiKeySchema.properties, key: Type.String({ description: 'The secret. Shown once.' }) },
  {
    $id: 'CreatedKey',
    description: 'A new API key with its secret (shown once).',
    examples: [
      {
        id: EXAMPLE_KEY_ID,
        name: 'production backend',
        prefix: 'csk_lEaNrfoT',
        createdAt: '2026-05-01T09:05:00.000Z',
        lastUsedAt: null,
        revokedAt: null,
        expiresAt: null,
        scopes: ['shorts:write', 'shorts:read', 'account:read'],
        key: 'csk_lEaNrfoTBo667nA23VKOvQ9aSwr05bVL2xuwZj',
      },
    ],
  },
);
export type CreatedKey = Static<typeof CreatedKeySchema>;

export const WebhookSecretSchema = Type.Object(
  {
    secret: Type.String({
      description: 'whsec_… (base64 key after the prefix), as Standard Webhooks libraries take it.',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Nullable(
      Type.String({
        format: 'date-time',
        description: 'When a replaced secret stops signing; null for the current one.',
      }),
    ),
  },
  {
    $id: 'WebhookSecret',
    examples: [
      { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', createdAt: '2026-05-01T09:00:00.000Z', expiresAt: null },
    ],
  },
);
export type WebhookSecret = Static<typeof WebhookSecretSchema>;

export const RotatedSecretSchema = Type.Object(
  {
    secret: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    previousExpiresAt: Type.String({ format: 'date-time', description: 'Until then the replaced secret signs too.' }),
  },
  {
    $id: 'RotatedSecret',
    description: 'The new signing secret.',
    examples: [
      {
        secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD',
        createdAt: EXAMPLE_TIME,
        previousExpiresAt: '2026-06-02T12:00:00.000Z',
      },
    ],
  },
);
export type RotatedSecret = Static<typeof RotatedSecretSchema>;

export const SignupAcceptedSchema = Type.Object(
  { message: Type.String({ description: 'What to do next: sign in with the email and password just sent.' }) },
  {
    $id: 'SignupAccepted',
    description:
      'The sign-up is taken: the same answer whether the email was new (the account now exists) or already had ' +
      'an account (nothing changed). Sign in with POST /auth/login.',
    examples: [{ message: 'Sign in with this email and password (POST /auth/login).' }],
  },
);
export type SignupAccepted = Static<typeof SignupAcceptedSchema>;

export const SignupInfoSchema = Type.Object(
  {
    mode: Type.Union([Type.Literal('off'), Type.Literal('invite'), Type.Literal('open')]),
    startingCredits: Type.Integer(),
  },
  {
    $id: 'SignupInfo',
    description: 'How new users get an account here.',
    examples: [{ mode: 'invite', startingCredits: 0 }],
  },
);
export type SignupInfo = Static<typeof SignupInfoSchema>;
