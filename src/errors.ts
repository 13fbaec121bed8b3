// The one error catalog: every failure the API can answer with, its HTTP status and default text.
// The error handler (http/plugins/error-handler.ts) renders these as {error, message, requestId}
// (plus success:false on the shorts routes: the failure body of docs/spec.md).
export const ERROR_CATALOG = {
  VALIDATION_FAILED: { status: 400, message: 'The request is invalid.' },
  BAD_REQUEST: { status: 400, message: 'The HTTP request is malformed.' },
  INVALID_URL: { status: 400, message: 'The URL is malformed (bad percent-encoding).' },
  INVALID_JSON: { status: 400, message: 'The request body is not valid JSON.' },
  INVALID_CHANNEL_URL: { status: 400, message: 'channelUrl is not a recognised channel address.' },
  UNSAFE_WEBHOOK_URL: { status: 400, message: 'webhookUrl is not an allowed destination.' },
  WEAK_PASSWORD: { status: 400, message: 'The password is too weak.' },
  UNAUTHORIZED: { status: 401, message: 'A valid bearer token is required.' },
  INVALID_CREDENTIALS: { status: 401, message: 'Email or password is incorrect.' },
  TOKEN_EXPIRED: { status: 401, message: 'The token has expired; log in again.' },
  INVALID_SETUP_TOKEN: { status: 401, message: 'The setup link is not valid.' },
  INSUFFICIENT_CREDITS: { status: 402, message: 'Not enough credits for this request.' },
  FORBIDDEN: { status: 403, message: 'This credential has no permission for this resource.' },
  NOT_FOUND: { status: 404, message: 'Not found.' },
  CHANNEL_NOT_FOUND: { status: 404, message: 'No channel exists at that address.' },
  VIDEO_NOT_TRACKED: { status: 404, message: 'No statistics are stored for this video.' },
  CONFLICT: { status: 409, message: 'The resource already exists.' },
  ALREADY_SET_UP: { status: 409, message: 'This service is set up already: it has users.' },
  DELIVERY_IN_PROGRESS: {
    status: 409,
    message: 'A delivery of this webhook is already queued or running; wait for it to finish.',
  },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    message: 'A call with this Idempotency-Key is still running; retry after Retry-After to get its answer.',
  },
  REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time.' },
  RESULT_EXPIRED: { status: 410, message: 'This result is past its retention period and is no longer kept.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
  URI_TOO_LONG: { status: 414, message: 'The URL is too long.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Send the body as application/json.' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    message: 'This Idempotency-Key was used with another request; send a new key for a new request.',
  },
  RATE_LIMITED: { status: 429, message: 'Rate limit exceeded.' },
  QUOTA_ALLOWANCE_EXHAUSTED: {
    status: 429,
    message:
      "Today's allowance of unpaid upstream work for this account is spent; it renews at midnight America/Los_Angeles.",
  },
  TOO_MANY_LOGIN_ATTEMPTS: { status: 429, message: 'Too many failed login attempts; try again later.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large.' },
  INTERNAL_ERROR: { status: 500, message: 'Something went wrong on our side.' },
  UPSTREAM_ERROR: { status: 502, message: 'The video platform answered with an error.' },
  UPSTREAM_QUOTA_EXHAUSTED: {
    status: 503,
    message: 'The video platform quota is exhausted for today; try again later.',
  },
  UPSTREAM_RATE_LIMITED: { status: 503, message: 'The video platform is throttling the service; try again shortly.' },
  UPSTREAM_BLOCKED: {
    status: 503,
    message:
      "The video platform's web API blocks the service (a bot check or a consent wall); a Data API key or an " +
      'outbound proxy helps.',
  },
  UPSTREAM_UNAVAILABLE: { status: 503, message: 'The video platform could not be reached.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'A backing service is unavailable; try again shortly.' },
  UPSTREAM_TIMEOUT: { status: 504, message: 'The video platform did not answer in time.' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(code: ErrorCode, message?: string, options?: { headers?: Record<string, string>; cause?: unknown }) {
    super(message ?? ERROR_CATALOG[code].message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CATALOG[code].status;
    this.headers = options?.headers ?? {};
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
