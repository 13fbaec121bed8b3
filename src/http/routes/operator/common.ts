// What every operator route shares: its tag and security, the user parameter, the error responses,
// the acting operator and the user view.
import { Type } from 'typebox';
import { AppError } from '../../../errors.ts';
import type { Actor } from '../../../domain/operators/audit.ts';
import { userView } from '../../../domain/operators/users.ts';
import { defaultRateLimits } from '../../../domain/limits/windows.ts';
import { errorResponse } from '../../schemas/common.ts';
import type { FastifyRequest } from 'fastify';

/** The operator a request comes from: a session of an operator's account, or the OPERATOR_TOKEN. */
export type OperatorActor = Actor & { via: 'token' | 'session' };

/** What every operator route's schema starts with: its tag (the OpenAPI document lists them together) and security. */
export const operatorSchema = () => ({ tags: ['operator'], security: [{ bearer: [] }] });

export const UserParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 254, description: "The user's id (or email)." }),
});
export const Reason = Type.String({ minLength: 1, maxLength: 500 });
export const ListQuery = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }) });

/** The error responses of every operator route. */
export function operatorErrors() {
  return {
    400: errorResponse('Invalid input.', ['VALIDATION_FAILED']),
    401: errorResponse('Missing, invalid or expired credential.', ['UNAUTHORIZED', 'TOKEN_EXPIRED']),
    403: errorResponse('Not an operator (customers, API keys and disabled accounts are refused).', ['FORBIDDEN']),
    404: errorResponse('No such user.', ['NOT_FOUND']),
    409: errorResponse('The action conflicts with the current state (e.g. deducting below 0); nothing was changed.', [
      'CONFLICT',
    ]),
    500: errorResponse('Unexpected server error.', ['INTERNAL_ERROR']),
    503: errorResponse('A backing store is unavailable.', ['SERVICE_UNAVAILABLE']),
  };
}

/**
 * The operator acting: every operator route has one (the plugin's hook refuses everyone else), and it goes to the
 * audit log.
 */
export function actorOf(request: FastifyRequest): OperatorActor {
  if (!request.operator) throw new AppError('UNAUTHORIZED');
  return request.operator;
}

/** A user as the operator API shows it: its own limits, or the configured defaults. */
export function viewOf(request: FastifyRequest, row: Parameters<typeof userView>[0]) {
  return userView(row, defaultRateLimits(request.server.services.config));
}
