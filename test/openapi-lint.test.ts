// The OpenAPI document as third-party generators and linters see it: Redocly's recommended ruleset
// finds no error and no warning (the two accepted problems are listed, with why, in
// .redocly.lint-ignore.yaml), and every operation has a stable operationId.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { serviceOpenApiDocument } from '../scripts/generate-client-types.ts';
import { OPERATION_IDS } from '../src/http/operation-ids.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REDOCLY = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

describe('OpenAPI document for generators', () => {
  it('passes `redocly lint` with the recommended ruleset: 0 errors, 0 warnings', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'cs-redocly-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'openapi.json'), JSON.stringify(await serviceOpenApiDocument(), null, 2));
    await copyFile(join(ROOT, '.redocly.lint-ignore.yaml'), join(dir, '.redocly.lint-ignore.yaml'));
    // No telemetry and no update check: the linter sends nothing anywhere.
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    const run = await promisify(execFile)(
      process.execPath,
      [REDOCLY, 'lint', '--extends', 'recommended', '--format', 'stylish', 'openapi.json'],
      { cwd: dir, env, timeout: 120_000 },
    ).catch((error: { stdout: string; stderr: string }) => error);
    const output = `${run.stdout}\n${run.stderr}`;
    assert.match(output, /Your API description is valid/, output);
    assert.doesNotMatch(output, /\d+ (warning|error)s?\b(?! support)/i, output);
  });

  it('names every operation and webhook with a unique operationId', async () => {
    const doc = (await serviceOpenApiDocument()) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
      webhooks: Record<string, Record<string, { operationId?: string }>>;
    };
    const ids: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        assert.ok(
          operation.operationId,
          `${method.toUpperCase()} ${path} has an operationId (src/http/operation-ids.ts)`,
        );
        ids.push(operation.operationId);
      }
    }
    for (const operations of Object.values(doc.webhooks)) {
      for (const operation of Object.values(operations)) ids.push(operation.operationId!);
    }
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
    // The table names no operation the service does not have.
    assert.equal(Object.keys(OPERATION_IDS).length, Object.values(doc.paths).flatMap(Object.keys).length);
  });
});
