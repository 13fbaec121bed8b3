// Dashboard calls of the requests log, the webhook tooling and the Run panel.
// The response types are generated from the OpenAPI document (api-types.ts, npm run client:types).
import { api, type Channel, type DeliveryAttempt, type RequestStatus, type Short } from './api.ts';
import type { components } from './api-types.ts';

type Schemas = components['schemas'];

export type DeliveryState = Schemas['DeliveryState'];
export type RequestLogEntry = Schemas['RequestLogEntry'];
export type RequestLogPage = Schemas['RequestLogPage'];
export type RejectionDay = Schemas['RejectionDay'];
export type Rejections = Schemas['Rejections'];
/** One delivery attempt with the headers sent, the answer's excerpt and the next retry. */
export type DeliveryDetail = DeliveryAttempt;
export type DeliveryLogEntry = Schemas['DeliveryLogEntry'];
export type DeliveryLogPage = Schemas['DeliveryLogPage'];
export type WebhookTestResult = Schemas['WebhookTestResult'];
export type ShortsResult = Schemas['ShortsResult'];
export type { Channel, Short };

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
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(name, String(value));
  return search.toString();
}

export async function listRequestLog(
  filter: RequestLogFilter,
  cursor: string | null,
  limit = 50,
): Promise<Page<RequestLogEntry>> {
  const qs = query({ limit, cursor: cursor ?? undefined, ...filter });
  const page = await api<RequestLogPage>(`/api/youtube/shorts?${qs}`);
  return { items: page.requests, nextCursor: page.nextCursor };
}

export async function listRejections(days = 30): Promise<RejectionDay[]> {
  return (await api<Rejections>(`/api/youtube/shorts/rejections?days=${days}`)).days;
}

export async function listDeliveries(
  outcome: DeliveryAttempt['outcome'] | '',
  cursor: string | null,
  limit = 50,
): Promise<Page<DeliveryLogEntry>> {
  const page = await api<DeliveryLogPage>(
    `/webhooks/deliveries?${query({ limit, cursor: cursor ?? undefined, outcome })}`,
  );
  return { items: page.deliveries, nextCursor: page.nextCursor };
}

export function sendTestEvent(url: string): Promise<WebhookTestResult> {
  return api<WebhookTestResult>('/webhooks/test', { method: 'POST', body: { url } });
}

export interface RunInput {
  channelUrl: string;
  oldestDate?: number;
  limit?: number;
  sort?: 'newest' | 'oldest' | 'popular';
  maxCredits?: number;
  minDurationSeconds?: number;
  maxDurationSeconds?: number;
  /** Webhook mode: answered 202 at once, the result POSTed here. */
  webhookUrl?: string;
}

export type ShortsAccepted = Schemas['ShortsAccepted'];

/** A shorts request with the session (charged like any other): the result, or 202 in webhook mode. */
export function runShorts(input: RunInput, signal?: AbortSignal): Promise<ShortsResult | ShortsAccepted> {
  return api<ShortsResult | ShortsAccepted>('/api/youtube/shorts', {
    method: 'POST',
    body: input,
    ...(signal ? { signal } : {}),
  });
}

export type ItemsPage = Schemas['ItemsPage'];

/** One page of a stored result (GET /api/youtube/shorts/:id/items), free of charge. */
export function resultItems(requestId: string, cursor: string | null, pageSize = 24): Promise<ItemsPage> {
  const qs = query({ pageSize, cursor: cursor ?? undefined });
  return api<ItemsPage>(`/api/youtube/shorts/${encodeURIComponent(requestId)}/items?${qs}`);
}

export type BatchListEntry = Schemas['BatchListEntry'];
export type BatchStatus = Schemas['BatchStatus'];

export async function listBatches(cursor: string | null, limit = 20): Promise<Page<BatchListEntry>> {
  const page = await api<Schemas['BatchList']>(
    `/api/youtube/shorts/batch?${query({ limit, cursor: cursor ?? undefined })}`,
  );
  return { items: page.batches, nextCursor: page.nextCursor };
}

export function getBatch(batchId: string): Promise<BatchStatus> {
  return api<BatchStatus>(`/api/youtube/shorts/batch/${encodeURIComponent(batchId)}`);
}

export function redeliverBatch(batchId: string): Promise<Schemas['BatchRedeliveryQueued']> {
  return api<Schemas['BatchRedeliveryQueued']>(`/api/youtube/shorts/batch/${encodeURIComponent(batchId)}/redeliver`, {
    method: 'POST',
  });
}
