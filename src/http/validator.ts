// Request validation with TypeBox: query strings and path params get their declared defaults and
// types ("20" → 20); bodies are checked as sent, so a JSON "123" is never silently a number.
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema);
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  const integers = Object.keys(properties).filter((name) => properties[name]?.type === 'integer');
  return (value: unknown) => {
    const prepared = httpPart === 'body' ? value : convert(schema, value, integers);
    if (check.Check(prepared)) return { value: prepared };
    return { error: check.Errors(prepared) as unknown as FastifySchemaValidationError[] };
  };
};

/**
 * Defaults and types for a query string or path. An integer is taken only as written in decimal:
 * Value.Convert also made 1.5 → 1, true → 1 and 0x10 → 16, which are refused.
 */
function convert(schema: TSchema, value: unknown, integers: string[]): unknown {
  // Read before converting: Value.Default and Value.Convert change the object they are given.
  const raw =
    value && typeof value === 'object'
      ? integers.map((name) => [name, (value as Record<string, unknown>)[name]] as const)
      : [];
  const converted = Value.Convert(schema, Value.Default(schema, value));
  if (!converted || typeof converted !== 'object') return converted;
  for (const [name, given] of raw) {
    if (typeof given === 'string' && !/^-?\d+$/.test(given.trim()))
      (converted as Record<string, unknown>)[name] = given;
  }
  return converted;
}
