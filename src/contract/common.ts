// Shapes shared by every route: the two error bodies and Nullable. The contract module holds the
// shapes the API sends (TypeBox, each with an $id so the OpenAPI document names it); the domain
// derives its types from them with Static<> and http/ puts them in route schemas. It imports only
// typebox: see docs/architecture.md ("One definition per shape").
import { Type, type Static } from 'typebox';

/** A value or null: the one definition every schema uses (absent upstream values are omitted instead). */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/** Example request id used by the document's examples (the format of http/request-id.ts). */
export const EXAMPLE_REQUEST_ID = 'req_m1x2y3z4a1b2c3d4e5f6a7b8c9d0';
export const EXAMPLE_TIME = '2026-06-01T12:00:00.000Z';

export const ErrorBody = Type.Object(
  {
    error: Type.String({
      description: 'Machine-readable code (UPPER_SNAKE_CASE) from the errors catalog, e.g. UNAUTHORIZED.',
    }),
    message: Type.String({ description: 'What went wrong and what to do about it.' }),
    requestId: Type.String({ description: 'Quote it to support; also in the X-Request-Id header.' }),
  },
  {
    $id: 'Error',
    description: 'Error body of every route except the shorts operations.',
    examples: [{ error: 'UNAUTHORIZED', message: 'A valid bearer token is required.', requestId: EXAMPLE_REQUEST_ID }],
  },
);
export type ErrorBody = Static<typeof ErrorBody>;

export const FailureBody = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String({ description: 'Machine-readable code from the errors catalog, e.g. CHANNEL_NOT_FOUND.' }),
    message: Type.String(),
    requestId: Type.String(),
  },
  {
    $id: 'Failure',
    description: "The spec's failure body of the shorts operations.",
    examples: [
      {
        success: false,
        error: 'CHANNEL_NOT_FOUND',
        message: 'No channel exists at that address.',
        requestId: EXAMPLE_REQUEST_ID,
      },
    ],
  },
);
export type FailureBody = Static<typeof FailureBody>;

/** The per-minute/hour/day request limits of an account. */
/** An operator manages users and the service; a customer uses the API. */
export const Role = Type.Union([Type.Literal('customer'), Type.Literal('operator')], { $id: 'Role' });
export type Role = Static<typeof Role>;

export const RateLimits = Type.Object(
  { perMinute: Type.Integer(), perHour: Type.Integer(), perDay: Type.Integer() },
  { $id: 'RateLimits', examples: [{ perMinute: 60, perHour: 1000, perDay: 10000 }] },
);
export type RateLimits = Static<typeof RateLimits>;
