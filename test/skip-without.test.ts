// Suites that need PostgreSQL or Redis skip on a machine without them, with one summary line at the
// end of the run; under CI=true they fail instead (support/databases.ts, support/skip-summary.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url);
const DATABASES = new URL('support/databases.ts', root).href;
const SUMMARY = new URL('support/skip-summary.ts', root).pathname;

function runTests(file: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  // Without NODE_TEST_CONTEXT: the child is a test run of its own, not a subprocess of this one.
  const { NODE_TEST_CONTEXT: _, ...inherited } = process.env;
  const child = spawn(
    process.execPath,
    [
      '--test',
      ...['--test-reporter=spec', '--test-reporter-destination=stdout'],
      ...[`--test-reporter=${SUMMARY}`, '--test-reporter-destination=stdout'],
      file,
    ],
    { env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('suites that need a store this machine lacks', () => {
  it('skip with one summary line naming the store and where it was looked for; under CI=true they fail', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'cs-skip-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'needs.test.ts');
    await writeFile(
      file,
      `import { describe, it } from 'node:test';
import { skipWithout } from ${JSON.stringify(DATABASES)};
describe('on PostgreSQL', { skip: skipWithout('postgres') }, () => { it('runs', () => { throw new Error('ran'); }); });
describe('on PostgreSQL and Redis', { skip: skipWithout('postgres', 'redis') }, () => { it('runs', () => { throw new Error('ran'); }); });
describe('embedded', { skip: skipWithout('pglite') }, () => { it('runs', () => {}); });
`,
    );
    const missing = {
      TEST_POSTGRES_URL: 'postgres://postgres@127.0.0.1:1/postgres',
      TEST_REDIS_URL: 'redis://127.0.0.1:2',
    };
    const skipped = await runTests(file, { ...missing, CI: '' });
    assert.equal(skipped.code, 0, skipped.output);
    const lines = skipped.output.split('\n').filter((l) => l.startsWith('Skipped'));
    assert.deepEqual(lines, [
      'Skipped 2 suites: 1 need PostgreSQL (nothing answers at 127.0.0.1:1, TEST_POSTGRES_URL); ' +
        '1 need PostgreSQL (nothing answers at 127.0.0.1:1, TEST_POSTGRES_URL) and Redis (nothing answers at ' +
        '127.0.0.1:2, TEST_REDIS_URL). README, "Tests", says how to start them; under CI=true they fail instead.',
    ]);
    const failed = await runTests(file, { ...missing, CI: 'true' });
    assert.notEqual(failed.code, 0, failed.output);
    assert.match(
      failed.output,
      /This suite needs PostgreSQL \(nothing answers at 127\.0\.0\.1:1.*CI=true: suites may not be skipped/,
    );
  });
});
