import { Type } from 'typebox';
import { setUserRole } from '../../../domain/operators/users.ts';
import { UserSchema } from '../../../contract/operator.ts';
import { Role } from '../../../contract/common.ts';
import { json } from '../../schemas/common.ts';
import type { RequestOf } from '../../types.ts';
import { actorOf, operatorErrors, operatorSchema, UserParams, viewOf } from './common.ts';

export const setRoleRoute = {
  method: 'POST',
  url: '/operator/users/:id/role',
  schema: {
    ...operatorSchema(),
    summary: 'Make a user an operator, or a customer again.',
    params: UserParams,
    body: Type.Object({ role: Role }, { additionalProperties: false }),
    response: { 200: json('The user after the change.', UserSchema), ...operatorErrors() },
  },
} as const;

export async function setRole(request: RequestOf<typeof setRoleRoute.schema>) {
  const row = await setUserRole(request.server.services.db, actorOf(request), request.params.id, request.body.role);
  return viewOf(request, row);
}
