// Whether the signed-in user is an operator: asked once per session from /operator/me (403 for
// customers). The operator area is shown only to operators; the API enforces it regardless.
import { api, ApiError } from './api.ts';
import { session } from './session.svelte.ts';

export const operator = $state<{ token: string | null; isOperator: boolean }>({ token: null, isOperator: false });

export async function checkOperator(): Promise<void> {
  const token = session.current?.token ?? null;
  if (operator.token === token) return;
  operator.token = token;
  operator.isOperator = false;
  if (!token) return;
  try {
    await api('/operator/me');
    if (session.current?.token === token) operator.isOperator = true;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 403) operator.token = null; // try again later
  }
}
