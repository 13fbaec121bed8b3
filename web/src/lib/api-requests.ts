// Dashboard calls of the requests log, the webhook tooling and the Run panel (#16 points 1–3).
// Types mirror the server's schemas (src/http/schemas/requests-log.ts, shorts.ts; see /docs).
import { api, type DeliveryAttempt, type RequestStatus, type RequestSummary } from './api.ts';

export type DeliveryState = 'pending' | 'delivered' | 'retrying' | 'failed' | 'gone';

export interface RequestLogEntry extends RequestSummary {
  apiKey: { id: string; name: string; prefix: string } | null;
  delivery: {
    state: DeliveryState;
    attempts: number;
    lastAttemptAt: string | null;
    lastStatusCode: number | null;
    nextAttemptAt: string | null;
    retryingUntil: string | null;
  } | null;
}

export interface RequestLogFilter {
  status?: RequestStatus | '';
  mode?: 'sync' | 'webhook' | '';
  /** An API key id, or 'session'. */
  key?: string;
  channel?: string;
  /** Instants (ISO 8601). */
  from?: string;
  to?: string;
  delivery?: DeliveryState | '';
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  return search.toString();
}

export async function listRequestLog(filter: RequestLogFilter, cursor: string | null, limit = 50): Promise<Page<RequestLogEntry>> {
  const qs = query({ limit, cursor: cursor ?? undefined, ...filter });
  const page = await api<{ requests: RequestLogEntry[]; nextCursor: string | null }>(`/api/youtube/shorts?${qs}`);
  return { items: page.requests, nextCursor: page.nextCursor };
}

export interface RejectionDay {
  date: string;
  total: number;
  counts: Array<{ httpStatus: number; error: string; apiKeyId: string | null; count: number; lastAt: string }>;
}

export async function listRejections(days = 30): Promise<RejectionDay[]> {
  return (await api<{ days: RejectionDay[] }>(`/api/youtube/shorts/rejections?days=${days}`)).days;
}

export interface DeliveryDetail extends DeliveryAttempt {
  requestHeaders: Record<string, string> | null;
  responseExcerpt: string | null;
  nextAttemptAt: string | null;
}

export interface DeliveryLogEntry extends DeliveryDetail {
  requestId: string | null;
  batchId: string | null;
  url: string;
  gaveUp: boolean;
}

export async function listDeliveries(outcome: DeliveryAttempt['outcome'] | '', cursor: string | null, limit = 50): Promise<Page<DeliveryLogEntry>> {
  const page = await api<{ deliveries: DeliveryLogEntry[]; nextCursor: string | null }>(`/webhooks/deliveries?${query({ limit, cursor: cursor ?? undefined, outcome })}`);
  return { items: page.deliveries, nextCursor: page.nextCursor };
}

export interface WebhookTestResult {
  webhookId: string;
  url: string;
  outcome: DeliveryAttempt['outcome'];
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  requestHeaders: Record<string, string> | null;
  requestBody: string;
  responseExcerpt: string | null;
}

export function sendTestEvent(url: string): Promise<WebhookTestResult> {
  return api<WebhookTestResult>('/webhooks/test', { method: 'POST', body: { url } });
}

export interface Thumbnail {
  url: string;
  width?: number;
  height?: number;
}
type Thumbnails = Partial<Record<'default' | 'medium' | 'high' | 'standard' | 'maxres', Thumbnail>>;

export interface Channel {
  id: string;
  snippet: { title?: string; description?: string; customUrl?: string; thumbnails?: Thumbnails };
  statistics: { viewCount?: string; subscriberCount?: string; hiddenSubscriberCount?: boolean; videoCount?: string };
  brandingSettings: { image: { bannerExternalUrl?: string } };
}

export interface Short {
  id: string;
  snippet: { publishedAt?: string; title?: string; thumbnails?: Thumbnails };
  statistics: { viewCount?: string; likeCount?: string };
  shortUrl: string;
  durationSeconds?: number;
}

export interface ShortsResult {
  success: true;
  requestId: string;
  data: { channel: Channel; shorts: Short[] };
  itemCount: number;
  creditsCharged: number;
  truncated: boolean;
  stale: boolean;
  fetchedAt: string;
  source: string;
  message?: string;
}

export interface RunInput {
  channelUrl: string;
  oldestDate?: number;
  limit?: number;
  sort?: 'newest' | 'oldest' | 'popular';
}

/** A synchronous shorts request with the session: charged like any other. */
export function runShorts(input: RunInput, signal?: AbortSignal): Promise<ShortsResult> {
  return api<ShortsResult>('/api/youtube/shorts', { method: 'POST', body: input, ...(signal ? { signal } : {}) });
}
