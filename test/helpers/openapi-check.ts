// Checks real responses against the service's own OpenAPI document.
import assert from 'node:assert/strict';
import { Compile } from 'typebox/compile';
import type { LightMyRequestResponse } from 'fastify';

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
  components?: { schemas?: Record<string, object> };
};

/** The schema with every local $ref (#/components/schemas/Name) replaced by the component it names. */
function inlineRefs(schema: unknown, doc: Doc): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inlineRefs(s, doc));
  if (schema === null || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const target = doc.components?.schemas?.[ref.slice('#/components/schemas/'.length)];
    assert.ok(target, `${ref} is defined`);
    return inlineRefs(target, doc);
  }
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== '$id')
      .map(([key, value]) => [key, inlineRefs(value, doc)]),
  );
}

/** A validator for a schema of the document (its $refs resolved). */
export function compileDocumentSchema(doc: Doc, schema: unknown): ReturnType<typeof Compile> {
  return Compile(inlineRefs(schema, doc) as never);
}

const compiled = new Map<string, ReturnType<typeof Compile>>();

/** `route` is the OpenAPI path template, e.g. /keys/{id}. */
export function assertMatchesOpenApi(doc: Doc, method: string, route: string, res: LightMyRequestResponse): void {
  const operation = doc.paths[route]?.[method.toLowerCase()];
  assert.ok(operation, `${method} ${route} is documented`);
  const response = operation.responses[String(res.statusCode)];
  assert.ok(response, `${method} ${route} documents status ${res.statusCode}`);
  const schema = response.content?.['application/json']?.schema;
  assert.ok(schema, `${method} ${route} ${res.statusCode} has a JSON schema`);
  const key = `${method} ${route} ${res.statusCode}`;
  let check = compiled.get(key);
  if (!check) {
    check = Compile(inlineRefs(schema, doc) as never);
    compiled.set(key, check);
  }
  const body = res.json();
  const errors = [...check.Errors(body)].slice(0, 5);
  assert.deepEqual(errors, [], `${key}: the body does not match the OpenAPI schema`);
}
