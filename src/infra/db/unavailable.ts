// Errors that mean the database cannot be reached or did not answer in time (PostgreSQL codes and
// node-postgres messages): the error handler answers 503 with Retry-After instead of 500.
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  // 57014: statement_timeout, 55P03: lock_timeout; "Query read timeout": the client-side query_timeout.
  // Also unavailable, not a 500: 53300 too many connections (many instances × pool size),
  // 57P02 a crash restart cutting statements in flight, 53100/53200 out of disk or memory, and the
  // host name not resolving (ENOTFOUND, EAI_AGAIN: a container restarting).
  const codes = [
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'ENOTFOUND',
    'EAI_AGAIN',
    '57P01',
    '57P02',
    '57P03',
    '57014',
    '55P03',
    '53100',
    '53200',
    '53300',
    '08006',
    '08001',
    '08003',
    '08004',
  ];
  return (
    codes.includes(e?.code ?? '') ||
    /Connection terminated|timeout exceeded when trying to connect|Query read timeout/i.test(e?.message ?? '')
  );
}
