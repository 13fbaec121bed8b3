// Request schemas of the credit statement, balance history, low-balance alert and key usage routes;
// the response shapes live in src/contract/credits.ts (re-exported here for the routes).
import { Type } from 'typebox';
import { Nullable } from './common.ts';
import { WebhookPayloadForm } from '../../contract/shorts.ts';

export {
  BalanceHistorySchema,
  CreditAlertsSchema,
  CreditEventsSchema,
  KeyUsageSchema,
  LedgerPageSchema,
} from '../../contract/credits.ts';

export const LedgerQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 20 }),
  cursor: Type.Optional(Type.String({ maxLength: 20, description: 'nextCursor of the previous page.' })),
});

export const CreditAlertsChangeSchema = Type.Object(
  {
    lowBalanceThreshold: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000_000 }))),
    eventsWebhookUrl: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 2048 }))),
    webhookPayload: Type.Optional(
      WebhookPayloadForm('The default form of shorts.completed webhooks for requests that do not say.'),
    ),
  },
  {
    $id: 'CreditAlertsChange',
    additionalProperties: false,
    examples: [{ lowBalanceThreshold: 50, eventsWebhookUrl: 'https://example.com/hooks/account' }],
  },
);
