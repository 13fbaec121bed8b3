// A user's rate limits: set some windows, or reset them all to the configured defaults.
import { Type } from 'typebox';
import { MAX_LIMIT, setUserLimits } from '../../../domain/operators/users.ts';
import { UserSchema } from '../../../contract/operator.ts';
import { json, Nullable } from '../../schemas/common.ts';
import type { RequestOf } from '../../types.ts';
import { actorOf, operatorErrors, operatorSchema, UserParams, viewOf } from './common.ts';

export const setLimitsRoute = {
  method: 'PUT',
  url: '/operator/users/:id/limits',
  schema: {
    ...operatorSchema(),
    summary: "Set a user's rate limits; a window given as null goes back to the default, one left out stays as it is.",
    params: UserParams,
    body: Type.Object(
      {
        perMinute: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: MAX_LIMIT }))),
        perHour: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: MAX_LIMIT }))),
        perDay: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: MAX_LIMIT }))),
      },
      { additionalProperties: false, examples: [{ perMinute: 120, perDay: null }] },
    ),
    response: { 200: json('The user after the change.', UserSchema), ...operatorErrors() },
  },
} as const;

export async function setLimits(request: RequestOf<typeof setLimitsRoute.schema>) {
  const row = await setUserLimits(request.server.services.db, actorOf(request), request.params.id, request.body);
  return viewOf(request, row);
}

export const resetLimitsRoute = {
  method: 'DELETE',
  url: '/operator/users/:id/limits',
  schema: {
    ...operatorSchema(),
    summary: "Reset a user's rate limits to the defaults.",
    params: UserParams,
    response: { 200: json('The user after the change.', UserSchema), ...operatorErrors() },
  },
} as const;

export async function resetLimits(request: RequestOf<typeof resetLimitsRoute.schema>) {
  const defaults = { perMinute: null, perHour: null, perDay: null };
  const row = await setUserLimits(request.server.services.db, actorOf(request), request.params.id, defaults);
  return viewOf(request, row);
}
