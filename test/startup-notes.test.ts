// What the service says about its configuration when it starts, and the one line a taken port gets.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uniqueEmail, PASSWORD } from './helpers/test-app.ts';
import { harness } from './helpers/harness.ts';
import { createAccount } from '../src/domain/accounts/accounts.ts';
import { startupNotes } from '../src/startup-notes.ts';

describe('start-up notes for the operator', () => {
  it('says the service runs keyless without a key, and how to create the first user', async (ctx) => {
    const t = await harness(ctx, { fake: false, env: { YOUTUBE_API_KEY: '', YOUTUBE_SOURCE: 'auto' } });
    const notes = await startupNotes(t.services);
    assert.ok(
      notes.some((n) => n.level === 'info' && /No YouTube Data API key is set: running keyless/.test(n.message)),
    );
    assert.ok(
      notes.some(
        (n) =>
          n.level === 'warn' && /No users yet: create the first one with: npm run cli -- users create/.test(n.message),
      ),
    );
    // Embedded and without OPERATOR_TOKEN, the CLI cannot reach this service: the note says what works.
    assert.ok(
      notes.some((n) =>
        /started without OPERATOR_TOKEN, so the CLI cannot reach it: restart it with OPERATOR_TOKEN set .* or stop it and run the command/.test(
          n.message,
        ),
      ),
      JSON.stringify(notes),
    );
    await createAccount(t.services.db, { email: uniqueEmail(), password: PASSWORD, credits: 1 });
    assert.ok(!(await startupNotes(t.services)).some((n) => /No users yet/.test(n.message)));
  });

  it('warns that data-api without a key cannot answer, and names the mode and key count otherwise', async (ctx) => {
    const t = await harness(ctx, { fake: false, env: { YOUTUBE_API_KEY: '', YOUTUBE_SOURCE: 'data-api' } });
    assert.ok(
      (await startupNotes(t.services)).some(
        (n) => n.level === 'warn' && /no YouTube Data API key is set.*502/.test(n.message),
      ),
    );
    const keyed = await harness(ctx, { fake: false, env: { YOUTUBE_API_KEYS: 'a,b' } });
    assert.ok((await startupNotes(keyed.services)).some((n) => /data-api mode with 3 Data API keys/.test(n.message)));
  });

  it("names a Data API key YouTube rejected (remembered across restarts), in the notes, /readyz (codes only) and the operator's /operator/setup", async (ctx) => {
    const t = await harness(ctx, { fake: false, env: { YOUTUBE_API_KEYS: 'k1', OPERATOR_TOKEN: 'o'.repeat(40) } });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.deepEqual(ready.json().setup, { warnings: ['NO_USERS'] });
    // Both keys of the pool (YOUTUBE_API_KEY and YOUTUBE_API_KEYS) are rejected, as the key pool records a keyInvalid answer.
    for (let i = 0; i < t.services.keyPool.size; i++)
      await t.services.keyPool.markInvalid(await t.services.keyPool.take(1), 'keyInvalid');
    const notes = await startupNotes(t.services);
    const rejected = notes.find((n) => n.code === 'DATA_API_KEYS_REJECTED');
    assert.equal(rejected?.level, 'warn');
    assert.match(
      rejected!.message,
      /^YouTube rejected every Data API key \(1:[0-9a-f]{8}: keyInvalid, 2:[0-9a-f]{8}: keyInvalid\): shorts requests that need the Data API answer 502 \(nothing is charged\)/,
    );
    assert.ok(!rejected!.message.includes('k1') && !rejected!.message.includes('fake-api-key'), 'never the key itself');
    assert.deepEqual((await t.app.inject({ method: 'GET', url: '/readyz' })).json().setup, {
      warnings: ['DATA_API_KEYS_REJECTED', 'NO_USERS'],
    });
    const setup = await t.app.inject({
      method: 'GET',
      url: '/operator/setup',
      headers: { authorization: `Bearer ${'o'.repeat(40)}` },
    });
    assert.equal(setup.statusCode, 200, setup.body);
    assert.deepEqual(
      setup.json().notes.map((n: { code: string }) => n.code),
      ['DATA_API_KEYS', 'DATA_API_KEYS_REJECTED', 'NO_USERS'],
    );
    assert.equal((await t.app.inject({ method: 'GET', url: '/operator/setup' })).statusCode, 401);
    // What a customer is told: a fact and that nothing was charged, no promise that anyone was told.
    const refused = await t.services.keyPool.take(1).then(
      () => null,
      (error: Error) => error.message,
    );
    assert.ok(refused && !/told|notified/i.test(refused), String(refused));
  });

  it('a port already in use gets one clear line and exit code 1 from npm run fake, npm run demo and the worker too', async (ctx) => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    const dataDir = await mkdtemp(join(tmpdir(), 'cs-port-demo-'));
    ctx.after(async () => {
      holder.close();
      await rm(dataDir, { recursive: true, force: true });
    });
    for (const [script, expected] of [
      [
        'src/fake-platform/main.ts',
        `Cannot listen on 127.0.0.1:${port}: the port is already in use. Stop the other process, or set PORT (0 picks a free port).`,
      ],
      [
        'scripts/demo.ts',
        `Cannot listen on 127.0.0.1:${port}: the port is already in use (another demo, or npm start?). Stop it, or run PORT=3001 npm run demo.`,
      ],
      // Again on the directory the failed start left: still the demo's own, not refused as foreign.
      [
        'scripts/demo.ts',
        `Cannot listen on 127.0.0.1:${port}: the port is already in use (another demo, or npm start?). Stop it, or run PORT=3001 npm run demo.`,
      ],
      // The worker's metrics port (before: a stack trace, its jobs left running).
      [
        'src/worker.ts',
        `Cannot listen on 127.0.0.1:${port} (WORKER_METRICS_PORT): the port is already in use. Pick another port, or leave WORKER_METRICS_PORT unset.`,
      ],
    ] as const) {
      const child = spawn(process.execPath, [script], {
        env: {
          ...process.env,
          DATA_DIR: join(dataDir, 'data'),
          PORT: String(port),
          WORKER_METRICS_PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      assert.equal(code, 1, `${script}: ${stderr}`);
      assert.deepEqual(
        stderr.split('\n').filter((l) => l.trim() && !l.startsWith('(node:')),
        [expected],
        script,
      );
    }
  });

  it('npm run demo never wipes a database it did not make', async (ctx) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cs-demo-foreign-'));
    ctx.after(async () => {
      await rm(dataDir, { recursive: true, force: true });
    });
    const run = (script: string, args: string[]) => {
      const child = spawn(process.execPath, [script, ...args], {
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          OPERATOR_TOKEN: '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      return new Promise<{ code: number | null; stderr: string }>((resolve) =>
        child.once('exit', (code) => resolve({ code, stderr })),
      );
    };
    // A service's data: made here by the operator CLI.
    assert.equal(
      (
        await run('src/cli.ts', [
          'users',
          'create',
          '--email',
          'keep@example.com',
          '--password',
          'a long passphrase',
          '--credits',
          '5',
        ])
      ).code,
      0,
    );
    const demo = await run('scripts/demo.ts', []);
    assert.equal(demo.code, 1, demo.stderr);
    assert.match(demo.stderr, /holds a database the demo did not create, and the demo wipes its directory at start/);
    const list = await run('src/cli.ts', ['users', 'list']);
    assert.equal(list.code, 0, list.stderr);
  });

  it('a port already in use gets one clear line and exit code 1, not a stack trace', async (ctx) => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    const dataDir = await mkdtemp(join(tmpdir(), 'cs-port-'));
    ctx.after(async () => {
      holder.close();
      await rm(dataDir, { recursive: true, force: true });
    });
    const child = spawn(process.execPath, ['src/server.ts'], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 1);
    const lines = stderr.split('\n').filter((l) => l.trim() && !l.startsWith('(node:'));
    assert.deepEqual(lines, [
      `Cannot listen on 127.0.0.1:${port}: the port is already in use (another channel-shorts, or npm run demo?). Stop the other process or set PORT.`,
    ]);
  });
});
