// Who may use the operator API: a dashboard session of a user whose role is `operator` (checked
// against the database on every call, so a demotion or a disabled account takes effect at once),
// or the OPERATOR_TOKEN (compared in constant time). Never an API key, not even an operator's.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import { getAccount } from '../accounts/accounts.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { looksLikeApiKey } from '../keys/api-key-format.ts';
import type { Actor } from './audit.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

export function operatorTokenMatches(presented: string, configured: string | undefined): boolean {
  if (!configured) return false;
  // Equal-length digests: the comparison time says nothing about the secret or its length.
  return timingSafeEqual(digest(presented), digest(configured));
}

export async function authenticateOperator(
  deps: { db: Queryable; auth: Authenticator; operatorToken: string | undefined },
  header: string | undefined,
): Promise<Actor & { via: 'token' | 'session' }> {
  const token = header && /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (token && operatorTokenMatches(token, deps.operatorToken))
    return { label: 'operator token', accountId: null, via: 'token' };
  let caller;
  try {
    caller = await deps.auth.authenticate(header);
  } catch (error) {
    if (
      token &&
      error instanceof AppError &&
      error.code === 'UNAUTHORIZED' &&
      !token.includes('.') &&
      !looksLikeApiKey(token)
    ) {
      // Neither a session (a JWT has dots) nor the operator token: most likely a mistyped OPERATOR_TOKEN.
      throw new AppError(
        'UNAUTHORIZED',
        `The bearer token is not the service's OPERATOR_TOKEN${
          deps.operatorToken
            ? ''
            : ' (this service was started without one: restart it with OPERATOR_TOKEN set to use the operator API ' +
              'with a token)'
        } nor an operator's session token.`,
      );
    }
    throw error;
  }
  if (caller.via !== 'session')
    throw new AppError(
      'FORBIDDEN',
      "The operator API needs an operator's dashboard session or the OPERATOR_TOKEN; API keys are never accepted.",
    );
  const account = await getAccount(deps.db, caller.accountId);
  if (!account) throw new AppError('UNAUTHORIZED', 'The account behind this session no longer exists.');
  if (account.disabled_at) throw new AppError('FORBIDDEN', 'This account is disabled; contact support.');
  if (account.role !== 'operator') throw new AppError('FORBIDDEN', 'Only operators may use the operator API.');
  return { label: account.email, accountId: account.id, via: 'session' };
}
