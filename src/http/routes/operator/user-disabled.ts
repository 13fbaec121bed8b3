// Disable and enable a user: one schema, the same audit entry, the opposite change.
import { Type } from 'typebox';
import { setUserDisabled } from '../../../domain/operators/users.ts';
import { UserSchema } from '../../../contract/operator.ts';
import { json } from '../../schemas/common.ts';
import type { RequestOf } from '../../types.ts';
import { actorOf, operatorErrors, operatorSchema, Reason, UserParams, viewOf } from './common.ts';

const ReasonBody = Type.Object({ reason: Type.Optional(Reason) }, { additionalProperties: false });

function disabledRoute(action: 'disable' | 'enable', summary: string) {
  return {
    method: 'POST',
    url: `/operator/users/:id/${action}`,
    schema: {
      ...operatorSchema(),
      summary,
      params: UserParams,
      body: ReasonBody,
      response: { 200: json('The user after the change.', UserSchema), ...operatorErrors() },
    },
    preValidation: bodyOptional,
  } as const;
}

/** The body is optional: no body at all counts as {}. */
async function bodyOptional(request: { body: unknown }) {
  request.body ??= {};
}

export const disableUserRoute = disabledRoute(
  'disable',
  'Disable a user: every credential of theirs is refused (403) within a second.',
);
export const enableUserRoute = disabledRoute('enable', 'Enable a disabled user again.');

type DisabledRequest = RequestOf<typeof disableUserRoute.schema>;

export async function disableUser(request: DisabledRequest) {
  return setDisabled(request, true);
}

export async function enableUser(request: DisabledRequest) {
  return setDisabled(request, false);
}

async function setDisabled(request: DisabledRequest, disabled: boolean) {
  const { db } = request.server.services;
  const row = await setUserDisabled(db, actorOf(request), request.params.id, disabled, request.body.reason ?? null);
  return viewOf(request, row);
}
