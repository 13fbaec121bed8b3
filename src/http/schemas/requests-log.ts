// Request schemas of the requests log and the webhook tooling; the response
// shapes live in src/contract/requests-log.ts (re-exported here for the routes).
import { Type } from 'typebox';
import { DeliveryStateSchema } from '../../contract/requests-log.ts';

export {
  DeliveryLogEntrySchema,
  DeliveryLogPageSchema,
  DeliveryStateSchema,
  DeliveryStatusSchema,
  RejectedCountSchema,
  RejectionDaySchema,
  RejectionsSchema,
  RequestLogEntrySchema,
  RequestLogPageSchema,
  WebhookTestResultSchema,
} from '../../contract/requests-log.ts';

const opt = Type.Optional;
const Cursor = Type.String({
  minLength: 1,
  maxLength: 120,
  description: "The previous page's nextCursor, unchanged (opaque). Omit for the first page.",
});

export const RequestLogQuerySchema = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
    cursor: opt(Cursor),
    status: opt(Type.Union([Type.Literal('processing'), Type.Literal('completed'), Type.Literal('failed')])),
    mode: opt(Type.Union([Type.Literal('sync'), Type.Literal('webhook')])),
    key: opt(
      Type.String({
        pattern: '^(session|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$',
        description: 'An API key id, or "session" for requests made from the dashboard.',
      }),
    ),
    channel: opt(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Text anywhere in the channel address (case-insensitive).',
      }),
    ),
    from: opt(Type.String({ format: 'date-time', description: 'Requests created at or after this instant.' })),
    to: opt(Type.String({ format: 'date-time', description: 'Requests created before this instant.' })),
    delivery: opt(DeliveryStateSchema),
  },
  { additionalProperties: false },
);

export const RejectionsQuerySchema = Type.Object(
  {
    days: Type.Integer({ minimum: 1, maximum: 90, default: 30, description: 'UTC days to cover, today included.' }),
  },
  { additionalProperties: false },
);

export const DeliveryLogQuerySchema = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
    cursor: opt(Cursor),
    outcome: opt(Type.Union([Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('gone')])),
  },
  { additionalProperties: false },
);

export const WebhookTestBodySchema = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      maxLength: 2048,
      description: 'Where to POST the test event (the same address rules as webhookUrl).',
    }),
  },
  { additionalProperties: false, $id: 'WebhookTestRequest', examples: [{ url: 'https://example.com/hooks/shorts' }] },
);
