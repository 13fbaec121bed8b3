// The credit ledger: in pages (JSON) and whole (CSV).
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import { allLedgerEntries, ledgerPage as readLedgerPage } from '../../../domain/credits/statement.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { authErrors, invalidInput, json } from '../../schemas/common.ts';
import { LedgerPageSchema, LedgerQuery } from '../../schemas/credits.ts';
import { csvRow } from '../../csv.ts';
import type { ReplyOf, RequestOf } from '../../types.ts';
import { accountRead } from './common.ts';

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

export const ledgerPageRoute = {
  method: 'GET',
  url: '/accounts/ledger',
  config: accountRead,
  schema: {
    tags: ['accounts'],
    summary:
      'Credit ledger (grants, charges, deductions) with the request and channel each charge paid for, ' +
      'newest first, in pages (cursor).',
    security: [{ bearer: [] }],
    querystring: LedgerQuery,
    response: {
      200: json('One page of the statement, newest first.', LedgerPageSchema),
      400: invalidInput(),
      ...authErrors(),
    },
  },
} as const;

export async function ledgerPage(request: RequestOf<typeof ledgerPageRoute.schema>) {
  const { db } = request.server.services;
  return readLedgerPage(db, callerOf(request).accountId, request.query.limit, request.query.cursor);
}

export const ledgerCsvRoute = {
  method: 'GET',
  url: '/accounts/ledger.csv',
  config: accountRead,
  schema: {
    tags: ['accounts'],
    summary:
      'The whole ledger as CSV (RFC 4180, UTF-8, newest first). Text cells a spreadsheet would ' +
      "read as a formula start with '.",
    security: [{ bearer: [] }],
    produces: ['text/csv'],
    response: {
      200: Type.String({ description: `CSV with a header row: ${CSV_COLUMNS.join(', ')}.` }),
      ...authErrors(),
    },
  },
} as const;

export async function ledgerCsv(
  request: RequestOf<typeof ledgerCsvRoute.schema>,
  reply: ReplyOf<typeof ledgerCsvRoute.schema>,
) {
  const { db, clock } = request.server.services;
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
    .header('content-disposition', `attachment; filename="ledger-${new Date(clock()).toISOString().slice(0, 10)}.csv"`)
    .header('cache-control', 'no-store');
  // A stream, not the string the schema describes: fast-json-stringify is not involved for text/csv.
  return reply.send(Readable.from(lines(), { objectMode: false }) as never);
}
