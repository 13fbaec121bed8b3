/**
 * Key management needs a dashboard session (docs/spec.md, security commitments): a leaked API key must not mint or
 * revoke keys.
 */
export const sessionOnly = { auth: 'session' } as const;
