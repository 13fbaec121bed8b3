import { Type } from 'typebox';
import { searchUsers } from '../../../domain/operators/users.ts';
import { UserSchema } from '../../../contract/operator.ts';
import { json } from '../../schemas/common.ts';
import type { RequestOf } from '../../types.ts';
import { operatorErrors, operatorSchema, viewOf } from './common.ts';

export const listUsersRoute = {
  method: 'GET',
  url: '/operator/users',
  schema: {
    ...operatorSchema(),
    summary: 'List users, newest first; search matches part of the email or the exact id.',
    querystring: Type.Object({
      search: Type.Optional(Type.String({ maxLength: 254 })),
      limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
      offset: Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0 }),
    }),
    response: {
      200: json(
        'A page of users and the total matching.',
        Type.Object({ users: Type.Array(UserSchema), total: Type.Integer() }),
      ),
      ...operatorErrors(),
    },
  },
} as const;

export async function listUsers(request: RequestOf<typeof listUsersRoute.schema>) {
  const { users, total } = await searchUsers(request.server.services.db, request.query);
  return { users: users.map((row) => viewOf(request, row)), total };
}
