// Operator CLI: npm run cli -- <command>. Works on the same database as the service
// (with PGlite, stop the service first: an embedded database has one owner at a time).
import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { openDatabase } from './infra/db/open-database.ts';
import { createAccount, findAccountByEmail, listAccounts, setRateLimits, normaliseEmail, effectiveRateLimits } from './domain/accounts/accounts.ts';
import { grantCredits } from './domain/credits/ledger.ts';
import { AppError } from './errors.ts';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  users create --email E --password P [--credits N]   create a user (account) with an optional starting balance
  users list                                           list users with balances and limits
  credits grant --email E --amount N [--note TEXT]     add credits to a user's balance
  limits set --email E [--per-minute N] [--per-hour N] [--per-day N]   raise/lower one account's rate limits
  limits reset --email E                               back to the defaults
`;

class CliError extends Error {}

// Throws rather than exiting, so an open database is always closed cleanly first.
function fail(message: string): never {
  throw new CliError(message);
}

function integerOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) fail(`--${name} must be a whole number, got "${value}"`);
  return Number(value);
}

async function main() {
  const [group, command, ...rest] = process.argv.slice(2);
  if (!group || group === 'help' || group === '--help') {
    console.log(USAGE);
    return;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' }, password: { type: 'string' }, credits: { type: 'string' }, amount: { type: 'string' }, note: { type: 'string' },
      'per-minute': { type: 'string' }, 'per-hour': { type: 'string' }, 'per-day': { type: 'string' },
    },
    strict: true,
  });
  const config = loadConfig(process.env);
  const db = await openDatabase(config).catch((error: Error) => fail(`cannot open the database (${error.message}). With the embedded database, stop the running service first.`));
  try {
    const need = (name: 'email' | 'password' | 'amount') => values[name] ?? fail(`--${name} is required`);
    switch (`${group} ${command}`) {
      case 'users create': {
        const account = await createAccount(db, { email: need('email'), password: need('password'), credits: integerOption(values.credits, 'credits') ?? 0 });
        console.log(`created user ${account.email} (id ${account.id}) with ${account.credit_balance} credits`);
        break;
      }
      case 'users list': {
        const defaults = { perMinute: config.RATE_LIMIT_PER_MINUTE, perHour: config.RATE_LIMIT_PER_HOUR, perDay: config.RATE_LIMIT_PER_DAY };
        const rows = await listAccounts(db);
        if (rows.length === 0) console.log('no users yet; create one with: npm run cli -- users create --email E --password P --credits 100');
        for (const row of rows) {
          const limits = effectiveRateLimits(row, defaults);
          console.log(`${row.id}  ${row.email}  credits=${row.credit_balance}  limits=${limits.perMinute}/min ${limits.perHour}/h ${limits.perDay}/day  created=${row.created_at.toISOString()}`);
        }
        break;
      }
      case 'credits grant': {
        const amount = integerOption(need('amount'), 'amount')!;
        const account = await findAccountByEmail(db, need('email'));
        if (!account) fail(`no user with email ${normaliseEmail(need('email'))}`);
        const balance = await db.transaction((tx) => grantCredits(tx, account.id, amount, values.note ?? 'operator grant'));
        console.log(`granted ${amount} credits to ${account.email}; balance is now ${balance}`);
        break;
      }
      case 'limits set': {
        const limits = { perMinute: integerOption(values['per-minute'], 'per-minute'), perHour: integerOption(values['per-hour'], 'per-hour'), perDay: integerOption(values['per-day'], 'per-day') };
        const given = Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined));
        if (Object.keys(given).length === 0) fail('give at least one of --per-minute, --per-hour, --per-day');
        const row = await setRateLimits(db, need('email'), given);
        console.log(`limits for ${row.email}: ${row.rate_limit_per_minute ?? 'default'}/min ${row.rate_limit_per_hour ?? 'default'}/h ${row.rate_limit_per_day ?? 'default'}/day`);
        break;
      }
      case 'limits reset': {
        const row = await setRateLimits(db, need('email'), { perMinute: null, perHour: null, perDay: null });
        console.log(`limits for ${row.email} reset to the defaults`);
        break;
      }
      default:
        fail(`unknown command "${group} ${command ?? ''}".\n\n${USAGE}`);
    }
  } catch (error) {
    if (error instanceof AppError) fail(error.message);
    throw error;
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
