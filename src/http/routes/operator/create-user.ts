import { Type } from 'typebox';
import { createUser as createUserAccount } from '../../../domain/operators/users.ts';
import { MAX_BALANCE } from '../../../domain/credits/ledger.ts';
import { UserSchema } from '../../../contract/operator.ts';
import { Role } from '../../../contract/common.ts';
import { json } from '../../schemas/common.ts';
import type { ReplyOf, RequestOf } from '../../types.ts';
import { actorOf, operatorErrors, operatorSchema, viewOf } from './common.ts';

export const createUserRoute = {
  method: 'POST',
  url: '/operator/users',
  schema: {
    ...operatorSchema(),
    summary: 'Create a user (customer or operator) with an optional starting balance.',
    body: Type.Object(
      {
        email: Type.String({ minLength: 3, maxLength: 254 }),
        password: Type.String({ minLength: 1, maxLength: 256 }),
        credits: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_BALANCE })),
        role: Type.Optional(Role),
      },
      { additionalProperties: false },
    ),
    response: { 201: json('The new user.', UserSchema), ...operatorErrors() },
  },
} as const;

export async function createUser(
  request: RequestOf<typeof createUserRoute.schema>,
  reply: ReplyOf<typeof createUserRoute.schema>,
) {
  const row = await createUserAccount(request.server.services.db, actorOf(request), request.body);
  reply.code(201);
  return viewOf(request, row);
}
