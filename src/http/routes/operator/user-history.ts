// A user's ledger, requests and webhook deliveries: the same list shape, newest first.
import { Type } from 'typebox';
import { findUser, listUserDeliveries } from '../../../domain/operators/users.ts';
import { listLedger } from '../../../domain/credits/ledger.ts';
import { listRequests } from '../../../domain/requests/request-store.ts';
import { UserDeliverySchema } from '../../../contract/operator.ts';
import { LedgerEntrySchema } from '../../../contract/accounts.ts';
import { RequestSummarySchema } from '../../../contract/shorts.ts';
import { json } from '../../schemas/common.ts';
import type { RequestOf } from '../../types.ts';
import { ListQuery, operatorErrors, operatorSchema, UserParams } from './common.ts';

export const userLedgerRoute = {
  method: 'GET',
  url: '/operator/users/:id/ledger',
  schema: {
    ...operatorSchema(),
    summary: "A user's credit ledger, newest first.",
    params: UserParams,
    querystring: ListQuery,
    response: {
      200: json('Ledger entries, newest first.', Type.Object({ entries: Type.Array(LedgerEntrySchema) })),
      ...operatorErrors(),
    },
  },
} as const;

export async function userLedger(request: RequestOf<typeof userLedgerRoute.schema>) {
  const { db } = request.server.services;
  return { entries: await listLedger(db, (await findUser(db, request.params.id)).id, request.query.limit) };
}

export const userRequestsRoute = {
  method: 'GET',
  url: '/operator/users/:id/requests',
  schema: {
    ...operatorSchema(),
    summary: "A user's shorts requests, newest first.",
    params: UserParams,
    querystring: ListQuery,
    response: {
      200: json('Requests, newest first.', Type.Object({ requests: Type.Array(RequestSummarySchema) })),
      ...operatorErrors(),
    },
  },
} as const;

export async function userRequests(request: RequestOf<typeof userRequestsRoute.schema>) {
  const { db } = request.server.services;
  return { requests: await listRequests(db, (await findUser(db, request.params.id)).id, request.query.limit) };
}

export const userDeliveriesRoute = {
  method: 'GET',
  url: '/operator/users/:id/deliveries',
  schema: {
    ...operatorSchema(),
    summary: "A user's webhook delivery attempts, newest first.",
    params: UserParams,
    querystring: ListQuery,
    response: {
      200: json('Delivery attempts, newest first.', Type.Object({ deliveries: Type.Array(UserDeliverySchema) })),
      ...operatorErrors(),
    },
  },
} as const;

export async function userDeliveries(request: RequestOf<typeof userDeliveriesRoute.schema>) {
  const { db } = request.server.services;
  const { id } = await findUser(db, request.params.id);
  return { deliveries: await listUserDeliveries(db, id, request.query.limit) };
}
