import { Type } from 'typebox';
import { nextQuotaDayStart, quotaDay } from '../../../domain/quota/quota-day.ts';
import { lostUnitsOn } from '../../../domain/quota/account-quota.ts';
import { json } from '../../schemas/common.ts';
import { SourceHealthSchema } from '../../../contract/operator.ts';
import type { RequestOf } from '../../types.ts';
import { operatorErrors, operatorSchema } from './common.ts';

const KeyState = Type.Object({
  label: Type.String({ description: '"<index>:<8 hex of SHA-256>": never the key itself.' }),
  quotaDay: Type.String({ description: 'The Data API quota day (America/Los_Angeles date).' }),
  unitsUsed: Type.Integer(),
  budget: Type.Integer(),
  unitsRemaining: Type.Integer(),
  state: Type.Union([Type.Literal('active'), Type.Literal('exhausted'), Type.Literal('invalid')]),
  invalidReason: Type.Optional(Type.String()),
});

export const quotaRoute = {
  method: 'GET',
  url: '/operator/quota',
  schema: {
    ...operatorSchema(),
    summary:
      'Upstream quota per YouTube Data API key today (the pool shared by every instance), the source in use, and ' +
      "each source's recent health as this instance met it.",
    response: {
      200: json(
        "The source and each key's quota today.",
        Type.Object({
          source: Type.String(),
          resetsAt: Type.String({ format: 'date-time' }),
          keys: Type.Array(KeyState),
          lostUnits: Type.Integer({
            description:
              "Units spent today on requests that then failed on the service's own side (its database or Redis " +
              "unavailable, an unexpected error): its loss, counted against no account's allowance.",
          }),
          sources: Type.Array(SourceHealthSchema),
        }),
      ),
      ...operatorErrors(),
    },
  },
} as const;

export async function quota(request: RequestOf<typeof quotaRoute.schema>) {
  const { db, keyPool, source, clock, health } = request.server.services;
  const keys = await keyPool.status();
  const now = clock();
  return {
    source,
    sources: health.view(),
    lostUnits: await lostUnitsOn(db, quotaDay(now)),
    resetsAt: new Date(nextQuotaDayStart(now)).toISOString(),
    keys: keys.map(({ label, quotaDay, unitsUsed, budget, unitsRemaining, state, invalidReason }) => ({
      label,
      quotaDay,
      unitsUsed,
      budget,
      unitsRemaining,
      state,
      ...(invalidReason ? { invalidReason } : {}),
    })),
  };
}
