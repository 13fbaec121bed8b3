// What the batch and stored-result routes share: their errors (the failure body) and the batch id.
import { Type } from 'typebox';
import { AppError } from '../../../errors.ts';
import type { Queryable } from '../../../infra/db/database.ts';
import { findBatch } from '../../../domain/requests/batches.ts';
import { failureResponse as failure } from '../../schemas/common.ts';

export const BatchParams = Type.Object({
  batchId: Type.String({
    pattern: '^bat_[a-z0-9]{1,40}$',
    description: 'The batchId returned by POST /api/youtube/shorts/batch.',
  }),
});

export const commonErrors = {
  400: failure('Invalid input; the message says what is accepted.', ['VALIDATION_FAILED']),
  401: failure('Missing, invalid, expired or revoked credential.', ['UNAUTHORIZED', 'TOKEN_EXPIRED']),
  403: failure('The credential may not use this resource.', ['FORBIDDEN']),
  500: failure('Unexpected server error.', ['INTERNAL_ERROR']),
  503: failure('A backing store (database, Redis) is unavailable.', ['SERVICE_UNAVAILABLE']),
};

/** The caller's batch; someone else's is indistinguishable from one that does not exist. */
export async function ownBatch(db: Queryable, accountId: string, batchId: string) {
  const batch = await findBatch(db, batchId);
  if (!batch || batch.account_id !== accountId) throw new AppError('NOT_FOUND', `No batch ${batchId}.`);
  return batch;
}
