// Route-level schema helpers. The shapes themselves live in src/contract/ (re-exported here so
// route files import from one place).
import { ErrorBody, FailureBody } from '../../contract/common.ts';
import { errorResponse, failureResponse } from './responses.ts';

export { ErrorBody, FailureBody, Nullable } from '../../contract/common.ts';
export { errorResponse, failureResponse, json } from './responses.ts';

/** The standard error responses of an authenticated route, in either error body. */
export function authErrors(body: typeof ErrorBody | typeof FailureBody = ErrorBody) {
  const respond = body === FailureBody ? failureResponse : errorResponse;
  return {
    401: respond('Missing, invalid, expired or revoked credential.', ['UNAUTHORIZED', 'TOKEN_EXPIRED']),
    403: respond(
      'The credential may not use this resource (disabled account, a key without the scope, or an API ' +
        'key on a session-only route).',
      ['FORBIDDEN'],
    ),
    500: respond('Unexpected server error.', ['INTERNAL_ERROR']),
    503: respond('A backing store (database, Redis) is unavailable.', ['SERVICE_UNAVAILABLE']),
  };
}

/** 400 for a route whose input is validated. */
export const invalidInput = (codes: Parameters<typeof errorResponse>[1] = ['VALIDATION_FAILED']) =>
  errorResponse('Invalid input: the message names the field.', codes);
