// fetch wrapper: JSON in and out, the session's bearer token, and the API's error bodies
// ({error, message, requestId}) turned into ApiError. A 401 on an authenticated call means the
// session is no longer valid: sign out, and the login screen says why.
import { session, signOut, SESSION_EXPIRED } from './session.svelte.ts';
import type { components } from './api-types.ts';

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

export async function api<T>(
  path: string,
  { method = 'GET', body, signal, auth = true }: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  // Only with a body: Fastify refuses an empty body declared as JSON.
  if (body !== undefined) headers['content-type'] = 'application/json';
  const token = auth ? session.current?.token : undefined;
  if (token) headers.authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: 'no-store',
    });
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
  const message =
    typeof err.message === 'string' && err.message
      ? err.message
      : `The server answered ${response.status} ${response.statusText}`.trim();
  const requestId = typeof err.requestId === 'string' ? err.requestId : response.headers.get('x-request-id');
  if (response.status === 401 && token && session.current?.token === token) signOut(SESSION_EXPIRED);
  throw new ApiError(response.status, code, message, requestId);
}

/** A user-facing sentence for any error, with the request id support needs. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError)
    return error.requestId ? `${error.message} (request ${error.requestId})` : error.message;
  return error instanceof Error ? error.message : String(error);
}

// ---- API types: generated from the OpenAPI document (api-types.ts, npm run client:types) ----

type Schemas = components['schemas'];

export type LoginResponse = Schemas['Session'];
export type Account = Schemas['Account'];
export type UsageDay = Schemas['UsageDay'];
export type LedgerEntry = Schemas['LedgerEntry'];
export type ApiKey = Schemas['ApiKey'];
export type CreatedKey = Schemas['CreatedKey'];
export type WebhookSecret = Schemas['WebhookSecret'];
export type RotatedSecret = Schemas['RotatedSecret'];
export type RequestStatus = Schemas['RequestStatus'];
export type RequestSummary = Schemas['RequestSummary'];
export type DeliveryAttempt = Schemas['DeliveryAttempt'];
export type RequestDetail = Schemas['RequestDetail'];
export type RedeliveryQueued = Schemas['RedeliveryQueued'];
export type Pricing = Schemas['Pricing'];
export type Channel = Schemas['Channel'];
export type Short = Schemas['Short'];

/** API key scopes, as the server defines them (src/domain/keys/scopes.ts). */
export const KEY_SCOPES: Array<{ id: string; label: string }> = [
  { id: 'shorts:write', label: 'Create shorts requests and redeliver webhooks' },
  { id: 'shorts:read', label: 'Read shorts requests and results' },
  { id: 'account:read', label: 'Read balance, usage and ledger' },
];

// ---- operator API (/operator/..., operators only) ----

export type Role = Schemas['Role'];
export type OperatorUser = Schemas['User'];
export type AuditEntry = Schemas['AuditEntry'];
export type DoctorFinding = Schemas['DoctorFinding'];
export type UserDelivery = Schemas['UserDelivery'];
export type SignupInfo = Schemas['SignupInfo'];
