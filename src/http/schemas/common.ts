import { Type } from 'typebox';

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Machine-readable code (UPPER_SNAKE_CASE), e.g. UNAUTHORIZED.' }),
    message: Type.String({ description: 'What went wrong and what to do about it.' }),
    requestId: Type.String(),
  },
  { description: 'Error body for authentication, account and key endpoints.' },
);

export const FailureBody = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String({ description: 'Machine-readable code, e.g. CHANNEL_NOT_FOUND.' }),
    message: Type.String(),
    requestId: Type.String(),
  },
  { description: 'The spec\'s failure body for the shorts operation.' },
);

/** The standard error responses of an authenticated route, for the OpenAPI document. */
export function authErrors(body = ErrorBody) {
  return {
    401: { ...body, description: 'Missing, invalid, expired or revoked credential.' },
    403: { ...body, description: 'The credential may not use this resource (disabled account, or an API key on a session-only route).' },
    500: { ...body, description: 'Unexpected server error.' },
    503: { ...body, description: 'A backing store (database, Redis) is unavailable.' },
  };
}

/** A value or null: the one definition every schema uses (absent upstream values are omitted instead). */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
