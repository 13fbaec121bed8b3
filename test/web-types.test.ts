// The dashboard's API types (web/src/lib/api-types.ts) are generated from the service's OpenAPI
// document; this fails when a route schema changed and `npm run client:types` was not run.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { renderClientTypes, serviceOpenApiDocument, WEB_TYPES_PATH } from '../scripts/generate-client-types.ts';

describe('dashboard: generated API types', () => {
  it('web/src/lib/api-types.ts is what openapi-typescript makes of the current /openapi.json (npm run client:types)', async () => {
    const committed = await readFile(WEB_TYPES_PATH, 'utf8');
    // Not a byte-for-byte diff in the message: the file is large; regenerate instead of reading it.
    assert.ok(committed === (await renderClientTypes(await serviceOpenApiDocument())), 'web/src/lib/api-types.ts is stale: run npm run client:types');
  });
});
