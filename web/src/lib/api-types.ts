// The dashboard's API types are the typed client's, generated once from the service's /openapi.json
// (clients/typescript/src/openapi.ts, `npm run client:types`; test/client.test.ts fails when stale).
export type { components, paths } from '../../../clients/typescript/src/openapi.ts';
