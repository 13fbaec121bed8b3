// The operator CLI while the service runs (real child processes): on the embedded database it goes
// through the service's operator API (found in the DATA_DIR lock), and the service sees every change
// at once; with DATABASE_URL it works on PostgreSQL directly, concurrently with the service.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild, type ChildService } from '../support/child-service.ts';
import { PASSWORD } from './helpers/test-app.ts';
import { createPostgresDatabase, skipWithout } from '../support/databases.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OPERATOR_TOKEN = 'cli-test-token-0123456789abcdef0123456789';

function cli(
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['src/cli.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, OPERATOR_TOKEN: undefined, DATABASE_URL: undefined, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function login(url: string, email: string): Promise<{ status: number; token?: string }> {
  const res = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  return { status: res.status, ...(res.ok ? { token: ((await res.json()) as { token: string }).token } : {}) };
}

async function balance(url: string, token: string): Promise<number> {
  const res = await fetch(`${url}/accounts`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { credits: { balance: number } }).credits.balance;
}

describe('operator CLI against a running embedded service', () => {
  let dataDir: string;
  let service: ChildService | undefined;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cs-cli-'));
  });
  after(async () => {
    await service?.kill();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('goes through the service: the service sees users and credits at once, and the data stay consistent', async () => {
    const env = { DATA_DIR: dataDir };
    service = await startChild('src/server.ts', { ...env, OPERATOR_TOKEN });
    const url = service.url;

    const refused = await cli(
      ['users', 'create', '--email', 'live@example.com', '--password', PASSWORD, '--credits', '7'],
      env,
    );
    assert.equal(refused.code, 1, 'without OPERATOR_TOKEN the CLI refuses');
    assert.match(
      refused.stderr,
      new RegExp(`the service at ${url.replace(/[.]/g, '\\.')} holds .* needs OPERATOR_TOKEN`),
    );
    const wrong = await cli(['users', 'list'], { ...env, OPERATOR_TOKEN: 'w'.repeat(40) });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /not the service's OPERATOR_TOKEN nor an operator's session token.*UNAUTHORIZED/);

    const opEnv = { ...env, OPERATOR_TOKEN };
    const created = await cli(
      ['users', 'create', '--email', 'live@example.com', '--password', PASSWORD, '--credits', '7'],
      opEnv,
    );
    assert.equal(created.code, 0, created.stderr);
    const session = await login(url, 'live@example.com');
    assert.equal(session.status, 200, 'the running service knows the new user');
    assert.equal(await balance(url, session.token!), 7);

    const granted = await cli(
      ['credits', 'grant', '--email', 'live@example.com', '--amount', '100', '--reason', 'welcome'],
      opEnv,
    );
    assert.equal(granted.code, 0, granted.stderr);
    assert.match(granted.stdout, /balance is now 107/);
    assert.equal(await balance(url, session.token!), 107);
    const tooMuch = await cli(
      ['credits', 'deduct', '--email', 'live@example.com', '--amount', '500', '--reason', 'x'],
      opEnv,
    );
    assert.equal(tooMuch.code, 1);
    assert.match(tooMuch.stderr, /balance is 107.*Nothing was changed/);
    assert.equal(await balance(url, session.token!), 107);

    const limits = await cli(['limits', 'set', '--email', 'live@example.com', '--per-minute', '5'], opEnv);
    assert.equal(limits.code, 0, limits.stderr);
    const listed = await cli(['users', 'list', '--search', 'live@'], opEnv);
    assert.match(listed.stdout, /live@example\.com {2}role=customer {2}credits=107 {2}limits=5\*\/min/);
    const audit = await cli(['audit', '--email', 'live@example.com'], opEnv);
    assert.match(audit.stdout, /operator token {2}limits\.set/);
    assert.match(audit.stdout, /operator token {2}credits\.grant {2}live@example\.com {2}"welcome"/);

    const doctor = await cli(['doctor'], opEnv);
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    assert.match(doctor.stdout, new RegExp(`doctor on the running service at ${url.replace(/[.]/g, '\\.')}`));
    assert.match(doctor.stdout, new RegExp(`DATA_DIR lock: held by server pid ${service.process.pid}`));
    assert.match(doctor.stdout, /ok {5}balance = ledger sum/);

    const byUrl = await cli(['--url', url, 'users', 'list'], { DATA_DIR: '/nonexistent-never-opened', OPERATOR_TOKEN });
    assert.equal(byUrl.code, 0, byUrl.stderr);
    assert.match(byUrl.stdout, /live@example\.com/);

    await service.kill('SIGTERM');
    service = undefined;
    // Stopped: the CLI opens the data directory itself, and everything done through the service is there.
    const direct = await cli(['users', 'list'], env);
    assert.equal(direct.code, 0, direct.stderr);
    assert.match(direct.stdout, /live@example\.com {2}role=customer {2}credits=107/);
    const directDoctor = await cli(['doctor'], env);
    assert.equal(directDoctor.code, 0, directDoctor.stdout);
    assert.match(directDoctor.stdout, /doctor on the embedded database in \S+ \(this CLI holds it\)/);
    assert.match(directDoctor.stdout, /DATA_DIR lock: held by cli pid \d+/);
  });
});

describe('operator CLI on PostgreSQL alongside the service', { skip: skipWithout('postgres') }, () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let service: ChildService | undefined;
  before(async () => {
    database = await createPostgresDatabase();
  });
  after(async () => {
    await service?.kill();
    await database.drop();
  });

  it('works directly on the database; concurrent grants all land and the ledger agrees', async () => {
    const env = { DATABASE_URL: database.url, DATA_DIR: '/nonexistent-never-opened' };
    service = await startChild('src/server.ts', env);
    const created = await cli(
      ['users', 'create', '--email', 'pg@example.com', '--password', PASSWORD, '--credits', '1'],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    const session = await login(service.url, 'pg@example.com');
    assert.equal(session.status, 200);
    const grants = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        cli(
          ['credits', 'grant', '--email', 'pg@example.com', '--amount', String(i + 1), '--reason', `batch ${i}`],
          env,
        ),
      ),
    );
    for (const g of grants) assert.equal(g.code, 0, g.stderr);
    assert.equal(await balance(service.url, session.token!), 1 + 21);
    const doctor = await cli(['doctor'], env);
    assert.equal(doctor.code, 0, doctor.stdout);
    assert.match(doctor.stdout, /doctor on PostgreSQL/);
    assert.match(doctor.stdout, /DATA_DIR lock: not applicable: PostgreSQL/);
  });
});

describe('operator CLI: mistakes in its arguments', () => {
  it('a mistyped, missing or extra option, or a --limit out of range, is one line and the usage, exit 1, before anything is opened', async () => {
    const env = { DATA_DIR: '/nonexistent-never-opened' };
    for (const args of [
      ['users', 'list', '--serach', 'x'],
      ['credits', 'grant', '--email'],
      ['audit', 'extra'],
      ['audit', '--limit', '0'],
    ]) {
      const res = await cli(args, env);
      assert.equal(res.code, 1, `${args.join(' ')}: ${res.stdout}`);
      assert.match(res.stderr, /^error: /, args.join(' '));
      assert.doesNotMatch(res.stderr, /\n\s+at /, `${args.join(' ')}: no stack trace`);
    }
  });
});

describe('operator CLI: a DATA_DIR the service never ran on', () => {
  it('says that it created a new database there, and only then', async (ctx) => {
    const parent = await mkdtemp(join(tmpdir(), 'cs-cli-fresh-'));
    ctx.after(async () => {
      await rm(parent, { recursive: true, force: true });
    });
    const env = { DATA_DIR: join(parent, 'data') };
    const first = await cli(['users', 'list'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(
      first.stderr,
      /^note: .*data held no database; a new one was created there\. If the service runs with another DATA_DIR/m,
    );
    const second = await cli(['users', 'list'], env);
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stderr, /note:/);
  });
});

describe('operator CLI on a data directory without users', () => {
  it('names the directory it read when it finds no users', async (t) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cs-cli-empty-'));
    t.after(() => rm(dataDir, { recursive: true, force: true }));
    const listed = await cli(['users', 'list'], { DATA_DIR: dataDir });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(
      listed.stdout,
      new RegExp(`^no users yet in the embedded database in ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `, 'm'),
    );
  });
});
