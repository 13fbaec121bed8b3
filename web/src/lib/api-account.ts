// Dashboard calls and types for the credit statement, the low-balance alert and key usage.
// Kept beside api.ts (whose `api` wrapper they use); the types are generated (api-types.ts, npm run client:types).
import { api, ApiError, type ApiKey } from './api.ts';
import type { components } from './api-types.ts';
import { session, signOut, SESSION_EXPIRED } from './session.svelte.ts';

type Schemas = components['schemas'];

export type StatementEntry = Schemas['StatementEntry'];
export type LedgerPage = Schemas['LedgerPage'];
export type BalanceDay = Schemas['BalanceDay'];
export type BalanceStep = Schemas['BalanceStep'];
export type BalanceHistory = Schemas['BalanceHistory'];
export type CreditAlerts = Schemas['CreditAlerts'];
export type CreditAlertsChange = Schemas['CreditAlertsChange'];
/** Requests and credits of one key over the last days (keyId null: the dashboard session). */
export type KeyUsage = Schemas['KeyUsageEntry'];

/** An API key as listed (expiresAt is part of ApiKey now; the name stays for the components). */
export type ExpiringKey = ApiKey;

export function ledgerPage(limit: number, cursor?: string | null): Promise<LedgerPage> {
  return api<LedgerPage>(`/accounts/ledger?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
}

export function balanceHistory(days: number): Promise<BalanceHistory> {
  return api<BalanceHistory>(`/accounts/balance-history?days=${days}`);
}

export function saveCreditAlerts(change: CreditAlertsChange): Promise<CreditAlerts> {
  return api<CreditAlerts>('/accounts/alerts', { method: 'PUT', body: change });
}

export async function keyUsage(days = 30): Promise<Map<string | null, KeyUsage>> {
  const { keys } = await api<Schemas['KeyUsage']>(`/keys/usage?days=${days}`);
  return new Map(keys.map((k) => [k.keyId, k]));
}

/** Downloads the ledger CSV with the session (a plain link could not send the bearer token). */
export async function downloadLedgerCsv(): Promise<void> {
  const token = session.current?.token;
  const response = await fetch('/accounts/ledger.csv', {
    headers: { authorization: `Bearer ${token ?? ''}` },
    cache: 'no-store',
  });
  // As every other call (api.ts): an expired session signs out rather than leaving only an error.
  if (response.status === 401 && token && session.current?.token === token) signOut(SESSION_EXPIRED);
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { error?: string; message?: string; requestId?: string };
    throw new ApiError(
      response.status,
      body.error ?? `HTTP_${response.status}`,
      body.message ?? 'The export failed.',
      body.requestId ?? null,
    );
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'ledger.csv';
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
