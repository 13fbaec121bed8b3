// `npm run cli -- doctor` on a healthy data directory (exit 0), then on a copy broken on purpose in
// every way it checks: each breach is reported by name and the exit code is 1.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipWithout } from '../support/databases.ts';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/services.ts';
import { openDatabase } from '../src/infra/db/open-database.ts';
import { createAccount } from '../src/domain/accounts/accounts.ts';
import { chargeCredits } from '../src/domain/credits/ledger.ts';
import { insertRequest } from '../src/domain/requests/request-store.ts';
import { PASSWORD, createUser } from './helpers/test-app.ts';
import { harness } from './helpers/harness.ts';
import { ownLockStatus, runDoctor } from '../src/domain/operators/doctor.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function doctor(dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['src/cli.ts', 'doctor'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: undefined, OPERATOR_TOKEN: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('doctor', () => {
  let healthy: string;
  let broken: string;
  before(async () => {
    healthy = await mkdtemp(join(tmpdir(), 'cs-doctor-'));
    broken = `${healthy}-broken`;
    // A real service's database (queue installed), with a charged sync request and a delivered webhook request.
    const services = await createServices(loadConfig({ DATA_DIR: healthy }), {
      runWorker: false,
      role: 'test',
      log: { error: () => {}, info: () => {} },
    });
    const account = await createAccount(services.db, { email: 'doc@example.com', password: PASSWORD, credits: 50 });
    const completed = {
      status: 'completed' as const,
      httpStatus: 200,
      itemCount: 60,
      creditsCharged: 2,
      errorCode: null,
      result: {},
      quotaUnits: 3,
    };
    await services.db.transaction(async (tx) => {
      await chargeCredits(tx, account.id, 2, 'req_ok_sync');
      await insertRequest(
        tx,
        {
          id: 'req_ok_sync',
          accountId: account.id,
          apiKeyId: null,
          channelUrl: 'https://www.youtube.com/@a',
          oldestDate: null,
          limit: null,
          webhookUrl: null,
        },
        completed,
      );
      await chargeCredits(tx, account.id, 2, 'req_ok_hook');
      await insertRequest(
        tx,
        {
          id: 'req_ok_hook',
          accountId: account.id,
          apiKeyId: null,
          channelUrl: 'https://www.youtube.com/@a',
          oldestDate: null,
          limit: null,
          webhookUrl: 'https://example.com/h',
        },
        completed,
      );
      await tx.query(
        `INSERT INTO webhook_deliveries (request_id, webhook_id, attempt, status_code, outcome) VALUES ('req_ok_hook', 'msg_req_ok_hook', 1, 200, 'delivered')`,
      );
    });
    await services.close();
    await cp(healthy, broken, { recursive: true });

    const db = await openDatabase({ DATA_DIR: broken, DATABASE_POOL_SIZE: 1 }, { role: 'test' });
    const request = (id: string, status: string, webhook: boolean, credits: number | null) =>
      db.query(
        `INSERT INTO shorts_requests (id, account_id, channel_url, webhook_url, mode, status, credits_charged, completed_at) VALUES ($1, $2, 'https://www.youtube.com/@b', $3, $4, $5, $6, CASE WHEN $5 = 'processing' THEN NULL ELSE now() END)`,
        [id, account.id, webhook ? 'https://example.com/h' : null, webhook ? 'webhook' : 'sync', status, credits],
      );
    await db.query('UPDATE accounts SET credit_balance = credit_balance + 5, credits_reserved = 3 WHERE id = $1', [
      account.id,
    ]); // balance ≠ ledger; 3 reserved, no reservation
    await request('req_unledgered', 'completed', false, 3); // charged, but no ledger entry
    await db.query(
      `INSERT INTO credit_ledger (account_id, kind, amount, balance_after, request_id) VALUES ($1, 'charge', -4, 0, 'req_ghost')`,
      [account.id],
    ); // a charge without a request
    await request('req_stuck', 'processing', true, null); // processing, no job
    await request('req_undelivered', 'failed', true, 0); // settled webhook request, never attempted, no job
    await db.query(
      `INSERT INTO pgboss.job (name, data, state) VALUES ('webhook-delivery', '{"requestId":"req_ok_hook","attempt":2}', 'failed')`,
    ); // retries exhausted
    await db.close();
  });
  after(async () => {
    await rm(healthy, { recursive: true, force: true });
    await rm(broken, { recursive: true, force: true });
  });

  it('finds nothing wrong in a healthy database', async () => {
    const result = await doctor(healthy);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.doesNotMatch(result.stdout, /BREACH/);
    assert.match(result.stdout, /doctor: no breach found/);
    assert.match(result.stdout, /ok {5}queue health: /);
  });

  it('reports each breach of a copy broken on purpose, and exits 1', async () => {
    const result = await doctor(broken);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const out = result.stdout;
    assert.match(out, /BREACH balance = ledger sum: 1 account whose balance differs/);
    assert.match(out, /doc@example\.com: balance 51, ledger sum 42/);
    assert.match(out, /BREACH charged request → ledger entry: 1 charged request/);
    assert.match(out, /req_unledgered: charged 3, no ledger entry/);
    assert.match(out, /BREACH ledger entry → charged request: 1 ledger charge/);
    assert.match(out, /charge 4 for req_ghost: no such request/);
    assert.match(out, /BREACH processing request → job: 1 request stuck in processing/);
    assert.match(out, /req_stuck: processing since/);
    assert.match(out, /BREACH settled webhook request → delivery: 1 settled webhook request/);
    assert.match(out, /req_undelivered: settled/);
    assert.match(out, /BREACH queue health: 1 job\(s\) failed for good/);
    assert.match(out, /ok {5}DATA_DIR lock: held by cli pid \d+/);
    assert.match(out, /BREACH reserved credits = reservations: 1 account whose reserved credits differ/);
    assert.match(out, /doc@example\.com: reserved 3, reservations hold 0, balance 51/);
    assert.match(out, /doctor: 7 breaches found/);
  });
});

describe('doctor on PostgreSQL', { skip: skipWithout('postgres') }, () => {
  it('reads one consistent snapshot and reports a broken balance, a stuck request and a ledger entry naming no account', async (ctx) => {
    const t = await harness(ctx, { mode: 'postgres', fake: false });
    const user = await createUser(t, 30);
    const healthy = await runDoctor(t.services.db, { lock: ownLockStatus(t.services.db) });
    assert.equal(healthy.ok, true, JSON.stringify(healthy.findings));
    assert.match(healthy.findings.at(-1)!.summary, /not applicable: PostgreSQL/);
    await t.services.db.query('UPDATE accounts SET credit_balance = 0 WHERE id = $1', [user.id]);
    await t.services.db.query(
      `INSERT INTO shorts_requests (id, account_id, channel_url, webhook_url, mode, status) VALUES ('req_pg_stuck', $1, 'https://www.youtube.com/@c', 'https://example.com/h', 'webhook', 'processing')`,
      [user.id],
    );
    // No foreign key stops this since migration 009; the doctor does see it.
    const ghost = '00000000-0000-4000-8000-00000000dead';
    await t.services.db.query(
      `INSERT INTO credit_ledger (account_id, kind, amount, balance_after, note) VALUES ($1, 'grant', 0, 0, 'written by hand')`,
      [ghost],
    );
    const report = await runDoctor(t.services.db, { lock: ownLockStatus(t.services.db) });
    assert.equal(report.ok, false);
    const bad = Object.fromEntries(
      report.findings.filter((f) => f.severity === 'breach').map((f) => [f.check, f.details]),
    );
    assert.deepEqual(Object.keys(bad).sort(), [
      'balance = ledger sum',
      'ledger and requests → account',
      'processing request → job',
    ]);
    assert.match(
      bad['ledger and requests → account']![0]!,
      new RegExp(`^ledger #\\d+ names account ${ghost}, which does not exist$`),
    );
    assert.deepEqual(bad['balance = ledger sum'], [`${user.email}: balance 0, ledger sum 30`]);
    assert.match(bad['processing request → job']![0]!, /^req_pg_stuck: processing since/);
    assert.equal(report.findings.find((f) => f.check === 'migrations → files')?.severity, 'ok');
    // A migration file edited after it was applied is noticed (before: nothing did).
    const [{ checksum }] = (await t.services.db.query<{ checksum: string }>(
      "SELECT checksum FROM schema_migrations WHERE name = '001_initial.sql'",
    )) as [{ checksum: string }];
    assert.match(checksum, /^[0-9a-f]{64}$/);
    await t.services.db.query(
      "UPDATE schema_migrations SET checksum = 'as-applied-earlier' WHERE name = '001_initial.sql'",
    );
    const edited = (await runDoctor(t.services.db, { lock: ownLockStatus(t.services.db) })).findings.find(
      (f) => f.check === 'migrations → files',
    )!;
    assert.equal(edited.severity, 'warn');
    assert.match(edited.details[0]!, /^001_initial\.sql: applied, but the file this release ships differs/);
    await t.services.db.query("UPDATE schema_migrations SET checksum = $1 WHERE name = '001_initial.sql'", [checksum]);
  });
});
