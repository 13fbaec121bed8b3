// Schemas of the requests log and the webhook tooling (#16 points 2 and 3). Each has an $id: it is
// a named component of the OpenAPI document and of the typed client.
import { Type, type Static } from 'typebox';
import { Nullable } from './common.ts';
import { DeliveryAttemptSchema, RequestSummarySchema } from './shorts.ts';

const opt = Type.Optional;
const Cursor = Type.String({ minLength: 1, maxLength: 120, description: 'The previous page\'s nextCursor, unchanged (opaque). Omit for the first page.' });

export const DeliveryStateSchema = Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('retrying'), Type.Literal('failed'), Type.Literal('gone')], {
  $id: 'DeliveryState',
  description: 'pending: no attempt yet; delivered: the latest attempt got a 2xx; retrying: it failed and another attempt is scheduled (nextAttemptAt); failed: it failed and the retry schedule is spent (gave up; redeliver to try again); gone: the receiver answered 410, no further attempts.',
});

export const RequestLogQuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  cursor: opt(Cursor),
  status: opt(Type.Union([Type.Literal('processing'), Type.Literal('completed'), Type.Literal('failed')])),
  mode: opt(Type.Union([Type.Literal('sync'), Type.Literal('webhook')])),
  key: opt(Type.String({ pattern: '^(session|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$', description: 'An API key id, or "session" for requests made from the dashboard.' })),
  channel: opt(Type.String({ minLength: 1, maxLength: 200, description: 'Text anywhere in the channel address (case-insensitive).' })),
  from: opt(Type.String({ format: 'date-time', description: 'Requests created at or after this instant.' })),
  to: opt(Type.String({ format: 'date-time', description: 'Requests created before this instant.' })),
  delivery: opt(DeliveryStateSchema),
}, { additionalProperties: false });

export const RequestLogEntrySchema = Type.Object({
  ...RequestSummarySchema.properties,
  apiKey: Nullable(Type.Object({ id: Type.String(), name: Type.String(), prefix: Type.String() }, { description: 'The API key that made the request; null for a dashboard session.' })),
  delivery: Nullable(Type.Object({
    state: DeliveryStateSchema,
    attempts: Type.Integer({ description: 'Attempts made so far (redeliveries included).' }),
    lastAttemptAt: Nullable(Type.String({ format: 'date-time' })),
    lastStatusCode: Nullable(Type.Integer()),
    nextAttemptAt: Nullable(Type.String({ format: 'date-time', description: 'When the next attempt is due (state retrying).' })),
    retryingUntil: Nullable(Type.String({ format: 'date-time', description: 'State retrying: when the retry schedule runs out if every attempt fails (its delays at their longest; a receiver\'s Retry-After can push it later).' })),
  }, { description: 'Webhook requests only; null for synchronous requests.' })),
}, { $id: 'RequestLogEntry' });

export const RequestLogPageSchema = Type.Object({
  requests: Type.Array(RequestLogEntrySchema),
  nextCursor: Nullable(Type.String({ description: 'Pass as cursor for the next (older) page; null on the last page.' })),
}, { $id: 'RequestLogPage' });

export const RejectionsQuerySchema = Type.Object({
  days: Type.Integer({ minimum: 1, maximum: 90, default: 30, description: 'UTC days to cover, today included.' }),
}, { additionalProperties: false });

export const RejectionDaySchema = Type.Object({
  date: Type.String({ description: 'UTC day, YYYY-MM-DD.' }),
  total: Type.Integer(),
  counts: Type.Array(Type.Object({
    httpStatus: Type.Integer(),
    error: Type.String({ description: 'The error code answered, e.g. RATE_LIMITED.' }),
    apiKeyId: Nullable(Type.String({ description: 'The API key refused; null for a dashboard session.' })),
    count: Type.Integer(),
    lastAt: Type.String({ format: 'date-time' }),
  })),
}, { $id: 'RejectionDay' });

export const RejectionsSchema = Type.Object({
  days: Type.Array(RejectionDaySchema, { description: 'Newest first; days without refusals are left out.' }),
}, { $id: 'Rejections' });

export const DeliveryLogQuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  cursor: opt(Cursor),
  outcome: opt(Type.Union([Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('gone')])),
}, { additionalProperties: false });

export const DeliveryLogEntrySchema = Type.Object({
  ...DeliveryAttemptSchema.properties,
  requestId: Nullable(Type.String({ description: 'The request whose result was delivered (null for a batch summary).' })),
  batchId: Nullable(Type.String({ description: 'The batch whose batch.completed summary was delivered.' })),
  url: Type.String({ description: 'The webhookUrl the attempt was sent to.' }),
  gaveUp: Type.Boolean({ description: 'This failed attempt was the last the retry schedule allows (no retry was scheduled).' }),
}, { $id: 'DeliveryLogEntry' });

export const DeliveryLogPageSchema = Type.Object({
  deliveries: Type.Array(DeliveryLogEntrySchema),
  nextCursor: Nullable(Type.String()),
}, { $id: 'DeliveryLogPage' });

export const WebhookTestBodySchema = Type.Object({
  url: Type.String({ format: 'uri', maxLength: 2048, description: 'Where to POST the test event (the same address rules as webhookUrl).' }),
}, { additionalProperties: false, $id: 'WebhookTestRequest', examples: [{ url: 'https://example.com/hooks/shorts' }] });

export const WebhookTestResultSchema = Type.Object({
  webhookId: Type.String({ description: 'msg_test_…: receivers that deduplicate see each test as new.' }),
  url: Type.String(),
  outcome: Type.Union([Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('gone')]),
  statusCode: Nullable(Type.Integer()),
  latencyMs: Type.Integer(),
  error: Nullable(Type.String()),
  requestHeaders: Nullable(Type.Record(Type.String(), Type.String())),
  requestBody: Type.String({ description: 'The exact bytes signed and sent.' }),
  responseExcerpt: Nullable(Type.String({ description: 'The first 1 KiB of the receiver\'s answer.' })),
}, { $id: 'WebhookTestResult' });

export type RequestLogQuery = Static<typeof RequestLogQuerySchema>;
