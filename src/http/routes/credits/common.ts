/** What the statement's read routes take: an API key with account:read, or a session. */
export const accountRead = { auth: true, scope: 'account:read' } as const;
