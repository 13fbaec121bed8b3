// The opaque cursor of lists read newest first by (created_at, id): base64url of
// "<created_at in µs since the epoch>.<id>". Microseconds, as PostgreSQL keeps them: two rows
// created in one millisecond must not share a position. The request log and the batch list use it.
import { AppError } from '../../errors.ts';

export interface KeysetPosition {
  createdMicros: bigint;
  id: string;
}

export function encodeKeysetCursor(position: KeysetPosition): string {
  return Buffer.from(`${position.createdMicros}.${position.id}`).toString('base64url');
}

/** `idPrefix` names the list's ids (req, bat): a cursor of another list is refused. */
export function decodeKeysetCursor(cursor: string, idPrefix: string): KeysetPosition {
  const text = /^[A-Za-z0-9_-]{1,120}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = new RegExp(`^(\\d{1,17})\\.(${idPrefix}_[a-z0-9]{1,40})$`).exec(text);
  if (!match)
    throw new AppError(
      'VALIDATION_FAILED',
      'cursor is not one this endpoint returned: pass the nextCursor of the previous page unchanged, ' +
        'or omit it for the first page.',
    );
  return { createdMicros: BigInt(match[1]!), id: match[2]! };
}
