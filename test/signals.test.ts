// Stopping `npm start` / `npm run worker` with SIGTERM (what a supervisor does): npm exits only after
// node has drained and released DATA_DIR, so a supervisor watching npm's pid cannot start a second
// process on the same data. (Before the scripts used `exec`, npm exited within milliseconds and the
// node process never even received the signal.)
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakePlatform, type FakePlatform } from '../src/fake-platform/server.ts';
import { fakeEnv } from './helpers/harness.ts';
import { openDatabase } from '../src/infra/db/open-database.ts';
import { createAccount } from '../src/domain/accounts/accounts.ts';
import { createApiKey } from '../src/domain/keys/api-keys.ts';
import { LOCK_FILE_NAME, readLockHolder } from '../src/infra/db/data-dir-lock.ts';
import { freePort } from '../support/child-service.ts';
import { PASSWORD } from './helpers/test-app.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor<T>(probe: () => T | undefined | null | false, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('npm scripts and SIGTERM', () => {
  let fake: FakePlatform;
  let dataDir: string;
  let key: string;
  const started: ChildProcess[] = [];
  before(async () => {
    fake = await startFakePlatform({ latencyMs: 400 });
    dataDir = await mkdtemp(join(tmpdir(), 'cs-signals-'));
    const db = await openDatabase({ DATA_DIR: dataDir, DATABASE_POOL_SIZE: 1 }, { role: 'test' });
    const account = await createAccount(db, { email: 'sig@example.com', password: PASSWORD, credits: 100 });
    key = (await createApiKey(db, account.id, 'sig')).key;
    await db.close();
  });
  after(async () => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await fake.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  function npm(script: string, env: Record<string, string>) {
    const child = spawn('npm', ['run', '--silent', script], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number>((resolve) => child.once('exit', () => resolve(Date.now())));
    return { child, exited, output: () => output };
  }

  it('npm start: SIGTERM to npm lets the in-flight request finish; npm exits after node, with the lock released', async () => {
    const port = await freePort();
    const run = npm('start', {
      PORT: String(port),
      YOUTUBE_API_KEY: 'fake-api-key',
      ...fakeEnv(fake),
      CACHE_TTL_SECONDS: '0',
    });
    const holder = await waitFor(() => {
      const current = readLockHolder(dataDir);
      return current?.url ? current : null;
    }, 'the service to listen');
    assert.notEqual(holder.pid, run.child.pid, 'node runs as its own process under npm');
    fake.resetStats();
    const inFlight = fetch(`http://127.0.0.1:${port}/api/youtube/shorts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channelUrl: 'https://www.youtube.com/@fake-3' }),
    });
    // In flight for sure: the service has made its first (slow) upstream call and has more to make.
    await waitFor(() => fake.calls().length > 0, 'the first upstream call');
    const signalledAt = Date.now();
    run.child.kill('SIGTERM');
    const response = await inFlight;
    assert.equal(response.status, 200, 'the in-flight request was answered');
    const exitedAt = await run.exited;
    assert.equal(alive(holder.pid), false, `node (pid ${holder.pid}) had exited when npm exited`);
    assert.equal(existsSync(join(dataDir, LOCK_FILE_NAME)), false, 'and had released DATA_DIR');
    assert.equal(run.child.exitCode, 0, run.output());
    assert.ok(exitedAt - signalledAt > 300, `npm waited for the drain (${exitedAt - signalledAt} ms)`);
  });

  it('npm run worker, stopped while still starting: npm exits after the worker has started and closed its queue and database', async () => {
    const run = npm('worker', {});
    const holder = await waitFor(() => readLockHolder(dataDir), 'the worker to take the lock');
    assert.equal(holder.role, 'worker');
    // At once, while it is still starting (migrations, queue): the stop waits for the start to finish.
    run.child.kill('SIGTERM');
    await run.exited;
    assert.equal(alive(holder.pid), false);
    assert.equal(existsSync(join(dataDir, LOCK_FILE_NAME)), false);
    assert.equal(run.child.exitCode, 0, run.output());
  });
});
