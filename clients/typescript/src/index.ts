// A small typed client for the channel-shorts API: fetch-based, no other runtime dependency than
// standardwebhooks (for verifyWebhook). Types come from the service's OpenAPI document (openapi.ts).
import type { components, paths } from './openapi.ts';

export type { components, paths, webhooks } from './openapi.ts';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookHeaders } from './webhooks.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type ShortsRequest = Json<paths['/api/youtube/shorts']['post']['requestBody']>;
export type ShortsResult = Json<paths['/api/youtube/shorts']['post']['responses'][200]>;
export type ShortsAccepted = Json<paths['/api/youtube/shorts']['post']['responses'][202]>;
export type FailureBody = Json<paths['/api/youtube/shorts']['post']['responses'][400]>;
export type RequestDetail = Json<paths['/api/youtube/shorts/{requestId}']['get']['responses'][200]>;
/** One entry of the requests log: the request's summary, the key that made it, its delivery state (#16.2). */
export type RequestSummary = components['schemas']['RequestLogEntry'];
export type RequestLogPage = Json<paths['/api/youtube/shorts']['get']['responses'][200]>;
export type RequestLogQuery = Partial<NonNullable<paths['/api/youtube/shorts']['get']['parameters']['query']>>;
export type BatchRequest = Json<paths['/api/youtube/shorts/batch']['post']['requestBody']>;
export type BatchItem = components['schemas']['BatchItem'];
export type BatchAccepted = Json<paths['/api/youtube/shorts/batch']['post']['responses'][202]>;
export type BatchStatus = Json<paths['/api/youtube/shorts/batch/{batchId}']['get']['responses'][200]>;
export type ItemsPage = Json<paths['/api/youtube/shorts/{requestId}/items']['get']['responses'][200]>;
export type Account = Json<paths['/accounts']['get']['responses'][200]>;
export type Channel = components['schemas']['Channel'];
export type Short = components['schemas']['Short'];
export type Pricing = components['schemas']['Pricing'];
export type Sort = NonNullable<ShortsRequest['sort']>;
export type VideoStats = components['schemas']['VideoStats'];
export type ChannelStats = components['schemas']['ChannelStats'];
export type StatsWindow = ChannelStats['window'];

export interface ClientOptions {
  /** Where the service runs, e.g. https://shorts.example.com */
  baseUrl: string;
  /** An API key (csk_…) or a session JWT. Keep API keys on your backend. */
  apiKey: string;
  /**
   * Retries after 429 and 503 (the service charges nothing for either), after 409 IDEMPOTENCY_IN_PROGRESS, and
   * after a network failure (every POST carries an Idempotency-Key, reused by its retries: a call the service ran
   * before the connection dropped is answered again, not run twice). Default 3.
   */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown at once. Default 60,000 ms. */
  maxRetryDelayMs?: number;
  /** Defaults to globalThis.fetch. */
  fetch?: typeof fetch;
  /** How to wait between attempts (tests pass one that records the delays). */
  sleep?: (ms: number) => Promise<void>;
}

/** A non-2xx answer: the service's {error, message, requestId} body (and success:false on shorts routes). */
export class ChannelShortsError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  /** Seconds the service asked to wait (Retry-After), when it said. */
  readonly retryAfterSeconds: number | undefined;
  readonly body: unknown;
  constructor(status: number, body: unknown, retryAfterSeconds: number | undefined) {
    const b = (body ?? {}) as { error?: unknown; message?: unknown; requestId?: unknown };
    super(typeof b.message === 'string' ? b.message : `HTTP ${status}`);
    this.name = 'ChannelShortsError';
    this.status = status;
    this.code = typeof b.error === 'string' ? b.error : `HTTP_${status}`;
    this.requestId = typeof b.requestId === 'string' ? b.requestId : undefined;
    this.retryAfterSeconds = retryAfterSeconds;
    this.body = body;
  }
}

/** Retry-After as seconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

const RETRYABLE = new Set([429, 503]);

/** A failure worth the same call again: the service charged nothing, or (same Idempotency-Key) it answers again. */
function retryable(status: number, body: unknown): boolean {
  return (
    RETRYABLE.has(status) || (status === 409 && (body as { error?: unknown })?.error === 'IDEMPOTENCY_IN_PROGRESS')
  );
}

export class ChannelShortsClient {
  readonly #base: string;
  readonly #key: string;
  readonly #maxRetries: number;
  readonly #maxDelayMs: number;
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: ClientOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#key = options.apiKey;
    this.#maxRetries = options.maxRetries ?? 3;
    this.#maxDelayMs = options.maxRetryDelayMs ?? 60_000;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Lists a channel's shorts and answers with them (no webhookUrl). */
  listShorts(body: Omit<ShortsRequest, 'webhookUrl'>): Promise<ShortsResult> {
    return this.#call('POST', '/api/youtube/shorts', body);
  }

  /** Accepts the request now (202); the result is POSTed to body.webhookUrl later. */
  submitShorts(body: ShortsRequest & { webhookUrl: string }): Promise<ShortsAccepted> {
    return this.#call('POST', '/api/youtube/shorts', body);
  }

  getRequest(requestId: string): Promise<RequestDetail> {
    return this.#call('GET', `/api/youtube/shorts/${encodeURIComponent(requestId)}`);
  }

  async listRequests(limit = 50): Promise<RequestSummary[]> {
    return (await this.listRequestsPage({ limit })).requests;
  }

  /** One page of the requests log, filtered; pass the page's nextCursor as cursor for the next one. */
  listRequestsPage(query: RequestLogQuery = {}): Promise<RequestLogPage> {
    const search = new URLSearchParams(
      Object.entries(query)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    );
    return this.#call('GET', `/api/youtube/shorts?${search}`);
  }

  /** Up to 50 webhook requests at once; all are accepted or none (402). */
  submitBatch(body: BatchRequest): Promise<BatchAccepted> {
    return this.#call('POST', '/api/youtube/shorts/batch', body);
  }

  getBatch(batchId: string): Promise<BatchStatus> {
    return this.#call('GET', `/api/youtube/shorts/batch/${encodeURIComponent(batchId)}`);
  }

  /** One page of a stored result (webhook requests, or synchronous ones sent with store: true). */
  getItemsPage(requestId: string, options: { cursor?: string; pageSize?: number } = {}): Promise<ItemsPage> {
    const query = new URLSearchParams();
    if (options.cursor !== undefined) query.set('cursor', options.cursor);
    if (options.pageSize !== undefined) query.set('pageSize', String(options.pageSize));
    // Not query.size: runtimes before Node 18.16 lack it, and paging then never moved on (found by review).
    const text = query.toString();
    const qs = text ? `?${text}` : '';
    return this.#call('GET', `/api/youtube/shorts/${encodeURIComponent(requestId)}/items${qs}`);
  }

  /** Every short of a stored result, fetching page after page. */
  async *items(requestId: string, options: { pageSize?: number } = {}): AsyncGenerator<Short> {
    let cursor: string | undefined;
    do {
      const page: ItemsPage = await this.getItemsPage(requestId, {
        ...options,
        ...(cursor !== undefined ? { cursor } : {}),
      });
      yield* page.data.shorts;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /**
   * A Short's stored counts over time (oldest first; from/to as Date or ISO 8601, default the last
   * 30 days) and its growth. Free; VIDEO_NOT_TRACKED when the service never read it.
   */
  videoStats(videoId: string, range: { from?: Date | string; to?: Date | string } = {}): Promise<VideoStats> {
    const query = new URLSearchParams();
    for (const key of ['from', 'to'] as const) {
      const value = range[key];
      if (value !== undefined) query.set(key, value instanceof Date ? value.toISOString() : value);
    }
    const text = query.toString();
    return this.#call('GET', `/api/youtube/videos/${encodeURIComponent(videoId)}/stats${text ? `?${text}` : ''}`);
  }

  /** A channel's Shorts ranked by views gained in the window (default 24h), and its own counts over it. Free. */
  channelStats(channelId: string, options: { window?: StatsWindow; limit?: number } = {}): Promise<ChannelStats> {
    const query = new URLSearchParams();
    if (options.window !== undefined) query.set('window', options.window);
    if (options.limit !== undefined) query.set('limit', String(options.limit));
    const text = query.toString();
    return this.#call('GET', `/api/youtube/channels/${encodeURIComponent(channelId)}/stats${text ? `?${text}` : ''}`);
  }

  getAccount(): Promise<Account> {
    return this.#call('GET', '/accounts');
  }

  /** The price and webhook timings this service is configured with (public; read them instead of copying them). */
  getPricing(): Promise<Pricing> {
    return this.#call('GET', '/api/pricing');
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    // One key per call, the same on each of its attempts: the service runs the call at most once.
    const idempotencyKey = method === 'POST' ? globalThis.crypto.randomUUID() : undefined;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.#fetch(`${this.#base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${this.#key}`,
            accept: 'application/json',
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(idempotencyKey !== undefined ? { 'idempotency-key': idempotencyKey } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
      } catch (failure) {
        // The connection failed: whether the service ran the call is unknown, and the key makes asking again safe.
        if (attempt >= this.#maxRetries) throw failure;
        await this.#sleep(Math.min(1000 * 2 ** attempt, this.#maxDelayMs));
        continue;
      }
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        parsed = { message: text };
      }
      if (response.ok) return parsed as T;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      const error = new ChannelShortsError(response.status, parsed, retryAfter);
      if (!retryable(response.status, parsed) || attempt >= this.#maxRetries) throw error;
      // Honour Retry-After; without one back off 1 s, 2 s, 4 s… A wait beyond the bound is not worth it.
      const delayMs = retryAfter !== undefined ? retryAfter * 1000 : Math.min(1000 * 2 ** attempt, this.#maxDelayMs);
      if (delayMs > this.#maxDelayMs) throw error;
      await this.#sleep(delayMs);
    }
  }
}
