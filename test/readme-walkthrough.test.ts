// README's curl walk-through, run as written: `npm run demo` on a port that is not 3000, then the
// README's commands in bash with the `export …` line the demo printed. A newcomer copying them must
// get the same answers on any port.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort, stopChild } from '../support/child-service.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The walk-through's commands, without the line that starts the demo and the placeholder export. */
async function walkthrough(): Promise<string> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### A walk-through with curl'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'README has the walk-through block');
  const lines = block.split('\n');
  assert.ok(
    lines.some((l) => l.startsWith('export BASE=')),
    'the walk-through sets BASE',
  );
  return lines.filter((l) => l.trim() !== 'npm run demo' && !l.startsWith('export ')).join('\n');
}

describe("README's walk-through", () => {
  it('works as written against npm run demo on another port', async (t) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cs-walkthrough-'));
    const port = await freePort();
    const demo = spawn(process.execPath, ['scripts/demo.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = once(demo, 'exit');
    // One hook, in this order: the demo writes to its data directory until it has exited, and a
    // failing hook would skip the ones after it (a demo left running keeps this file from ending).
    t.after(async () => {
      await stopChild(demo, exited);
      await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
    });
    let printed = '';
    let stderr = '';
    demo.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the demo printed no BASE in 60 s: ${stderr}`)), 60_000);
      demo.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        if (/^\s*export BASE=.*$/m.test(printed)) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`the demo stopped: ${stderr}`));
      });
    });
    const exportLine = /^\s*(export BASE=.*)$/m.exec(printed)![1]!;
    assert.match(exportLine, new RegExp(`BASE=http://127\\.0\\.0\\.1:${port} `));

    // Under `npm test` the PATH holds npm and the project's Node first, as in a newcomer's shell.
    const script = `set -euo pipefail\n${exportLine}\n${await walkthrough()}\n`;
    const { stdout } = await promisify(execFile)('bash', ['-c', script], {
      cwd: ROOT,
      timeout: 120_000,
    });
    const saw = (pattern: RegExp) => assert.ok(pattern.test(stdout), `${pattern} in: ${stdout.slice(0, 400)}…`);
    // Step 1 created the user (and --silent kept npm from echoing the command with its password).
    saw(/^created customer you@example\.com/m);
    assert.ok(!stdout.includes('a long passphrase'), 'npm echoed the password');
    // Step 3: a synchronous answer with the demo channel's shorts; step 4: accepted for the webhook.
    saw(/"success":true,"requestId":"req_[^"]+","data":\{"channel"/);
    saw(/"status":"processing"/);
    // Step 5: the account and the ledger as CSV.
    saw(/"credits":\{"balance":\d+/);
    // curl prints no newline after a JSON body, so the CSV's header follows the account's body.
    saw(/id,createdAt,kind,amount,balanceAfter,requestId,channelUrl,channelTitle,note\r\n\d+,/);
  });
});
