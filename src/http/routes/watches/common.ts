// What the watch routes share: every error is the failure body ({success: false, …}), like the
// shorts routes'.
import { authErrors, FailureBody, failureResponse as failure } from '../../schemas/common.ts';

export const commonErrors = authErrors(FailureBody);
export const malformedId = failure('Malformed watch id.', ['VALIDATION_FAILED']);
export const noSuchWatch = failure('No such watch on this account.', ['NOT_FOUND']);
