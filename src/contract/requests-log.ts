// Bodies of the requests log, the refused-calls counts and the webhook tooling.
// The query strings and the test event's body stay in http/schemas/requests-log.ts.
import { Type, type Static } from 'typebox';
import { EXAMPLE_REQUEST_ID, EXAMPLE_TIME, Nullable } from './common.ts';
import { EXAMPLE_KEY_ID } from './accounts.ts';
import { DeliveryAttemptSchema, RequestSummarySchema } from './shorts.ts';

const EXAMPLE_HEADERS = {
  'content-type': 'application/json',
  'webhook-id': `msg_${EXAMPLE_REQUEST_ID}`,
  'webhook-timestamp': '1780315201',
  'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
};

export const DeliveryStateSchema = Type.Union(
  [
    Type.Literal('pending'),
    Type.Literal('delivered'),
    Type.Literal('retrying'),
    Type.Literal('failed'),
    Type.Literal('gone'),
  ],
  {
    $id: 'DeliveryState',
    description:
      'pending: no attempt yet; delivered: the latest attempt got a 2xx; retrying: it failed and another attempt ' +
      'is scheduled (nextAttemptAt); failed: it failed and the retry schedule is spent (gave up; redeliver to ' +
      'try again); gone: the receiver answered 410, no further attempts.',
    examples: ['retrying'],
  },
);
export type DeliveryState = Static<typeof DeliveryStateSchema>;

export const DeliveryStatusSchema = Type.Object(
  {
    state: DeliveryStateSchema,
    attempts: Type.Integer({ description: 'Attempts made so far (redeliveries included).' }),
    lastAttemptAt: Nullable(Type.String({ format: 'date-time' })),
    lastStatusCode: Nullable(Type.Integer()),
    nextAttemptAt: Nullable(
      Type.String({ format: 'date-time', description: 'When the next attempt is due (state retrying).' }),
    ),
    retryingUntil: Nullable(
      Type.String({
        format: 'date-time',
        description:
          'State retrying: when the retry schedule runs out if every attempt fails (its delays at their longest; ' +
          "a receiver's Retry-After can push it later).",
      }),
    ),
  },
  { description: 'Webhook requests only; null for synchronous requests.' },
);
export type DeliveryStatus = Static<typeof DeliveryStatusSchema>;

const EXAMPLE_LOG_ENTRY = {
  requestId: EXAMPLE_REQUEST_ID,
  createdAt: EXAMPLE_TIME,
  completedAt: '2026-06-01T12:00:01.200Z',
  channelUrl: 'https://www.youtube.com/@demo',
  oldestDate: null,
  limit: null,
  webhookUrl: 'https://example.com/hooks/shorts',
  mode: 'webhook',
  status: 'completed',
  itemCount: 120,
  creditsCharged: 3,
  error: null,
  via: 'api',
  apiKey: { id: EXAMPLE_KEY_ID, name: 'production backend', prefix: 'csk_lEaNrfoT' },
  delivery: {
    state: 'retrying',
    attempts: 1,
    lastAttemptAt: '2026-06-01T12:00:01.300Z',
    lastStatusCode: 503,
    nextAttemptAt: '2026-06-01T12:00:06.300Z',
    retryingUntil: '2026-06-01T12:13:18.300Z',
  },
};

export const RequestLogEntrySchema = Type.Object(
  {
    ...RequestSummarySchema.properties,
    apiKey: Nullable(
      Type.Object(
        { id: Type.String(), name: Type.String(), prefix: Type.String() },
        { description: 'The API key that made the request; null for a dashboard session.' },
      ),
    ),
    delivery: Nullable(DeliveryStatusSchema),
  },
  {
    $id: 'RequestLogEntry',
    description:
      'One request of the requests log: the recorded request, the key that made it and the ' +
      'state of its webhook delivery.',
    examples: [EXAMPLE_LOG_ENTRY],
  },
);
export type RequestLogEntry = Static<typeof RequestLogEntrySchema>;

export const RequestLogPageSchema = Type.Object(
  {
    requests: Type.Array(RequestLogEntrySchema),
    nextCursor: Nullable(
      Type.String({ description: 'Pass as cursor for the next (older) page; null on the last page.' }),
    ),
  },
  {
    $id: 'RequestLogPage',
    description: 'One page of the requests log, newest first.',
    examples: [
      {
        requests: [EXAMPLE_LOG_ENTRY],
        nextCursor: 'MTc4MDMxNTIwMDAwMDAwMC5yZXFfbTF4MnkzejRhMWIyYzNkNGU1ZjZhN2I4YzlkMA',
      },
    ],
  },
);
export type RequestLogPage = Static<typeof RequestLogPageSchema>;

export const RejectedCountSchema = Type.Object(
  {
    httpStatus: Type.Integer(),
    error: Type.String({ description: 'The error code answered, e.g. RATE_LIMITED.' }),
    apiKeyId: Nullable(Type.String({ description: 'The API key refused; null for a dashboard session.' })),
    count: Type.Integer(),
    lastAt: Type.String({ format: 'date-time' }),
  },
  { description: 'Refusals of one status, error code and key that day.' },
);
export type RejectedCount = Static<typeof RejectedCountSchema>;

const EXAMPLE_REJECTION_DAY = {
  date: '2026-06-01',
  total: 14,
  counts: [
    { httpStatus: 429, error: 'RATE_LIMITED', apiKeyId: EXAMPLE_KEY_ID, count: 12, lastAt: '2026-06-01T11:58:40.000Z' },
    { httpStatus: 400, error: 'VALIDATION_FAILED', apiKeyId: null, count: 2, lastAt: '2026-06-01T09:12:03.000Z' },
  ],
};

export const RejectionDaySchema = Type.Object(
  {
    date: Type.String({ description: 'UTC day, YYYY-MM-DD.' }),
    total: Type.Integer(),
    counts: Type.Array(RejectedCountSchema),
  },
  {
    $id: 'RejectionDay',
    description: 'Calls refused on one UTC day, by status, error code and key.',
    examples: [EXAMPLE_REJECTION_DAY],
  },
);
export type RejectionDay = Static<typeof RejectionDaySchema>;

export const RejectionsSchema = Type.Object(
  {
    days: Type.Array(RejectionDaySchema, { description: 'Newest first; days without refusals are left out.' }),
  },
  {
    $id: 'Rejections',
    description: 'Calls refused before a request was recorded, counted per UTC day.',
    examples: [{ days: [EXAMPLE_REJECTION_DAY] }],
  },
);
export type Rejections = Static<typeof RejectionsSchema>;

const EXAMPLE_DELIVERY = {
  id: 42,
  attempt: 2,
  webhookId: `msg_${EXAMPLE_REQUEST_ID}`,
  startedAt: '2026-06-01T12:00:06.400Z',
  statusCode: 503,
  latencyMs: 120,
  outcome: 'failed',
  error: 'The receiver answered HTTP 503.',
  requestHeaders: EXAMPLE_HEADERS,
  responseExcerpt: 'Service Unavailable',
  nextAttemptAt: '2026-06-01T12:01:06.400Z',
  requestId: EXAMPLE_REQUEST_ID,
  batchId: null,
  url: 'https://example.com/hooks/shorts',
  gaveUp: false,
};

export const DeliveryLogEntrySchema = Type.Object(
  {
    ...DeliveryAttemptSchema.properties,
    requestId: Nullable(
      Type.String({ description: 'The request whose result was delivered (null for a batch summary).' }),
    ),
    batchId: Nullable(Type.String({ description: 'The batch whose batch.completed summary was delivered.' })),
    url: Type.String({ description: 'The webhookUrl the attempt was sent to.' }),
    gaveUp: Type.Boolean({
      description: 'This failed attempt was the last the retry schedule allows (no retry was scheduled).',
    }),
  },
  {
    $id: 'DeliveryLogEntry',
    description: 'One webhook delivery attempt of the account, with what it delivered and where.',
    examples: [EXAMPLE_DELIVERY],
  },
);
export type DeliveryLogEntry = Static<typeof DeliveryLogEntrySchema>;

export const DeliveryLogPageSchema = Type.Object(
  {
    deliveries: Type.Array(DeliveryLogEntrySchema),
    nextCursor: Nullable(
      Type.String({ description: 'Pass as cursor for the next (older) page; null on the last page.' }),
    ),
  },
  {
    $id: 'DeliveryLogPage',
    description: "One page of the account's delivery attempts, newest first.",
    examples: [{ deliveries: [EXAMPLE_DELIVERY], nextCursor: 'ZC40Mg' }],
  },
);
export type DeliveryLogPage = Static<typeof DeliveryLogPageSchema>;

export const WebhookTestResultSchema = Type.Object(
  {
    webhookId: Type.String({ description: 'msg_test_…: receivers that deduplicate see each test as new.' }),
    url: Type.String(),
    outcome: Type.Union([Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('gone')]),
    statusCode: Nullable(Type.Integer()),
    latencyMs: Type.Integer(),
    error: Nullable(Type.String()),
    requestHeaders: Nullable(Type.Record(Type.String(), Type.String())),
    requestBody: Type.String({ description: 'The exact bytes signed and sent.' }),
    responseExcerpt: Nullable(Type.String({ description: "The first 1 KiB of the receiver's answer." })),
  },
  {
    $id: 'WebhookTestResult',
    description: 'The outcome of one webhook.test attempt.',
    examples: [
      {
        webhookId: 'msg_test_5f0c2a9e7b1d4c3a8e6f2b10',
        url: 'https://example.com/hooks/shorts',
        outcome: 'delivered',
        statusCode: 200,
        latencyMs: 84,
        error: null,
        requestHeaders: { ...EXAMPLE_HEADERS, 'webhook-id': 'msg_test_5f0c2a9e7b1d4c3a8e6f2b10' },
        requestBody:
          '{"type":"webhook.test","timestamp":"2026-06-01T12:00:00.000Z","data":{"message":"A test event from ' +
          'channel-shorts: verify its signature like any other event. It carries no result."}}',
        responseExcerpt: 'ok',
      },
    ],
  },
);
export type WebhookTestResult = Static<typeof WebhookTestResultSchema>;

/** The webhook.test event as POST /webhooks/test sends it (signed like every event). */
export const WEBHOOK_TEST_MESSAGE =
  'A test event from channel-shorts: verify its signature like any other event. It carries no result.';
export const WebhookTestPayloadSchema = Type.Object(
  {
    type: Type.Literal('webhook.test'),
    timestamp: Type.String({ format: 'date-time' }),
    data: Type.Object({ message: Type.String() }),
  },
  {
    $id: 'WebhookTestPayload',
    description: 'The webhook.test event POST /webhooks/test sends (Standard Webhooks signed, webhook-id msg_test_…).',
    examples: [
      { type: 'webhook.test', timestamp: '2026-06-01T12:00:00.000Z', data: { message: WEBHOOK_TEST_MESSAGE } },
    ],
  },
);
export type WebhookTestPayload = Static<typeof WebhookTestPayloadSchema>;

const EXAMPLE_DESTINATION = {
  id: 3,
  url: 'https://example.com/hooks/shorts',
  state: 'failing' as const,
  successRate: 0.75,
  recentAttempts: 8,
  consecutiveFailures: 2,
  failingSince: '2026-06-01T11:40:00.000Z',
  lastError: 'The receiver answered HTTP 503.',
  lastStatusCode: 503,
  lastFailureAt: '2026-06-01T11:45:00.000Z',
  lastSuccessAt: '2026-06-01T11:30:00.000Z',
  lastAttemptAt: '2026-06-01T11:45:00.000Z',
  pausedAt: null,
};

export const WebhookDestinationSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Pass to POST /accounts/webhook-destinations/{destinationId}/resume.' }),
    url: Type.String({ description: 'A URL the account has sent webhooks to (each distinct URL is one destination).' }),
    state: Type.Union([Type.Literal('healthy'), Type.Literal('failing'), Type.Literal('paused')], {
      description:
        'healthy: the last attempt succeeded; failing: the last attempts failed; paused: failing for ' +
        'WEBHOOK_DISABLE_AFTER_DAYS, new attempts are held until it is resumed.',
    }),
    successRate: Nullable(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'Delivered attempts / attempts over the last 24 hours; null without attempts in that time.',
      }),
    ),
    recentAttempts: Type.Integer({ description: 'Attempts sent over the last 24 hours.' }),
    consecutiveFailures: Type.Integer({ description: 'Failed attempts since the last success (or the resume).' }),
    failingSince: Nullable(Type.String({ format: 'date-time', description: 'The first of those failures.' })),
    lastError: Nullable(Type.String()),
    lastStatusCode: Nullable(Type.Integer({ description: "The last failure's HTTP status (null: no answer)." })),
    lastFailureAt: Nullable(Type.String({ format: 'date-time' })),
    lastSuccessAt: Nullable(Type.String({ format: 'date-time' })),
    lastAttemptAt: Type.String({ format: 'date-time' }),
    pausedAt: Nullable(Type.String({ format: 'date-time' })),
  },
  {
    $id: 'WebhookDestination',
    description: 'The health of one webhook destination, as its delivery attempts show it.',
    examples: [EXAMPLE_DESTINATION],
  },
);
export type WebhookDestination = Static<typeof WebhookDestinationSchema>;

export const WebhookDestinationsSchema = Type.Object(
  {
    destinations: Type.Array(WebhookDestinationSchema, { description: 'The most recently used first (at most 100).' }),
    disableAfterDays: Type.Integer({
      description: 'WEBHOOK_DISABLE_AFTER_DAYS: a destination failing this long is paused (0: never).',
    }),
  },
  {
    $id: 'WebhookDestinations',
    description: "The health of the account's webhook destinations.",
    examples: [{ destinations: [EXAMPLE_DESTINATION], disableAfterDays: 5 }],
  },
);
export type WebhookDestinations = Static<typeof WebhookDestinationsSchema>;

export const DestinationPausedPayloadSchema = Type.Object(
  {
    type: Type.Literal('webhook.destination.paused'),
    timestamp: Type.String({ format: 'date-time', description: 'When it was paused.' }),
    data: Type.Object({
      destinationId: Type.Integer(),
      url: Type.String(),
      failingSince: Type.String({ format: 'date-time' }),
      consecutiveFailures: Type.Integer(),
      lastError: Nullable(Type.String()),
    }),
  },
  {
    $id: 'DestinationPausedPayload',
    description:
      'The webhook.destination.paused account event: every attempt to this URL failed for ' +
      'WEBHOOK_DISABLE_AFTER_DAYS; its new attempts are held until it is resumed.',
    examples: [
      {
        type: 'webhook.destination.paused',
        timestamp: '2026-06-06T11:45:00.000Z',
        data: {
          destinationId: 3,
          url: 'https://example.com/hooks/shorts',
          failingSince: '2026-06-01T11:40:00.000Z',
          consecutiveFailures: 212,
          lastError: 'The receiver answered HTTP 503.',
        },
      },
    ],
  },
);
export type DestinationPausedPayload = Static<typeof DestinationPausedPayloadSchema>;
