// Schemas of the credit statement, balance history, low-balance alert and key usage (issue #16).
import { Type, type Static } from 'typebox';
import { Nullable } from './common.ts';

export const LedgerEntrySchema = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.Union([Type.Literal('grant'), Type.Literal('charge'), Type.Literal('deduct')], { description: 'deduct: taken back by an operator (note says why).' }),
    amount: Type.Integer({ description: 'Positive for a grant, negative for a charge or deduction.' }),
    balanceAfter: Type.Integer(),
    requestId: Nullable(Type.String({ description: 'The request a charge paid for.' })),
    channelUrl: Nullable(Type.String({ description: 'The channel that request asked for, as sent.' })),
    channelTitle: Nullable(Type.String({ description: 'The channel\'s title, when the request resolved it.' })),
    note: Nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'LedgerEntry' },
);

export const LedgerPageSchema = Type.Object(
  {
    entries: Type.Array(LedgerEntrySchema),
    nextCursor: Nullable(Type.String({ description: 'Pass as cursor for the next (older) page; null on the last page.' })),
  },
  { $id: 'LedgerPage', examples: [{ entries: [{ id: 42, kind: 'charge', amount: -3, balanceAfter: 97, requestId: 'req_8f3a2c1d9e7b4a60', channelUrl: 'https://www.youtube.com/@demo', channelTitle: 'Demo Channel', note: null, createdAt: '2026-01-31T12:00:00.000Z' }], nextCursor: '42' }] },
);

export const LedgerQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 20 }),
  cursor: Type.Optional(Type.String({ maxLength: 20, description: 'nextCursor of the previous page.' })),
});

export const BalanceHistorySchema = Type.Object(
  {
    days: Type.Array(Type.Object({
      date: Type.String({ description: 'UTC date, YYYY-MM-DD.' }),
      balance: Type.Integer({ description: 'The balance at the end of the day.' }),
      added: Type.Integer({ description: 'Credits granted that day.' }),
      spent: Type.Integer({ description: 'Credits charged or deducted that day.' }),
    })),
  },
  { $id: 'BalanceHistory' },
);

export const CreditAlertsSchema = Type.Object(
  {
    lowBalanceThreshold: Nullable(Type.Integer({ minimum: 1, description: 'Below this balance the dashboard shows a banner and one credits.low event is sent (again only after the balance has been back up). null: off.' })),
    eventsWebhookUrl: Nullable(Type.String({ description: 'Where account events (credits.low) are delivered, signed like every webhook.' })),
    low: Type.Boolean({ description: 'The balance is below the threshold now.' }),
  },
  { $id: 'CreditAlerts' },
);
export type CreditAlerts = Static<typeof CreditAlertsSchema>;

export const CreditAlertsChangeSchema = Type.Object(
  {
    lowBalanceThreshold: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000_000 }))),
    eventsWebhookUrl: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 2048 }))),
  },
  { $id: 'CreditAlertsChange', additionalProperties: false, examples: [{ lowBalanceThreshold: 50, eventsWebhookUrl: 'https://example.com/hooks/account' }] },
);

export const CreditEventsSchema = Type.Object(
  {
    events: Type.Array(Type.Object({
      id: Type.Integer(),
      type: Type.Literal('credits.low'),
      createdAt: Type.String({ format: 'date-time' }),
      payload: Type.Object({
        type: Type.Literal('credits.low'),
        timestamp: Type.String({ format: 'date-time' }),
        data: Type.Object({ accountId: Type.String(), balance: Type.Integer(), threshold: Type.Integer(), requestId: Nullable(Type.String()) }),
      }, { description: 'The event body as it is delivered.' }),
    })),
  },
  { $id: 'CreditEvents' },
);

export const KeyUsageSchema = Type.Object(
  {
    days: Type.Integer(),
    keys: Type.Array(Type.Object({
      keyId: Nullable(Type.String({ description: 'null: requests made from the dashboard (session).' })),
      requests: Type.Integer(),
      credits: Type.Integer({ description: 'Credits charged for those requests.' }),
    })),
  },
  { $id: 'KeyUsage' },
);
