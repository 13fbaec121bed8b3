// Operator CLI: npm run cli -- <command>. Works while the service runs:
//  - with DATABASE_URL, directly on PostgreSQL (every change is one transaction, safe alongside the service);
//  - with the embedded database, directly when no process holds DATA_DIR (the CLI takes the lock for
//    the command's duration), otherwise through the operator API of the service that holds it (its
//    address is in the lock file), authenticated with OPERATOR_TOKEN;
//  - with --url, through that service's operator API.
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { openDatabase } from './infra/db/open-database.ts';
import { DataDirLockedError, describeHolder, readLockHolder, type LockHolder } from './infra/db/data-dir-lock.ts';
import { directClient, listenUrl, messageOf, remoteClient, type OperatorClient } from './cli/operator-client.ts';
import { defaultRateLimits } from './domain/limits/windows.ts';
import { formatReport } from './domain/operators/doctor.ts';
import type { UserView } from './domain/operators/users.ts';

const USAGE = `Usage: npm run cli -- [--url URL] <command> [options]

Users
  users create --email E --password P [--credits N] [--role customer|operator]
  users list [--search TEXT]
  users disable --email E [--reason TEXT]      every credential of the user is refused
  users enable --email E
  users role --email E --role customer|operator
Credits (a ledger entry each; --reason is recorded)
  credits grant --email E --amount N [--reason TEXT]
  credits deduct --email E --amount N --reason TEXT    never below 0
Rate limits
  limits set --email E [--per-minute N] [--per-hour N] [--per-day N]
  limits reset --email E
Other
  invite --email E [--credits N] [--role customer|operator]   an invitation link (SIGNUP=invite|open)
  audit [--email E] [--limit N]                 operator actions, newest first
  doctor                                        check balances, charges, stuck requests, queue, lock; exit 1 on a breach

Where commands run: with DATABASE_URL on PostgreSQL; with the embedded database directly when no
service holds DATA_DIR, otherwise through the running service's operator API (its address is in
DATA_DIR/channel-shorts.lock). --url URL always uses that service. Through a service, set
OPERATOR_TOKEN to the service's operator token.
`;

class CliError extends Error {}

const CLI_OPTIONS = {
  email: { type: 'string' },
  password: { type: 'string' },
  credits: { type: 'string' },
  amount: { type: 'string' },
  note: { type: 'string' },
  reason: { type: 'string' },
  role: { type: 'string' },
  search: { type: 'string' },
  limit: { type: 'string' },
  'per-minute': { type: 'string' },
  'per-hour': { type: 'string' },
  'per-day': { type: 'string' },
} as const;

function fail(message: string): never {
  throw new CliError(message);
}

function integerOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) fail(`--${name} must be a whole number, got "${value}"`);
  return Number(value);
}

function roleOption(value: string | undefined): 'customer' | 'operator' | undefined {
  if (value === undefined) return undefined;
  if (value !== 'customer' && value !== 'operator') fail(`--role must be customer or operator, got "${value}"`);
  return value;
}

function describeUser(user: UserView): string {
  const o = user.limitOverrides;
  const limits =
    `${user.rateLimits.perMinute}${o.perMinute === null ? '' : '*'}/min ` +
    `${user.rateLimits.perHour}${o.perHour === null ? '' : '*'}/h ` +
    `${user.rateLimits.perDay}${o.perDay === null ? '' : '*'}/day`;
  return (
    `${user.id}  ${user.email}  role=${user.role}  credits=${user.credits}  ` +
    `limits=${limits}${user.disabledAt ? `  DISABLED since ${user.disabledAt}` : ''}  created=${user.createdAt}`
  );
}

function remoteFor(url: string, config: Config, why: string): OperatorClient {
  if (!config.OPERATOR_TOKEN) {
    fail(
      `${why}; commands go through its operator API, which needs OPERATOR_TOKEN (the same value the service was ` +
        'started with). Set OPERATOR_TOKEN and run the command again; a service started without one has no ' +
        'operator API: restart it with OPERATOR_TOKEN set, or stop it and run the command, ' +
        'which then opens DATA_DIR itself.',
    );
  }
  return remoteClient(url, config.OPERATOR_TOKEN);
}

const SERVICE_START_WAIT_MS = 60_000;

/** A service that holds DATA_DIR but is still starting writes its URL into the lock once it listens. */
async function listeningService(dataDir: string, starting: LockHolder): Promise<LockHolder> {
  console.error(`waiting for the service (pid ${starting.pid}) to finish starting…`);
  const deadline = Date.now() + SERVICE_START_WAIT_MS;
  for (;;) {
    const current = readLockHolder(dataDir);
    if (!current || current.pid !== starting.pid || current.url || Date.now() > deadline) return current ?? starting;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function connect(config: Config, url: string | undefined): Promise<OperatorClient> {
  const settings = {
    defaults: defaultRateLimits(config),
    signup: config.SIGNUP,
    invitationTtlHours: config.INVITATION_TTL_HOURS,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    listenUrl: listenUrl(config),
    ...(config.DATABASE_URL ? {} : { dataDir: resolve(config.DATA_DIR) }),
  };
  if (url) return remoteFor(url, config, `--url ${url} given`);
  // A DATA_DIR without a database is one the service has never run on: most likely not the
  // service's (a CLI run with another environment would make users in a new ./data the service
  // never sees). Allowed — it is also how an operator prepares the first start — but said.
  const fresh =
    !config.DATABASE_URL && config.DATA_DIR !== ':memory:' && !existsSync(join(config.DATA_DIR, 'PG_VERSION'));
  try {
    const client = directClient(await openDatabase(config, { role: 'cli', waitSeconds: 0 }), settings);
    if (fresh)
      process.stderr.write(
        `note: ${resolve(config.DATA_DIR)} held no database; a new one was created there. If the service runs ` +
          'with another DATA_DIR (or DATABASE_URL), set the same here.\n',
      );
    return client;
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) fail(`cannot open the database (${(error as Error).message})`);
    const holder =
      error.holder.url || error.holder.role !== 'server'
        ? error.holder
        : await listeningService(config.DATA_DIR, error.holder);
    if (!holder.url)
      fail(
        `${config.DATA_DIR} is held by ${describeHolder(holder)}, which serves no operator API (a worker, ` +
          'another CLI, or a service still starting). Try again when it has stopped or is listening.',
      );
    return remoteFor(
      holder.url,
      config,
      `the service at ${holder.url} holds ${config.DATA_DIR} (${describeHolder(holder)})`,
    );
  }
}

type OptionValues = { [K in keyof typeof CLI_OPTIONS]?: string | undefined };

/** What a command reads, its options checked before any database or service is touched. */
interface CommandInput {
  name: string;
  values: OptionValues;
  /** The option's value, or a CliError saying it is required. */
  need(option: 'email' | 'password' | 'amount' | 'role'): string;
  /** --reason, or its older name --note. */
  reason: string | undefined;
  /** The rate limits given (--per-minute, --per-hour, --per-day), as numbers. */
  givenLimits: { perMinute?: number; perHour?: number; perDay?: number };
  /** --limit, 1 to 500, default 50. */
  listLimit: number;
}

/** Runs a command on the client; a command that can fail without an error answers the process's exit code. */
type Command = (client: OperatorClient, input: CommandInput) => Promise<void> | Promise<number>;

async function createUser(client: OperatorClient, { values, need }: CommandInput) {
  const credits = integerOption(values.credits, 'credits');
  const role = roleOption(values.role);
  const user = await client.createUser({
    email: need('email'),
    password: need('password'),
    credits,
    role,
  });
  console.log(`created ${user.role} ${user.email} (id ${user.id}) with ${user.credits} credits`);
}

async function listUsers(client: OperatorClient, { values }: CommandInput) {
  const users = await client.listUsers(values.search);
  if (users.length === 0)
    console.log(
      values.search
        ? `no user matches "${values.search}"`
        : `no users yet in ${client.target}; create one with: ` +
            'npm run cli -- users create --email E --password P --credits 100',
    );
  for (const user of users) console.log(describeUser(user));
}

async function setDisabled(client: OperatorClient, { name, need, reason }: CommandInput) {
  const user = await client.setDisabled(need('email'), name === 'users disable', reason ?? null);
  console.log(`${user.email} is ${user.disabledAt ? 'disabled' : 'enabled'}`);
}

async function setRole(client: OperatorClient, { need }: CommandInput) {
  const user = await client.setRole(need('email'), roleOption(need('role'))!);
  console.log(`${user.email} is now ${user.role === 'operator' ? 'an operator' : 'a customer'}`);
}

async function adjustCredits(client: OperatorClient, { name, need, reason }: CommandInput) {
  const amount = integerOption(need('amount'), 'amount')!;
  const direction = name === 'credits grant' ? 'grant' : 'deduct';
  const user = await client.adjustCredits(need('email'), { direction, amount, reason: reason ?? 'operator grant' });
  console.log(
    `${direction === 'grant' ? 'granted' : 'deducted'} ${amount} ` +
      `credits ${direction === 'grant' ? 'to' : 'from'} ${user.email}; balance is now ${user.credits}`,
  );
}

async function setLimits(client: OperatorClient, { name, need, givenLimits }: CommandInput) {
  const reset = name === 'limits reset';
  const user = await client.setLimits(
    need('email'),
    reset ? { perMinute: null, perHour: null, perDay: null } : givenLimits,
  );
  const o = user.limitOverrides;
  console.log(
    reset
      ? `limits for ${user.email} reset to the defaults`
      : `limits for ${user.email}: ` +
          `${o.perMinute ?? 'default'}/min ${o.perHour ?? 'default'}/h ${o.perDay ?? 'default'}/day`,
  );
}

async function invite(client: OperatorClient, { values, need }: CommandInput) {
  const credits = integerOption(values.credits, 'credits');
  const role = roleOption(values.role);
  const invitation = await client.invite({
    email: need('email'),
    credits,
    role,
  });
  console.log(
    `invitation for ${invitation.email} (valid until ${invitation.expiresAt}); send this link, it ` +
      `works once:\n${invitation.link}`,
  );
}

async function audit(client: OperatorClient, { values, listLimit }: CommandInput) {
  const entries = await client.audit(values.email, listLimit);
  if (entries.length === 0) console.log('no operator actions recorded');
  for (const e of entries) {
    console.log(
      `${e.createdAt}  ${e.actor}  ${e.action}  ${e.target ?? ''}${e.reason ? `  "${e.reason}"` : ''}  ` +
        `before=${JSON.stringify(e.before)} after=${JSON.stringify(e.after)}`,
    );
  }
}

async function doctor(client: OperatorClient) {
  const report = await client.doctor();
  console.log(`doctor on ${client.target}\n${formatReport(report)}`);
  return report.ok ? 0 : 1;
}

/** Every command by its name; needsEmail: --email is checked before connecting. */
const COMMANDS: Record<string, { needsEmail: boolean; run: Command }> = {
  'users create': { needsEmail: true, run: createUser },
  'users list': { needsEmail: false, run: listUsers },
  'users disable': { needsEmail: true, run: setDisabled },
  'users enable': { needsEmail: true, run: setDisabled },
  'users role': { needsEmail: true, run: setRole },
  'credits grant': { needsEmail: true, run: adjustCredits },
  'credits deduct': { needsEmail: true, run: adjustCredits },
  'limits set': { needsEmail: true, run: setLimits },
  'limits reset': { needsEmail: true, run: setLimits },
  invite: { needsEmail: true, run: invite },
  audit: { needsEmail: false, run: audit },
  doctor: { needsEmail: false, run: doctor },
};

/** Takes --url URL (or --url=URL) out of argv, wherever it stands. */
function takeUrlOption(argv: string[]): string | undefined {
  const urlAt = argv.findIndex((a) => a === '--url' || a.startsWith('--url='));
  if (urlAt < 0) return undefined;
  const [flag] = argv.splice(urlAt, 1);
  const url = flag!.includes('=') ? flag!.slice('--url='.length) : argv.splice(urlAt, 1)[0];
  if (!url || !/^https?:\/\//.test(url)) fail('--url needs an http(s) address, e.g. --url http://127.0.0.1:3000');
  return url;
}

/**
 * A mistyped, missing or extra option is the user's error: one line and the usage, not a stack
 * trace. parseArgs throws TypeErrors whose code says which.
 */
function parseOptions(args: string[]): OptionValues {
  try {
    return parseArgs({ args, options: CLI_OPTIONS, strict: true }).values;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))
      fail(`${(error as Error).message}\n\n${USAGE}`);
    throw error;
  }
}

/** The options every command may read, checked in this order (the first problem is the one reported). */
function commandInput(name: string, values: OptionValues, needsEmail: boolean): CommandInput {
  const need = (option: 'email' | 'password' | 'amount' | 'role') => values[option] ?? fail(`--${option} is required`);
  const reason = values.reason ?? values.note;
  if (name === 'credits deduct' && !reason) fail('--reason is required for a deduction');
  if (needsEmail) need('email');
  const limits = {
    perMinute: integerOption(values['per-minute'], 'per-minute'),
    perHour: integerOption(values['per-hour'], 'per-hour'),
    perDay: integerOption(values['per-day'], 'per-day'),
  };
  const givenLimits = Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined));
  if (name === 'limits set' && Object.keys(givenLimits).length === 0)
    fail('give at least one of --per-minute, --per-hour, --per-day');
  // Checked as the operator API checks it, directly on the data too: --limit 0 is an error, not an empty list.
  const listLimit = integerOption(values.limit, 'limit') ?? 50;
  if (listLimit < 1 || listLimit > 500) fail('--limit must be a whole number from 1 to 500');
  return { name, values, need, reason, givenLimits, listLimit };
}

async function main() {
  const argv = process.argv.slice(2);
  const url = takeUrlOption(argv);
  const [group, ...afterGroup] = argv;
  if (!group || group === 'help' || group === '--help') {
    console.log(USAGE);
    return;
  }
  const hasSub = ['users', 'credits', 'limits'].includes(group);
  const name = hasSub ? `${group} ${afterGroup[0] ?? ''}`.trim() : group;
  const values = parseOptions(hasSub ? afterGroup.slice(1) : afterGroup);
  // Own names only: "toString" is no command.
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) fail(`unknown command "${name}".\n\n${USAGE}`);
  const input = commandInput(name, values, command.needsEmail);

  const config = loadConfig(process.env);
  const client = await connect(config, url);
  let exitCode: number;
  try {
    exitCode = (await command.run(client, input)) ?? 0;
  } catch (error) {
    const message = messageOf(error);
    if (message !== null) fail(message);
    throw error;
  } finally {
    await client.close();
  }
  process.exitCode = exitCode;
}

main().catch((error) => {
  const known = error instanceof CliError || error instanceof ConfigError;
  console.error(
    `error: ${known || !(error instanceof Error) ? ((error as Error).message ?? String(error)) : error.stack}`,
  );
  process.exitCode = 1;
});
