import { Type } from 'typebox';
import { listAudit } from '../../../domain/operators/audit.ts';
import { AuditEntrySchema } from '../../../contract/operator.ts';
import { json } from '../../schemas/common.ts';
import type { RequestOf } from '../../types.ts';
import { operatorErrors, operatorSchema } from './common.ts';

export const listAuditRoute = {
  method: 'GET',
  url: '/operator/audit',
  schema: {
    ...operatorSchema(),
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
} as const;

export async function listAuditEntries(request: RequestOf<typeof listAuditRoute.schema>) {
  const { userId, limit, before } = request.query;
  return {
    entries: await listAudit(request.server.services.db, {
      accountId: userId,
      limit,
      beforeId: before,
    }),
  };
}
