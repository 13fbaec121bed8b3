// Dashboard calls and types for the credit statement, the low-balance alert and key usage (issue #16).
// Kept beside api.ts (whose `api` wrapper they use) so that file's generated types stay separate.
import { api, ApiError, type ApiKey } from './api.ts';
import { session } from './session.svelte.ts';

export interface StatementEntry {
  id: number;
  kind: 'grant' | 'charge' | 'deduct';
  amount: number;
  balanceAfter: number;
  requestId: string | null;
  channelUrl: string | null;
  channelTitle: string | null;
  note: string | null;
  createdAt: string;
}

export interface LedgerPage {
  entries: StatementEntry[];
  nextCursor: string | null;
}

export interface BalanceDay {
  date: string;
  balance: number;
  added: number;
  spent: number;
}

export interface CreditAlerts {
  lowBalanceThreshold: number | null;
  eventsWebhookUrl: string | null;
  low: boolean;
}

export interface KeyUsage {
  keyId: string | null;
  requests: number;
  credits: number;
}

/** An API key as listed, with its optional expiry. */
export type ExpiringKey = ApiKey & { expiresAt?: string | null };

export function ledgerPage(limit: number, cursor?: string | null): Promise<LedgerPage> {
  return api<LedgerPage>(`/accounts/ledger?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
}

export async function balanceHistory(days: number): Promise<BalanceDay[]> {
  return (await api<{ days: BalanceDay[] }>(`/accounts/balance-history?days=${days}`)).days;
}

export function creditAlerts(): Promise<CreditAlerts> {
  return api<CreditAlerts>('/accounts/alerts');
}

export function saveCreditAlerts(change: { lowBalanceThreshold?: number | null; eventsWebhookUrl?: string | null }): Promise<CreditAlerts> {
  return api<CreditAlerts>('/accounts/alerts', { method: 'PUT', body: change });
}

export async function keyUsage(days = 30): Promise<Map<string | null, KeyUsage>> {
  const { keys } = await api<{ keys: KeyUsage[] }>(`/keys/usage?days=${days}`);
  return new Map(keys.map((k) => [k.keyId, k]));
}

/** Downloads the ledger CSV with the session (a plain link could not send the bearer token). */
export async function downloadLedgerCsv(): Promise<void> {
  const response = await fetch('/accounts/ledger.csv', { headers: { authorization: `Bearer ${session.current?.token ?? ''}` }, cache: 'no-store' });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { error?: string; message?: string; requestId?: string };
    throw new ApiError(response.status, body.error ?? `HTTP_${response.status}`, body.message ?? 'The export failed.', body.requestId ?? null);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'ledger.csv';
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
