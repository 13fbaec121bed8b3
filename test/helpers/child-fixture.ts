// What the tests that run the service as a child process share: a data directory that already holds
// one account (made before the service starts: only one process may open an embedded directory),
// the headers of a session for that account, and the describe block's fake platform, service and
// webhook receiver with their clean-up (childServiceFixture).
import { after, before } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/infra/db/open-database.ts';
import { createAccount } from '../../src/domain/accounts/accounts.ts';
import { PASSWORD } from './test-app.ts';
import { startFakePlatform, type FakePlatform } from '../../src/fake-platform/server.ts';
import type { ChildService } from '../../support/child-service.ts';
import type { startReceiver } from '../../support/webhook-receiver.ts';

export interface ChildServiceFixture {
  fake: FakePlatform;
  dataDir: string;
  /** The running service, set by the test: killed after the block. */
  service?: ChildService;
  /** The test's webhook receiver: closed after the block (a hanging delivery would keep the test process alive). */
  receiver?: Awaited<ReturnType<typeof startReceiver>>;
}

/**
 * Registers the calling describe block's before/after: a fake platform and a data directory with the
 * account `email` before its tests; then the service and receiver the tests set are stopped, and the
 * platform and directory removed.
 */
export function childServiceFixture(
  tag: string,
  email: string,
  fakeOptions: Parameters<typeof startFakePlatform>[0] = {},
): ChildServiceFixture {
  const fixture = {} as ChildServiceFixture;
  before(async () => {
    fixture.fake = await startFakePlatform(fakeOptions);
    fixture.dataDir = await dataDirWithAccount(tag, email);
  });
  after(async () => {
    await fixture.service?.kill();
    await fixture.receiver?.close();
    await fixture.fake.close();
    await rm(fixture.dataDir, { recursive: true, force: true });
  });
  return fixture;
}

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
  const res = await fetch(`${serviceUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login ${res.status}: ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
}
