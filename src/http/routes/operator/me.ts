import { Type } from 'typebox';
import { json, Nullable } from '../../schemas/common.ts';
import type { RequestOf } from '../../types.ts';
import { actorOf, operatorErrors, operatorSchema } from './common.ts';

export const meRoute = {
  method: 'GET',
  url: '/operator/me',
  schema: {
    ...operatorSchema(),
    summary: 'Who the operator API sees: an operator session or the operator token.',
    response: {
      200: json(
        'The operator.',
        Type.Object(
          {
            actor: Type.String(),
            accountId: Nullable(Type.String()),
            via: Type.Union([Type.Literal('token'), Type.Literal('session')]),
          },
          {
            examples: [{ actor: 'ops@example.com', accountId: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f', via: 'session' }],
          },
        ),
      ),
      ...operatorErrors(),
    },
  },
} as const;

export async function me(request: RequestOf<typeof meRoute.schema>) {
  const operator = actorOf(request);
  return { actor: operator.label, accountId: operator.accountId, via: operator.via };
}
