// What the service says about its configuration when it starts, and the one line a taken port gets.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, uniqueEmail, PASSWORD } from './helpers/test-app.ts';
import { createAccount } from '../src/domain/accounts/accounts.ts';
import { startupNotes } from '../src/startup-notes.ts';

describe('start-up notes for the operator', () => {
  it('says the service runs keyless without a key, and how to create the first user', async () => {
    const t = await startTestApp('pglite', { YOUTUBE_API_KEY: '', YOUTUBE_SOURCE: 'auto' });
    try {
      const notes = await startupNotes(t.services);
      assert.ok(notes.some((n) => n.level === 'info' && /No YouTube Data API key is set: running keyless/.test(n.message)));
      assert.ok(notes.some((n) => n.level === 'warn' && /No users yet: create the first one with: npm run cli -- users create/.test(n.message)));
      await createAccount(t.services.db, { email: uniqueEmail(), password: PASSWORD, credits: 1 });
      assert.ok(!(await startupNotes(t.services)).some((n) => /No users yet/.test(n.message)));
    } finally {
      await t.close();
    }
  });

  it('warns that data-api without a key cannot answer, and names the mode and key count otherwise', async () => {
    const t = await startTestApp('pglite', { YOUTUBE_API_KEY: '', YOUTUBE_SOURCE: 'data-api' });
    try {
      assert.ok((await startupNotes(t.services)).some((n) => n.level === 'warn' && /no YouTube Data API key is set.*502/.test(n.message)));
    } finally {
      await t.close();
    }
    const keyed = await startTestApp('pglite', { YOUTUBE_API_KEYS: 'a,b' });
    try {
      assert.ok((await startupNotes(keyed.services)).some((n) => /data-api mode with 3 Data API keys/.test(n.message)));
    } finally {
      await keyed.close();
    }
  });

  it('a port already in use gets one clear line and exit code 1, not a stack trace', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    const dataDir = await mkdtemp(join(tmpdir(), 'cs-port-'));
    try {
      const child = spawn(process.execPath, ['src/server.ts'], { env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      assert.equal(code, 1);
      const lines = stderr.split('\n').filter((l) => l.trim() && !l.startsWith('(node:'));
      assert.deepEqual(lines, [`Cannot listen on 127.0.0.1:${port}: the port is already in use (another channel-shorts, or npm run demo?). Stop the other process or set PORT.`]);
    } finally {
      holder.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
