// Request validation with TypeBox: query strings and path params get their declared defaults and
// types ("20" → 20); bodies are checked as sent, so a JSON "123" is never silently a number.
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema);
  return (value: unknown) => {
    const prepared = httpPart === 'body' ? value : Value.Convert(schema, Value.Default(schema, value));
    if (check.Check(prepared)) return { value: prepared };
    return { error: check.Errors(prepared) as unknown as FastifySchemaValidationError[] };
  };
};
