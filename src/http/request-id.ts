import { randomBytes } from 'node:crypto';

/** Time-ordered, unguessable request ids: req_<ms base36><80 random bits hex>. */
export function newRequestId(): string {
  return `req_${Date.now().toString(36)}${randomBytes(10).toString('hex')}`;
}
