// The credit statement (ledger pages, CSV export), the balance over time and the low-balance alert (issue #16).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import { allLedgerEntries, balanceHistory, ledgerPage } from '../../domain/credits/statement.ts';
import { getCreditAlerts, listCreditEvents, setCreditAlerts } from '../../domain/credits/credit-alerts.ts';
import { assertAcceptableWebhookUrl } from '../../domain/webhooks/webhook-url.ts';
import { callerOf } from '../plugins/authenticate.ts';
import { authErrors, invalidInput, json } from '../schemas/common.ts';
import {
  BalanceHistorySchema,
  CreditAlertsChangeSchema,
  CreditAlertsSchema,
  CreditEventsSchema,
  LedgerPageSchema,
  LedgerQuery,
} from '../schemas/credits.ts';
import { csvRow } from '../csv.ts';

const CSV_COLUMNS = [
  'id',
  'createdAt',
  'kind',
  'amount',
  'balanceAfter',
  'requestId',
  'channelUrl',
  'channelTitle',
  'note',
] as const;

export const creditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config, clock } = app.services;
  const security = [{ bearer: [] }];
  const read = { auth: true, scope: 'account:read' } as const;

  app.get(
    '/accounts/ledger',
    {
      config: read,
      schema: {
        tags: ['accounts'],
        summary:
          'Credit ledger (grants, charges, deductions) with the request and channel each charge paid for, newest first, in pages (cursor).',
        security,
        querystring: LedgerQuery,
        response: {
          200: json('One page of the statement, newest first.', LedgerPageSchema),
          400: invalidInput(),
          ...authErrors(),
        },
      },
    },
    async (request) => ledgerPage(db, callerOf(request).accountId, request.query.limit, request.query.cursor),
  );

  app.get(
    '/accounts/ledger.csv',
    {
      config: read,
      schema: {
        tags: ['accounts'],
        summary:
          "The whole ledger as CSV (RFC 4180, UTF-8, newest first). Text cells a spreadsheet would read as a formula start with '.",
        security,
        produces: ['text/csv'],
        response: {
          200: Type.String({ description: `CSV with a header row: ${CSV_COLUMNS.join(', ')}.` }),
          ...authErrors(),
        },
      },
    },
    async (request, reply) => {
      const accountId = callerOf(request).accountId;
      async function* lines() {
        yield csvRow([...CSV_COLUMNS]);
        for await (const e of allLedgerEntries(db, accountId)) {
          yield csvRow([
            e.id,
            e.createdAt,
            e.kind,
            e.amount,
            e.balanceAfter,
            e.requestId,
            e.channelUrl,
            e.channelTitle,
            e.note,
          ]);
        }
      }
      reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="ledger-${new Date(clock()).toISOString().slice(0, 10)}.csv"`,
        )
        .header('cache-control', 'no-store');
      // A stream, not the string the schema describes: fast-json-stringify is not involved for text/csv (as in shorts.ts).
      return reply.send(Readable.from(lines(), { objectMode: false }) as never);
    },
  );

  app.get(
    '/accounts/balance-history',
    {
      config: read,
      schema: {
        tags: ['accounts'],
        summary: 'The balance at the end of each UTC day, oldest first, every day present (from the ledger).',
        security,
        querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 366, default: 30 }) }),
        response: {
          200: json('The balance at the end of each day, oldest first.', BalanceHistorySchema),
          400: invalidInput(),
          ...authErrors(),
        },
      },
    },
    async (request) => ({
      days: await balanceHistory(db, callerOf(request).accountId, request.query.days, new Date(clock())),
    }),
  );

  app.get(
    '/accounts/alerts',
    {
      config: read,
      schema: {
        tags: ['accounts'],
        summary: "The low-balance threshold and the account's events webhook URL.",
        security,
        response: { 200: json('The alert settings.', CreditAlertsSchema), ...authErrors() },
      },
    },
    async (request) => getCreditAlerts(db, callerOf(request).accountId),
  );

  app.put(
    '/accounts/alerts',
    {
      // Where account events go is a setting like the webhook secret: a dashboard session changes it, not an API key.
      config: { auth: 'session' },
      schema: {
        tags: ['accounts'],
        summary:
          'Set the low-balance threshold and/or the events webhook URL (null turns either off; an omitted field is unchanged). Dashboard session only.',
        security,
        body: CreditAlertsChangeSchema,
        response: {
          200: json('The alert settings after the change.', CreditAlertsSchema),
          400: invalidInput(),
          ...authErrors(),
        },
      },
    },
    async (request) => {
      const { lowBalanceThreshold, eventsWebhookUrl } = request.body;
      if (typeof eventsWebhookUrl === 'string')
        assertAcceptableWebhookUrl(eventsWebhookUrl, config.WEBHOOK_ALLOW_PRIVATE_TARGETS, 'eventsWebhookUrl');
      return setCreditAlerts(db, callerOf(request).accountId, {
        ...(lowBalanceThreshold !== undefined ? { lowBalanceThreshold } : {}),
        ...(eventsWebhookUrl !== undefined ? { eventsWebhookUrl } : {}),
      });
    },
  );

  app.get(
    '/accounts/events',
    {
      config: read,
      schema: {
        tags: ['accounts'],
        summary: 'Account events (credits.low), newest first, with the body each is delivered with.',
        security,
        querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }) }),
        response: {
          200: json("The account's events, newest first.", CreditEventsSchema),
          400: invalidInput(),
          ...authErrors(),
        },
      },
    },
    async (request) => ({ events: await listCreditEvents(db, callerOf(request).accountId, request.query.limit) }),
  );
};
