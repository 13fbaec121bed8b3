// One delivery attempt: POST the signed payload, never follow redirects, read at most 64 KiB of
// the answer (then drop the connection), and classify: 2xx delivered, 410 gone (stop), else failed.
// The headers sent and the first EXCERPT_BYTES of the answer are kept for the delivery log.
import type { Dispatcher } from 'undici';
import { request } from 'undici';
import { assertLiteralAddressAllowed } from './guarded-agent.ts';
import { parseRetryAfter } from './retry-schedule.ts';
import { signPayload } from './signing.ts';

const MAX_RESPONSE_BYTES = 64 * 1024;
/** How much of a receiver's answer the delivery log keeps: enough to read an error page's gist. */
export const EXCERPT_BYTES = 1024;

export interface AttemptResult {
  outcome: 'delivered' | 'failed' | 'gone';
  statusCode: number | null;
  latencyMs: number;
  /** What the customer sees (generic: never DNS answers or internal addresses). */
  error: string | null;
  /** The underlying cause, for our logs only. */
  detail?: string;
  retryAfterSeconds: number | null;
  /** The headers sent (null when the attempt failed before a request could be built). */
  requestHeaders: Record<string, string> | null;
  /** The first EXCERPT_BYTES of the answer's body, as text (null without an answer). */
  responseExcerpt: string | null;
  /** When the attempt began: the delivery log shows this, not when the attempt was recorded. */
  startedAt?: Date;
}

/** A customer-facing reason for a failed connection; the precise cause goes to the logs only. */
export function publicReason(error: {
  name?: string;
  code?: string;
  cause?: { code?: string; name?: string };
}): string {
  const code = error.cause?.code ?? error.code ?? '';
  if (
    code === 'ERR_FORBIDDEN_ADDRESS' ||
    error.name === 'ForbiddenAddressError' ||
    error.cause?.name === 'ForbiddenAddressError'
  )
    return 'Destination not allowed.';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA' || code === 'ESERVFAIL')
    return 'DNS lookup failed.';
  if (code === 'ECONNREFUSED') return 'Connection refused.';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'Connection reset.';
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'Connection timed out.';
  if (/^(ERR_TLS|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/.test(code)) return 'TLS handshake failed.';
  if (code === 'ERR_INVALID_URL') return 'Invalid webhook URL.';
  return 'Connection failed.';
}

export interface DeliveryInput {
  url: string;
  webhookId: string;
  body: string;
  secrets: string[];
  agent: Dispatcher;
  allowPrivate: boolean;
  timeoutMs: number;
}

export async function deliverOnce(input: DeliveryInput): Promise<AttemptResult> {
  const startedAt = new Date();
  return { ...(await attempt(input)), startedAt };
}

async function attempt(input: DeliveryInput): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let requestHeaders: Record<string, string> | null = null;
  try {
    const url = new URL(input.url);
    assertLiteralAddressAllowed(url, input.allowPrivate);
    const timestamp = new Date();
    requestHeaders = {
      'content-type': 'application/json',
      'user-agent': 'channel-shorts-webhooks/1.0',
      'webhook-id': input.webhookId,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signPayload(input.secrets, input.webhookId, timestamp, input.body),
    };
    const response = await request(url, {
      method: 'POST',
      dispatcher: input.agent,
      signal: AbortSignal.timeout(input.timeoutMs),
      headers: requestHeaders,
      body: input.body,
    });
    const responseExcerpt = await drain(response.body);
    const status = response.statusCode;
    const retryAfterSeconds = parseRetryAfter(response.headers['retry-after']);
    const seen = { statusCode: status, requestHeaders, responseExcerpt };
    if (status >= 200 && status < 300)
      return { outcome: 'delivered', ...seen, latencyMs: elapsed(), error: null, retryAfterSeconds: null };
    if (status === 410)
      return {
        outcome: 'gone',
        ...seen,
        latencyMs: elapsed(),
        error: 'The receiver answered 410 Gone; no further attempts.',
        retryAfterSeconds: null,
      };
    const error =
      status >= 300 && status < 400
        ? `Redirect (${status}) not followed; configure the final URL.`
        : `The receiver answered HTTP ${status}.`;
    return { outcome: 'failed', ...seen, latencyMs: elapsed(), error, retryAfterSeconds };
  } catch (error) {
    const e = error as Error & { code?: string; cause?: { code?: string; message?: string } };
    const timedOut =
      e.name === 'TimeoutError' ||
      e.name === 'AbortError' ||
      e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
      e.code === 'UND_ERR_BODY_TIMEOUT';
    const message = timedOut ? `No answer within ${input.timeoutMs} ms.` : publicReason(e as never);
    return {
      outcome: 'failed',
      statusCode: null,
      latencyMs: elapsed(),
      error: message,
      detail: `${e.cause?.message ?? e.message}`,
      retryAfterSeconds: null,
      requestHeaders,
      responseExcerpt: null,
    };
  }
}

/** Reads the answer (at most MAX_RESPONSE_BYTES, then drops it) and returns its first EXCERPT_BYTES as text. */
async function drain(body: AsyncIterable<Uint8Array> & { destroy(): void }): Promise<string> {
  let read = 0;
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  try {
    for await (const chunk of body) {
      read += chunk.length;
      if (keptBytes < EXCERPT_BYTES) {
        const part = chunk.subarray(0, EXCERPT_BYTES - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      }
      if (read > MAX_RESPONSE_BYTES) {
        body.destroy();
        break;
      }
    }
  } catch {
    // The status decides the outcome; a broken response body does not.
  }
  // A multi-byte character cut at the limit decodes as U+FFFD; NUL would not fit a text column.
  return Buffer.concat(kept).toString('utf8').replaceAll('\u0000', '\uFFFD');
}
