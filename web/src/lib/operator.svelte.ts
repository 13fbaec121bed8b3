// Whether the signed-in user is an operator: read once per session from the account's role
// (GET /api/accounts). The operator area is shown only to operators; the API enforces it
// regardless. Asking /operator/me instead left a 403 in every customer's browser console.
import { api, type Account } from './api.ts';
import { session } from './session.svelte.ts';

export const operator = $state<{ token: string | null; isOperator: boolean }>({ token: null, isOperator: false });

export async function checkOperator(): Promise<void> {
  const token = session.current?.token ?? null;
  if (operator.token === token) return;
  operator.token = token;
  operator.isOperator = false;
  if (!token) return;
  try {
    const account = await api<Account>('/accounts');
    if (session.current?.token === token) operator.isOperator = account.role === 'operator';
  } catch {
    operator.token = null; // try again on the next page
  }
}
