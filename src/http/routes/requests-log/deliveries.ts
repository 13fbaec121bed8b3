// GET /webhooks/deliveries: every webhook delivery attempt of the account, in pages.
import { listAccountDeliveries } from '../../../domain/webhooks/delivery-log.ts';
import { callerOf } from '../../plugins/authenticate.ts';
import { authErrors, invalidInput, json } from '../../schemas/common.ts';
import { DeliveryLogPageSchema, DeliveryLogQuerySchema } from '../../schemas/requests-log.ts';
import type { RequestOf } from '../../types.ts';

export const deliveryLogRoute = {
  method: 'GET',
  url: '/webhooks/deliveries',
  config: { auth: true, scope: 'shorts:read' },
  schema: {
    tags: ['webhooks'],
    summary:
      'Every webhook delivery attempt of the account, newest first: headers sent, status, answer ' +
      'excerpt, duration, next retry.',
    security: [{ bearer: [] }],
    querystring: DeliveryLogQuerySchema,
    response: {
      200: json('Delivery attempts, newest first, one page.', DeliveryLogPageSchema),
      400: invalidInput(),
      ...authErrors(),
    },
  },
} as const;

export async function deliveryLog(request: RequestOf<typeof deliveryLogRoute.schema>) {
  const { limit, cursor, outcome } = request.query;
  return listAccountDeliveries(request.server.services.db, callerOf(request).accountId, {
    limit,
    cursor,
    outcome,
  });
}
