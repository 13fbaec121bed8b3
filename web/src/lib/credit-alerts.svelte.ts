// The low-balance state the banner shows on every page: read when a session starts and whenever
// the account page or the alert settings read or change it.
import { creditAlerts, type CreditAlerts } from './api-account.ts';

export const lowBalance = $state<{ alerts: CreditAlerts | null }>({ alerts: null });

export function noteAlerts(alerts: CreditAlerts): void {
  lowBalance.alerts = alerts;
}

export async function refreshAlerts(): Promise<void> {
  try {
    lowBalance.alerts = await creditAlerts();
  } catch {
    // The banner is a convenience: the account page shows the balance and any error itself.
  }
}
