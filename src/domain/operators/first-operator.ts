// The first operator of a service that has no users yet, made from a one-time setup link instead of
// a shell: every start prints `<base>/dashboard/setup?token=…` while the service has no users
// (server.ts), and POST /setup with that token, an email and a password creates the operator.
//
// One token for every instance and every restart, with nothing stored that reads as the token:
// the settings table holds a random salt (the first instance to start writes it, every other one
// reads it), and the token is an HMAC of that salt under the service's secret (the JWT secret, the
// same on every instance). Every instance therefore prints and accepts the same link, and a restart
// prints it again. It is single-use because it works only while no account exists: once one does,
// every call answers 409 ALREADY_SET_UP, whatever the token.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database, Queryable } from '../../infra/db/database.ts';
import { createSettingsStore } from '../../infra/db/settings-store.ts';
import { AppError } from '../../errors.ts';
import { insertAccount, prepareAccount, type AccountRow } from '../accounts/accounts.ts';
import { writeAudit } from './audit.ts';

const TOKEN_PREFIX = 'cssetup_';
const SALT_KEY = 'setup_token_salt';

export interface FirstOperatorSetup {
  /** The setup token while the service has no users; undefined once it has one. */
  token(): Promise<string | undefined>;
  /** Creates the first operator (409 ALREADY_SET_UP once any user exists, 401 for another token). */
  complete(input: { token: string; email: string; password: string }): Promise<AccountRow>;
}

async function hasUsers(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM accounts) AS any');
  return row?.any === true;
}

function alreadySetUp(): AppError {
  return new AppError(
    'ALREADY_SET_UP',
    'This service is set up already: it has users. Sign in, or ask an operator for an account.',
  );
}

export function createFirstOperatorSetup(db: Database, secret: string): FirstOperatorSetup {
  const derive = async () => {
    const salt = await createSettingsStore(db).getOrInsert(SALT_KEY, randomBytes(32).toString('base64url'));
    return TOKEN_PREFIX + createHmac('sha256', secret).update(`first-operator-setup:${salt}`).digest('base64url');
  };
  const matches = (given: string, expected: string) => {
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  return {
    async token() {
      return (await hasUsers(db)) ? undefined : derive();
    },
    async complete(input) {
      if (await hasUsers(db)) throw alreadySetUp();
      if (!matches(input.token, await derive()))
        throw new AppError(
          'INVALID_SETUP_TOKEN',
          'This setup link is not valid: use the one the service printed when it started (it is the same on ' +
            'every start until the first user exists).',
        );
      // Hashing the password is the slow part: done before the transaction.
      const prepared = await prepareAccount({ email: input.email, password: input.password, role: 'operator' });
      return db.transaction(async (tx) => {
        // Of two setups (or a setup and the CLI) at once, one creates the first user; the other then
        // finds it and is refused.
        await tx.query('LOCK TABLE accounts IN SHARE ROW EXCLUSIVE MODE');
        if (await hasUsers(tx)) throw alreadySetUp();
        const account = await insertAccount(tx, prepared);
        await writeAudit(
          tx,
          { label: account.email, accountId: account.id },
          {
            action: 'setup.first-operator',
            targetAccountId: account.id,
            target: account.email,
            before: null,
            after: { email: account.email, role: account.role },
          },
        );
        return account;
      });
    },
  };
}
