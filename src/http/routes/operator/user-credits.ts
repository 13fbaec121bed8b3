import { Type } from 'typebox';
import { adjustCredits as adjustUserCredits } from '../../../domain/operators/users.ts';
import { UserSchema } from '../../../contract/operator.ts';
import { json } from '../../schemas/common.ts';
import type { RequestOf } from '../../types.ts';
import { actorOf, operatorErrors, operatorSchema, Reason, UserParams, viewOf } from './common.ts';

export const adjustCreditsRoute = {
  method: 'POST',
  url: '/operator/users/:id/credits',
  config: { idempotent: true },
  schema: {
    ...operatorSchema(),
    summary:
      'Grant or deduct credits with a reason (a ledger entry). A deduction never takes the balance ' +
      'below 0 (409, nothing changed).',
    params: UserParams,
    body: Type.Object(
      {
        direction: Type.Union([Type.Literal('grant'), Type.Literal('deduct')]),
        amount: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
        reason: Reason,
      },
      { additionalProperties: false },
    ),
    response: { 200: json('The user after the change.', UserSchema), ...operatorErrors() },
  },
} as const;

export async function adjustCredits(request: RequestOf<typeof adjustCreditsRoute.schema>) {
  const row = await adjustUserCredits(request.server.services.db, actorOf(request), request.params.id, request.body);
  return viewOf(request, row);
}
