// Errors that mean the database cannot be reached or did not answer in time (PostgreSQL codes and
// node-postgres messages): the error handler answers 503 with Retry-After instead of 500.
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  // 57014: statement_timeout, 55P03: lock_timeout; "Query read timeout": the client-side query_timeout.
  return ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '57014', '55P03', '08006', '08001', '08003'].includes(e?.code ?? '') || /Connection terminated|timeout exceeded when trying to connect|Query read timeout/i.test(e?.message ?? '');
}
