// One check for every route, before its schema: no text anywhere in the input (body, query string,
// path parameters — values and names) may hold what PostgreSQL cannot store, i.e. NUL or a lone
// UTF-16 surrogate. Such input is refused with 400 VALIDATION_FAILED instead of failing deep inside
// a query (docs/spec.md, security commitments).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../errors.ts';

const MAX_DEPTH = 64;

/** The path of the first unstorable string in `value` ('' for the value itself), or null. */
export function findUnstorableText(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') || !value.isWellFormed() ? path : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  // Raw bytes (a signed XML body kept as a Buffer) are no text: their routes parse them with a
  // bounded reader. Walking one as an object costs an entry per byte.
  if (ArrayBuffer.isView(value)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], `${path}[${i}]`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const where = path ? `${path}.${key}` : key;
    if (key.includes('\u0000') || !key.isWellFormed()) return `${path || '(object)'} (a field name)`;
    const found = findUnstorableText(item, where, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

export const inputGuard = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [
      ['body', request.body],
      ['querystring', request.query],
      ['params', request.params],
    ] as const) {
      const found = findUnstorableText(value);
      if (found !== null) {
        throw new AppError(
          'VALIDATION_FAILED',
          `Invalid ${part}: ${found || part} contains a NUL character or an unpaired surrogate, ` +
            'which text fields may not hold.',
        );
      }
    }
  });
});
