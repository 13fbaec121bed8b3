// What the tests that run the service as a child process share: a data directory that already holds
// one account (made before the service starts: only one process may open an embedded directory),
// and the headers of a session for that account.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/infra/db/open-database.ts';
import { createAccount } from '../../src/domain/accounts/accounts.ts';
import { PASSWORD } from './test-app.ts';

/** A new data directory (under the system's temporary one) with the account `email` (password PASSWORD). */
export async function dataDirWithAccount(tag: string, email: string, credits = 1000): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), `cs-${tag}-`));
  const db = await openDatabase({ DATA_DIR: dataDir, DATABASE_POOL_SIZE: 1 });
  try {
    await createAccount(db, { email, password: PASSWORD, credits });
  } finally {
    await db.close();
  }
  return dataDir;
}

/** Logs `email` in at the running service: Authorization and Content-Type headers for JSON calls. */
export async function sessionHeaders(serviceUrl: string, email: string): Promise<Record<string, string>> {
  const res = await fetch(`${serviceUrl}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  if (res.status !== 200) throw new Error(`login ${res.status}: ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
}
