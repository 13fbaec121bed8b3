// The balance state the banner shows on every page: read when a session starts and on every page
// change (GET /accounts: the balance and the alert settings together), and whenever the account
// page or the alert settings read or change it.
import { api, type Account } from './api.ts';
import type { CreditAlerts } from './api-account.ts';

export const lowBalance = $state<{ alerts: CreditAlerts | null; balance: number | null }>({
  alerts: null,
  balance: null,
});

export function noteAlerts(alerts: CreditAlerts, balance?: number): void {
  lowBalance.alerts = alerts;
  if (balance !== undefined) lowBalance.balance = balance;
}

export async function refreshAlerts(): Promise<void> {
  try {
    const account = await api<Account>('/accounts');
    noteAlerts(account.alerts, account.credits.balance);
  } catch {
    // The banner is a convenience: the account page shows the balance and any error itself.
  }
}
