// API key scopes (docs/spec.md, security commitments): chosen when a key is created, checked per route (route config
// `scope`). Sessions (the dashboard) have every scope; keys made before scopes existed (scopes NULL) too.
export const KEY_SCOPES = {
  'shorts:write': 'Create shorts requests and redeliver webhooks (costs credits).',
  'shorts:read': 'List shorts requests and read their results.',
  'account:read': 'Read the account: balance, limits, usage and ledger.',
} as const;

export type KeyScope = keyof typeof KEY_SCOPES;
export const ALL_SCOPES = Object.keys(KEY_SCOPES) as KeyScope[];

/** Known scopes only, each once, in catalog order. */
export function normaliseScopes(scopes: readonly string[]): KeyScope[] {
  return ALL_SCOPES.filter((s) => scopes.includes(s));
}
