// GET /api/youtube/shorts/:requestId/items: a stored result read in pages, free of charge.
import { Type } from 'typebox';
import type { Config } from '../../../config.ts';
import { readResultPage } from '../../../domain/requests/stored-results.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { failureResponse as failure, json } from '../../schemas/common.ts';
import { ItemsPageSchema, ItemsQuery } from '../../schemas/shorts-features.ts';
import type { RequestOf } from '../../types.ts';
import { commonErrors } from './common.ts';

export function resultItemsRoute(config: Config) {
  return {
    method: 'GET',
    url: '/api/youtube/shorts/:requestId/items',
    config: { auth: true, scope: 'shorts:read', failureBody: true },
    schema: {
      tags: ['shorts'],
      summary: "A finished request's stored result, page by page.",
      description:
        'Webhook requests, and synchronous requests sent with store: true, keep their whole result for ' +
        `RESULT_RETENTION_DAYS (${config.RESULT_RETENTION_DAYS}) days after completion; read it here ${'≤'} 500 ` +
        'shorts at a time, following nextCursor until it is null. ' +
        'Reading pages costs no credits. After the retention period: 410 RESULT_EXPIRED.',
      security: [{ bearer: [] }],
      params: Type.Object({
        requestId: Type.String({
          pattern: '^req_[a-z0-9]{1,40}$',
          description: 'The requestId of a shorts request.',
        }),
      }),
      querystring: ItemsQuery,
      response: {
        200: json('One page of the result.', ItemsPageSchema),
        ...commonErrors,
        404: failure('No such request for this account.', ['NOT_FOUND']),
        409: failure('The request is still processing, failed, or was answered synchronously without store: true.', [
          'CONFLICT',
        ]),
        410: failure('The result is past its retention period (RESULT_EXPIRED).', ['RESULT_EXPIRED']),
      },
    },
  } as const;
}

export async function resultItems(request: RequestOf<ReturnType<typeof resultItemsRoute>['schema']>) {
  const { db, config, clock } = request.server.services;
  return readResultPage(db, {
    accountId: callerOf(request).accountId,
    requestId: request.params.requestId,
    cursor: request.query.cursor,
    pageSize: request.query.pageSize,
    retentionDays: config.RESULT_RETENTION_DAYS,
    now: clock(),
  });
}
