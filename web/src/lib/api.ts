// fetch wrapper: JSON in and out, the session's bearer token, and the API's error bodies
// ({error, message, requestId}) turned into ApiError. A 401 on an authenticated call means the
// session is no longer valid: sign out, and the login screen says why.
import { session, signOut, SESSION_EXPIRED } from './session.svelte.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | null;
  constructor(status: number, code: string, message: string, requestId: string | null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.requestId = requestId;
  }
}

interface ErrorBody {
  error?: unknown;
  message?: unknown;
  requestId?: unknown;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Send the session token (default true). */
  auth?: boolean;
}

export async function api<T>(path: string, { method = 'GET', body, signal, auth = true }: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  // Only with a body: Fastify refuses an empty body declared as JSON.
  if (body !== undefined) headers['content-type'] = 'application/json';
  const token = auth ? session.current?.token : undefined;
  if (token) headers.authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal, cache: 'no-store' });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the server. Check your connection and try again.', null);
  }

  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }

  if (response.ok) return data as T;

  const err = (data && typeof data === 'object' ? data : {}) as ErrorBody;
  const code = typeof err.error === 'string' ? err.error : `HTTP_${response.status}`;
  const message = typeof err.message === 'string' && err.message ? err.message : `The server answered ${response.status} ${response.statusText}`.trim();
  const requestId = typeof err.requestId === 'string' ? err.requestId : response.headers.get('x-request-id');
  if (response.status === 401 && token && session.current?.token === token) signOut(SESSION_EXPIRED);
  throw new ApiError(response.status, code, message, requestId);
}

/** A user-facing sentence for any error, with the request id support needs. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.requestId ? `${error.message} (request ${error.requestId})` : error.message;
  return error instanceof Error ? error.message : String(error);
}

// ---- API types (see the OpenAPI document at /docs) ----

export interface LoginResponse {
  token: string;
  user: { id: string; email: string };
  expiresAt: string;
}

export interface Account {
  id: string;
  email: string;
  createdAt: string;
  credits: { balance: number };
  rateLimits: { perMinute: number; perHour: number; perDay: number };
  usage: { minute: number; hour: number; day: number; totalRequests: number; totalCreditsCharged: number };
}

export interface UsageDay {
  date: string;
  requests: number;
  items: number;
  credits: number;
}

export interface LedgerEntry {
  id: number;
  kind: 'grant' | 'charge' | 'deduct';
  amount: number;
  balanceAfter: number;
  requestId: string | null;
  note: string | null;
  createdAt: string;
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  scopes: string[];
}

/** API key scopes, as the server defines them (src/domain/keys/scopes.ts). */
export const KEY_SCOPES: Array<{ id: string; label: string }> = [
  { id: 'shorts:write', label: 'Create shorts requests and redeliver webhooks' },
  { id: 'shorts:read', label: 'Read shorts requests and results' },
  { id: 'account:read', label: 'Read balance, usage and ledger' },
];

export interface CreatedKey extends ApiKey {
  key: string;
}

export interface WebhookSecret {
  secret: string;
  createdAt: string;
  expiresAt: string | null;
}

export interface RotatedSecret {
  secret: string;
  createdAt: string;
  previousExpiresAt: string;
}

export type RequestStatus = 'processing' | 'completed' | 'failed';

export interface RequestSummary {
  requestId: string;
  createdAt: string;
  completedAt?: string | null;
  channelUrl: string;
  oldestDate?: number | null;
  webhookUrl?: string | null;
  mode: 'sync' | 'webhook';
  status: RequestStatus;
  itemCount: number | null;
  creditsCharged: number | null;
  error: string | null;
}

export interface DeliveryAttempt {
  id: number;
  attempt: number;
  webhookId: string;
  startedAt: string;
  statusCode: number | null;
  latencyMs: number | null;
  outcome: 'delivered' | 'failed' | 'gone';
  error: string | null;
}

export interface RequestDetail extends RequestSummary {
  completedAt: string | null;
  oldestDate: number | null;
  webhookUrl: string | null;
  result: unknown;
  deliveries: DeliveryAttempt[];
}

// ---- operator API (/operator/..., operators only) ----

export type Role = 'customer' | 'operator';

export interface OperatorUser {
  id: string;
  email: string;
  role: Role;
  credits: number;
  disabledAt: string | null;
  createdAt: string;
  limitOverrides: { perMinute: number | null; perHour: number | null; perDay: number | null };
  rateLimits: { perMinute: number; perHour: number; perDay: number };
}

export interface AuditEntry {
  id: number;
  actor: string;
  actorAccountId: string | null;
  action: string;
  targetAccountId: string | null;
  target: string | null;
  reason: string | null;
  before: unknown;
  after: unknown;
  createdAt: string;
}

export interface DoctorFinding {
  check: string;
  severity: 'ok' | 'warn' | 'breach';
  summary: string;
  details: string[];
}

export interface UserDelivery extends DeliveryAttempt {
  requestId: string;
}

export interface SignupInfo {
  mode: 'off' | 'invite' | 'open';
  startingCredits: number;
}
