// Named responses for route schemas: a description, the body's schema (a contract shape, so the
// OpenAPI document refers to it by name) and examples. Examples are taken from the shapes' own
// `examples` (written once, with the shape) and composed for wrappers such as {keys: [...]};
// error examples come from the errors catalog (src/errors.ts). test/openapi.test.ts validates
// every example against its schema.
import type { TSchema } from 'typebox';
import { ERROR_CATALOG, type ErrorCode } from '../../errors.ts';
import { ErrorBody, EXAMPLE_REQUEST_ID, EXAMPLE_TIME, FailureBody } from '../../contract/common.ts';

type Example = { summary?: string; value: unknown };
type JsonSchemaLike = {
  examples?: unknown[];
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  type?: string | string[];
  format?: string;
  minimum?: number;
  properties?: Record<string, JsonSchemaLike>;
  required?: string[];
  items?: JsonSchemaLike;
  anyOf?: JsonSchemaLike[];
  oneOf?: JsonSchemaLike[];
};

/** Plain strings by field name, for schemas that carry no example of their own. */
const NAMED_STRINGS: Record<string, string> = {
  email: 'ada@example.com',
  password: 'correct horse battery staple',
  reason: 'Requested by the customer.',
  token: 'inv_4Yw8Qm2Zr7',
  name: 'production backend',
};

/** A plausible value for a schema, from the examples of the shapes it is made of. */
export function exampleOf(schema: JsonSchemaLike, name?: string): unknown {
  if (schema.examples && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return exampleOf(variants.find((v) => v.type !== 'null') ?? variants[0]!, name);
  switch (schema.type) {
    case 'object': {
      const required = new Set(schema.required ?? []);
      const entries = Object.entries(schema.properties ?? {})
        .filter(([field, s]) => required.has(field) || s.examples !== undefined)
        .map(([field, s]) => [field, exampleOf(s, field)]);
      return Object.fromEntries(entries);
    }
    case 'array':
      return schema.items ? [exampleOf(schema.items)] : [];
    case 'string':
      if (name !== undefined && NAMED_STRINGS[name] !== undefined) return NAMED_STRINGS[name];
      return schema.format === 'date-time'
        ? EXAMPLE_TIME
        : schema.format === 'uuid'
          ? '7d2f0c4e-8a55-4b1f-9e3a-2c6d8f1b0a93'
          : schema.format === 'uri'
            ? 'https://www.youtube.com/@demo'
            : 'text';
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      return null;
  }
}

/** A JSON response: description, schema and examples (derived from the schema unless given). */
export function json<T extends TSchema>(description: string, schema: T, examples?: Record<string, Example>) {
  return {
    description,
    content: {
      'application/json': { schema, examples: examples ?? { example: { value: exampleOf(schema as JsonSchemaLike) } } },
    },
  };
}

function errorExamples(codes: readonly ErrorCode[], failure: boolean): Record<string, Example> {
  return Object.fromEntries(
    codes.map((code) => [
      code,
      {
        summary: `${code}: ${ERROR_CATALOG[code].message}`,
        value: {
          ...(failure ? { success: false } : {}),
          error: code,
          message: ERROR_CATALOG[code].message,
          requestId: EXAMPLE_REQUEST_ID,
        },
      },
    ]),
  );
}

/** An error response ({error, message, requestId}) with one example per code it can carry. */
export function errorResponse(description: string, codes: readonly ErrorCode[]) {
  return json(description, ErrorBody, errorExamples(codes, false));
}

/** A failure response of the shorts operations ({success:false, error, message, requestId}). */
export function failureResponse(description: string, codes: readonly ErrorCode[]) {
  return json(description, FailureBody, errorExamples(codes, true));
}
