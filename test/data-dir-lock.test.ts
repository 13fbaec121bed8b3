// One process owns DATA_DIR: real child processes (the service itself, and small lock holders)
// refuse a second opener, survive kill -9 by taking over the stale lock, and release on a clean stop.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  acquireDataDirLock,
  DataDirLockedError,
  LOCK_FILE_NAME,
  processStartTime,
  readLockHolder,
} from '../src/infra/db/data-dir-lock.ts';
import { startChild, freePort, type ChildService } from '../support/child-service.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function run(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out: ${args.join(' ')}\n${output}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, ms: Date.now() - started });
    });
  });
}

describe('DATA_DIR lock', () => {
  let dataDir: string;
  const children: ChildService[] = [];
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cs-lock-'));
  });
  after(async () => {
    for (const child of children) await child.kill();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a second service refuses at once naming the holder; kill -9 leaves a lock the next start takes over; a clean stop releases it', async () => {
    const env = { DATA_DIR: dataDir };
    const first = await startChild('src/server.ts', env);
    children.push(first);
    const holder = readLockHolder(dataDir);
    assert.ok(holder, 'the service holds a lock');
    assert.equal(holder.pid, first.process.pid);
    assert.equal(holder.hostname, hostname());
    assert.equal(holder.role, 'server');
    assert.equal(holder.url, first.url, 'the lock names the address it listens on');
    assert.equal(holder.processStart, processStartTime(first.process.pid!));

    const second = await run(['src/server.ts'], { ...env, PORT: String(await freePort()) });
    assert.notEqual(second.code, 0, second.output);
    assert.match(second.output, new RegExp(`in use by server pid ${first.process.pid} on ${hostname()}`));
    // At once (LOCK_WAIT_SECONDS is 0): it never waited. Not timed: a loaded machine takes 20 s to start node.
    assert.doesNotMatch(second.output, /waiting up to/);
    const worker = await run(['src/worker.ts'], env);
    assert.notEqual(worker.code, 0);
    assert.match(worker.output, new RegExp(`server pid ${first.process.pid}`));
    assert.equal(readLockHolder(dataDir)?.pid, first.process.pid, 'the refused processes left the lock alone');

    await first.kill('SIGKILL');
    assert.equal(readLockHolder(dataDir)?.pid, first.process.pid, 'kill -9 leaves the lock file behind');
    const third = await startChild('src/server.ts', env);
    children.push(third);
    assert.equal(readLockHolder(dataDir)?.pid, third.process.pid, 'the stale lock was taken over');
    const health = await fetch(`${third.url}/readyz`);
    assert.equal(health.status, 200);

    await third.kill('SIGTERM');
    assert.equal(third.process.exitCode, 0, third.output());
    assert.equal(existsSync(join(dataDir, LOCK_FILE_NAME)), false, 'a clean stop removes the lock');
  });

  it('an overlapping restart waits (LOCK_WAIT_SECONDS) for the draining process, never opening alongside it', async () => {
    // A failure in the test before may have left its service holding the directory.
    for (const child of children.splice(0)) await child.kill();
    const env = { DATA_DIR: dataDir };
    const port = await freePort();
    const first = await startChild('src/server.ts', env, { port });
    children.push(first);
    const next = spawn(process.execPath, ['src/server.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env, LOCK_WAIT_SECONDS: '60', PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    next.stdout.on('data', (c: Buffer) => (output += c.toString()));
    next.stderr.on('data', (c: Buffer) => (output += c.toString()));
    try {
      const deadline = Date.now() + 30_000;
      while (!output.includes('waiting up to 60 s')) {
        assert.ok(Date.now() < deadline, `the new process says it waits:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(readLockHolder(dataDir)?.pid, first.process.pid);
      let firstExitedAt = 0;
      first.process.once('exit', () => (firstExitedAt = Date.now()));
      await first.kill('SIGTERM');
      let holder = readLockHolder(dataDir);
      while (holder?.pid !== next.pid || !holder?.url) {
        assert.ok(Date.now() < deadline + 30_000, `the new process takes over:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
        holder = readLockHolder(dataDir);
      }
      assert.ok(firstExitedAt > 0);
      assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
    } finally {
      next.kill('SIGTERM');
      await new Promise((r) => next.once('exit', r));
    }
    assert.equal(existsSync(join(dataDir, LOCK_FILE_NAME)), false);
  });

  it('of many processes racing for a stale lock exactly one wins', async (ctx) => {
    const dir = await mkdtemp(join(tmpdir(), 'cs-lock-race-'));
    ctx.after(async () => {
      await rm(dir, { recursive: true, force: true });
    });
    // A lock of a process that is gone (a pid far above pid_max).
    writeFileSync(
      join(dir, LOCK_FILE_NAME),
      JSON.stringify({
        pid: 99_999_999,
        hostname: hostname(),
        acquiredAt: new Date().toISOString(),
        processStart: '1',
        role: 'server',
        url: null,
      }),
    );
    // The winner holds the lock until killed, after every loser has answered: a racer starting
    // late on a loaded machine can never find it free (a 3 s hold could end before one started).
    const racers = Array.from({ length: 6 }, () => {
      const child = spawn(process.execPath, ['test/helpers/hold-lock.ts', dir, '120000'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const answered = new Promise<void>((resolve) => {
        const check = () => {
          if (/^(won|lost)/.test(output) || child.exitCode !== null) resolve();
        };
        child.stdout.on('data', check);
        child.once('exit', () => resolve());
      });
      return { child, answered, output: () => output };
    });
    try {
      await Promise.all(racers.map((r) => r.answered));
      const won = racers.filter((r) => r.output().startsWith('won'));
      assert.equal(won.length, 1, racers.map((r) => r.output()).join('\n'));
      for (const r of racers.filter((x) => !x.output().startsWith('won'))) {
        if (r.child.exitCode === null) await new Promise((resolve) => r.child.once('exit', resolve));
        assert.equal(r.child.exitCode, 3);
        assert.match(r.output(), /in use by test-holder pid \d+/);
      }
    } finally {
      for (const r of racers) r.child.kill('SIGKILL');
    }
  });

  it('the CLI refuses, naming the holder, when DATA_DIR is held by a process without an operator API', async (ctx) => {
    const dir = await mkdtemp(join(tmpdir(), 'cs-lock-cli-'));
    const holder = spawn(process.execPath, ['test/helpers/hold-lock.ts', dir, '60000'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    ctx.after(async () => {
      holder.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    });
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const result = await run(['src/cli.ts', 'users', 'list'], {
      DATA_DIR: dir,
      DATABASE_URL: '',
      OPERATOR_TOKEN: '',
    });
    assert.equal(result.code, 1);
    assert.match(
      result.output,
      new RegExp(`is held by test-holder pid ${holder.pid} on ${hostname()} since .*which serves no operator API`),
    );
    assert.equal(readLockHolder(dir)?.pid, holder.pid);
  });

  it('the CLI waits for a service that holds DATA_DIR but is still starting, then goes through its address', async (ctx) => {
    const dir = await mkdtemp(join(tmpdir(), 'cs-lock-start-'));
    const holder = spawn(
      process.execPath,
      ['test/helpers/hold-lock.ts', dir, '60000', 'server', 'http://127.0.0.1:9'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    ctx.after(async () => {
      holder.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    });
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const cliProcess = spawn(process.execPath, ['src/cli.ts', 'users', 'list'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', OPERATOR_TOKEN: 'x'.repeat(40) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    cliProcess.stdout.on('data', (c: Buffer) => (output += c.toString()));
    cliProcess.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => cliProcess.once('exit', resolve));
    const deadline = Date.now() + 30_000;
    while (!output.includes(`waiting for the service (pid ${holder.pid}) to finish starting`)) {
      assert.ok(
        Date.now() < deadline && cliProcess.exitCode === null,
        `the CLI waits for the starting service:\n${output}`,
      );
      await new Promise((r) => setTimeout(r, 50));
    }
    holder.kill('SIGUSR2'); // the service listens now: its address appears in the lock
    assert.equal(await exited, 1);
    assert.match(
      output,
      /cannot reach the service at http:\/\/127\.0\.0\.1:9/,
      'it used the address the service announced',
    );
  });

  it('a process waiting for the lock stops at once on SIGTERM, leaving the holder alone', async (ctx) => {
    const dir = await mkdtemp(join(tmpdir(), 'cs-lock-wait-'));
    const holder = spawn(process.execPath, ['test/helpers/hold-lock.ts', dir, '60000'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    ctx.after(async () => {
      holder.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    });
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const waiting = spawn(process.execPath, ['src/server.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: dir,
        LOCK_WAIT_SECONDS: '300',
        PORT: String(await freePort()),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    waiting.stdout.on('data', (c: Buffer) => (output += c.toString()));
    waiting.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => waiting.once('exit', resolve));
    const deadline = Date.now() + 30_000;
    while (!output.includes('waiting up to 300 s')) {
      assert.ok(Date.now() < deadline, `it waits:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const signalled = Date.now();
    waiting.kill('SIGTERM');
    assert.equal(await exited, 1);
    assert.ok(Date.now() - signalled < 5000, `stopped promptly (${Date.now() - signalled} ms)`);
    assert.match(output, new RegExp(`in use by test-holder pid ${holder.pid}.*\\(waited \\d+ s\\)`));
    assert.equal(readLockHolder(dir)?.pid, holder.pid);
  });

  it('PID reuse: a live pid with another start time is a stale lock; the same start time or another host is a holder', async (ctx) => {
    const dir = await mkdtemp(join(tmpdir(), 'cs-lock-pid-'));
    const sleeper = spawn('sleep', ['30']);
    ctx.after(async () => {
      sleeper.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    });
    const path = join(dir, LOCK_FILE_NAME);
    const base = {
      pid: sleeper.pid!,
      hostname: hostname(),
      acquiredAt: new Date().toISOString(),
      role: 'server',
      url: null,
    };
    writeFileSync(path, JSON.stringify({ ...base, processStart: processStartTime(sleeper.pid!) }));
    await assert.rejects(
      acquireDataDirLock(dir, { role: 'test' }),
      (error: unknown) => error instanceof DataDirLockedError && error.holder.pid === sleeper.pid,
    );
    writeFileSync(path, JSON.stringify({ ...base, hostname: 'another-host' }));
    await assert.rejects(acquireDataDirLock(dir, { role: 'test' }), /on another-host/);
    writeFileSync(path, JSON.stringify({ ...base, processStart: '1' })); // the pid now belongs to a younger process
    let stale: unknown;
    const lock = await acquireDataDirLock(dir, { role: 'test', onTakeover: (previous) => (stale = previous) });
    assert.equal((stale as { pid: number }).pid, sleeper.pid);
    assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, process.pid);
    lock.setUrl('http://127.0.0.1:1234');
    assert.equal(readLockHolder(dir)?.url, 'http://127.0.0.1:1234');
    lock.release();
    assert.equal(existsSync(path), false);
  });
});
