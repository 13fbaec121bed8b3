// Bodies of the credit statement, balance history, low-balance alert and key usage routes.
import { Type, type Static } from 'typebox';
import { EXAMPLE_REQUEST_ID, EXAMPLE_TIME, Nullable } from './common.ts';
import { EXAMPLE_ACCOUNT_ID, EXAMPLE_KEY_ID, LedgerEntrySchema } from './accounts.ts';
import { DestinationPausedPayloadSchema } from './requests-log.ts';

// The alert settings are part of the Account shape, so they live beside it.
export { CreditAlertsSchema, type CreditAlerts } from './accounts.ts';

export const StatementEntrySchema = Type.Object(
  {
    ...LedgerEntrySchema.properties,
    channelUrl: Nullable(Type.String({ description: 'The channel the request asked for, as sent.' })),
    channelTitle: Nullable(Type.String({ description: "The channel's title, when the request resolved it." })),
    via: Nullable(
      Type.Union([Type.Literal('api'), Type.Literal('mcp')], {
        description: "A shorts request's charge: the door the call came through (the REST API, or the MCP server).",
      }),
    ),
  },
  {
    $id: 'StatementEntry',
    description: 'A ledger entry with the request and channel it paid for.',
    examples: [
      {
        id: 318,
        kind: 'charge',
        amount: -3,
        balanceAfter: 97,
        requestId: EXAMPLE_REQUEST_ID,
        channelUrl: 'https://www.youtube.com/@demo',
        channelTitle: 'Demo Channel',
        via: 'api',
        note: null,
        createdAt: EXAMPLE_TIME,
      },
    ],
  },
);
export type StatementEntry = Static<typeof StatementEntrySchema>;

export const LedgerPageSchema = Type.Object(
  {
    entries: Type.Array(StatementEntrySchema),
    nextCursor: Nullable(
      Type.String({ description: 'Pass as cursor for the next (older) page; null on the last page.' }),
    ),
  },
  {
    $id: 'LedgerPage',
    description: 'One page of the credit statement, newest first.',
    examples: [
      {
        entries: [
          {
            id: 318,
            kind: 'charge',
            amount: -3,
            balanceAfter: 97,
            requestId: EXAMPLE_REQUEST_ID,
            channelUrl: 'https://www.youtube.com/@demo',
            channelTitle: 'Demo Channel',
            via: 'api',
            note: null,
            createdAt: EXAMPLE_TIME,
          },
        ],
        nextCursor: '318',
      },
    ],
  },
);
export type LedgerPage = Static<typeof LedgerPageSchema>;

export const BalanceDaySchema = Type.Object(
  {
    date: Type.String({ description: 'UTC date, YYYY-MM-DD.' }),
    balance: Type.Integer({ description: 'The balance at the end of the day.' }),
    added: Type.Integer({ description: 'Credits granted that day.' }),
    spent: Type.Integer({ description: 'Credits charged or deducted that day.' }),
  },
  { $id: 'BalanceDay', examples: [{ date: '2026-06-01', balance: 97, added: 100, spent: 3 }] },
);
export type BalanceDay = Static<typeof BalanceDaySchema>;

export const BalanceStepSchema = Type.Object(
  {
    at: Type.String({ format: 'date-time', description: 'When the balance changed.' }),
    balance: Type.Integer({ description: 'The balance after the change.' }),
  },
  { $id: 'BalanceStep', examples: [{ at: '2026-06-01T12:00:01.200Z', balance: 97 }] },
);
export type BalanceStep = Static<typeof BalanceStepSchema>;

export const BalanceHistorySchema = Type.Object(
  {
    days: Type.Array(BalanceDaySchema),
    steps: Type.Array(BalanceStepSchema, {
      description:
        'Every change of the balance in the period, oldest first (the latest 1,000 when there were more), so a ' +
        'chart can show the steps within a day: the balance before the first is the opening one.',
    }),
    openingBalance: Type.Integer({ description: 'The balance when the period began.' }),
  },
  {
    $id: 'BalanceHistory',
    description: 'The balance at the end of each day, oldest first, and each change within the period.',
    examples: [
      {
        days: [
          { date: '2026-05-31', balance: 0, added: 0, spent: 0 },
          { date: '2026-06-01', balance: 97, added: 100, spent: 3 },
        ],
        steps: [
          { at: '2026-06-01T09:00:00.000Z', balance: 100 },
          { at: '2026-06-01T12:00:01.200Z', balance: 97 },
        ],
        openingBalance: 0,
      },
    ],
  },
);

export const CreditsLowPayloadSchema = Type.Object(
  {
    type: Type.Literal('credits.low'),
    timestamp: Type.String({ format: 'date-time' }),
    data: Type.Object({
      accountId: Type.String(),
      balance: Type.Integer(),
      threshold: Type.Integer(),
      requestId: Nullable(Type.String()),
    }),
  },
  {
    $id: 'CreditsLowPayload',
    description: 'The credits.low event as it is delivered (Standard Webhooks signed).',
    examples: [
      {
        type: 'credits.low',
        timestamp: EXAMPLE_TIME,
        data: { accountId: EXAMPLE_ACCOUNT_ID, balance: 49, threshold: 50, requestId: EXAMPLE_REQUEST_ID },
      },
    ],
  },
);
export type CreditsLowPayload = Static<typeof CreditsLowPayloadSchema>;

export const CreditEventSchema = Type.Object(
  {
    id: Type.Integer(),
    type: Type.Union([Type.Literal('credits.low'), Type.Literal('webhook.destination.paused')]),
    createdAt: Type.String({ format: 'date-time' }),
    payload: Type.Union([CreditsLowPayloadSchema, DestinationPausedPayloadSchema], {
      description: 'The event as it is delivered to eventsWebhookUrl (its type says which).',
    }),
  },
  { $id: 'CreditEvent', description: 'An account event: credits.low or webhook.destination.paused.' },
);
export type CreditEvent = Static<typeof CreditEventSchema>;

export const CreditEventsSchema = Type.Object(
  { events: Type.Array(CreditEventSchema) },
  {
    $id: 'CreditEvents',
    description: "The account's events, newest first.",
    examples: [
      {
        events: [
          {
            id: 7,
            type: 'credits.low',
            createdAt: EXAMPLE_TIME,
            payload: {
              type: 'credits.low',
              timestamp: EXAMPLE_TIME,
              data: { accountId: EXAMPLE_ACCOUNT_ID, balance: 49, threshold: 50, requestId: EXAMPLE_REQUEST_ID },
            },
          },
        ],
      },
    ],
  },
);

export const KeyUsageEntrySchema = Type.Object(
  {
    keyId: Nullable(Type.String({ description: 'null: requests made from the dashboard (session).' })),
    requests: Type.Integer(),
    credits: Type.Integer({ description: 'Credits charged for those requests.' }),
  },
  { $id: 'KeyUsageEntry' },
);
export type KeyUsageEntry = Static<typeof KeyUsageEntrySchema>;

export const KeyUsageSchema = Type.Object(
  { days: Type.Integer(), keys: Type.Array(KeyUsageEntrySchema) },
  {
    $id: 'KeyUsage',
    description: 'Requests and credits per key over the last days, busiest first.',
    examples: [
      {
        days: 30,
        keys: [
          { keyId: EXAMPLE_KEY_ID, requests: 12, credits: 31 },
          { keyId: null, requests: 2, credits: 2 },
        ],
      },
    ],
  },
);
