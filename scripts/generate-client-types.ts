// Regenerates the types made from the service's own OpenAPI document (built with the default
// configuration): clients/typescript/src/openapi.ts, used by the typed client and by the dashboard
// (web/src/lib/api-types.ts re-exports it), and the Python client's TypedDicts. test/client.test.ts fails when the committed file differs
// from what this prints, so run `npm run client:types` after changing a route schema.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/app.ts';
import { createServices } from '../src/services.ts';
import { PYTHON_TYPES_PATH, renderPythonTypes } from './generate-python-types.ts';

export const CLIENT_TYPES_PATH = fileURLToPath(new URL('../clients/typescript/src/openapi.ts', import.meta.url));

const HEADER =
  "// Generated from the service's /openapi.json by openapi-typescript (npm run client:types at the repository root). Do not edit.\n";

/** The service's OpenAPI document with the default configuration (embedded, in-memory database). */
export async function serviceOpenApiDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig({ DATA_DIR: ':memory:' });
  const services = await createServices(config, { runWorker: false, log: { error: () => {}, info: () => {} } });
  try {
    const app = await buildApp(services);
    await app.ready();
    const doc = app.swagger() as unknown as Record<string, unknown>;
    await app.close();
    return doc;
  } finally {
    await services.close();
  }
}

export async function renderClientTypes(doc: Record<string, unknown>): Promise<string> {
  return HEADER + astToString(await openapiTS(structuredClone(doc) as never, { exportType: true }));
}

if (import.meta.main) {
  const doc = await serviceOpenApiDocument();
  await writeFile(CLIENT_TYPES_PATH, await renderClientTypes(doc));
  await writeFile(PYTHON_TYPES_PATH, renderPythonTypes(doc));
  console.log(`wrote ${CLIENT_TYPES_PATH} and ${PYTHON_TYPES_PATH}`);
}
