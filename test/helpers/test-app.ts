// Builds a real app on a real database for a test: embedded PGlite (in memory) or a fresh,
// uniquely named PostgreSQL database that is dropped afterwards.
// Loaded first: a lone `node --test test/x.test.ts` (without npm test's --import) stays off the real YouTube too.
import '../offline-upstream.ts';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.ts';
import { buildApp } from '../../src/app.ts';
import { createServices, type Services } from '../../src/services.ts';
import { createAccount } from '../../src/domain/accounts/accounts.ts';
import { createPostgresDatabase } from '../../support/databases.ts';
export { skipWithout } from '../../support/databases.ts';
import { nextQuotaDayStart } from '../../src/domain/quota/quota-day.ts';

export type StorageMode = 'pglite' | 'postgres';
export const STORAGE_MODES: StorageMode[] = ['pglite', 'postgres'];

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  config: Config;
  close(): Promise<void>;
}

const silentLog = { error: () => {}, info: () => {} };

export async function startTestApp(
  mode: StorageMode,
  env: Record<string, string> = {},
  options: { runWorker?: boolean; now?: () => number; onJobs?: () => void } = {},
): Promise<TestApp> {
  const database = mode === 'postgres' ? await createPostgresDatabase() : null;
  const config = loadConfig({
    DATA_DIR: ':memory:',
    YOUTUBE_API_KEY: 'fake-api-key',
    YOUTUBE_API_BASE_URL: 'http://127.0.0.1:9/youtube/v3',
    // The Data API path unless a test chooses a source (its unit counts are exact per call).
    YOUTUBE_SOURCE: 'data-api',
    YOUTUBE_INNERTUBE_BASE_URL: 'http://127.0.0.1:9',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    JOB_HEARTBEAT_SECONDS: '10',
    // Tests poll and page freely on clocks they hold still; the read limit's own tests set it.
    READ_RATE_LIMIT_PER_MINUTE: '1000000',
    ...(database ? { DATABASE_URL: database.url, DATABASE_POOL_SIZE: '20' } : {}),
    ...env,
  });
  const services = await createServices(config, {
    runWorker: options.runWorker ?? false,
    log: silentLog,
    ...(options.now ? { now: options.now } : {}),
    ...(options.onJobs ? { onJobs: options.onJobs } : {}),
  });
  const app = await buildApp(services);
  await app.ready();
  return {
    app,
    services,
    config,
    async close() {
      await app.close();
      await services.close();
      await database?.drop();
    },
  };
}

/**
 * How far forward `nowMs` must move to be 30 s into a minute (0 when it is). Rate-limit windows are
 * aligned to the clock: a test that makes a few calls against a per-minute limit starts its clock
 * there, so the calls cannot straddle a minute boundary.
 */
export const toMidMinute = (nowMs: number): number => (90_000 - (nowMs % 60_000)) % 60_000;

/** 0 when `leftMs` is at least `marginMs`; otherwise how far to move to be 1 s past the end. */
const pastEndIfWithin = (leftMs: number, marginMs: number): number => (leftMs >= marginMs ? 0 : leftMs + 1000);

/**
 * How far forward `nowMs` must move to have at least `marginMs` left in its clock-aligned window of
 * `seconds` (0 when it has): 1 s past the window's end otherwise. For hour and day windows, where
 * moving to the middle would move the service's clock hours away from the real one, which other
 * parts still read (signed webhook timestamps, tokens): the smallest move that does the job.
 */
export const clearOfWindowEnd = (nowMs: number, seconds: number, marginMs: number): number =>
  pastEndIfWithin(seconds * 1000 - (nowMs % (seconds * 1000)), marginMs);

/**
 * The same for the quota day (midnight in Los Angeles, when the daily allowances and the keys'
 * budgets start again): how far forward `nowMs` must move to have `marginMs` of its quota day left.
 */
export const clearOfQuotaDayEnd = (nowMs: number, marginMs: number): number =>
  pastEndIfWithin(nextQuotaDayStart(nowMs) - nowMs, marginMs);

let counter = 0;
export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${Date.now().toString(36)}-${++counter}-${randomBytes(3).toString('hex')}@example.com`;
}

export const PASSWORD = 'correct horse battery staple';

export interface TestUser {
  id: string;
  email: string;
  token: string;
  key: string;
  keyId: string;
}

/** A user with a session token and one API key. */
export async function createUser(t: TestApp, credits = 100): Promise<TestUser> {
  const email = uniqueEmail();
  const account = await createAccount(t.services.db, { email, password: PASSWORD, credits });
  const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: PASSWORD } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const token = login.json().token as string;
  const created = await t.app.inject({
    method: 'POST',
    url: '/keys',
    headers: { authorization: `Bearer ${token}` },
    payload: { name: 'test key' },
  });
  if (created.statusCode !== 201) throw new Error(`key creation failed: ${created.body}`);
  return { id: account.id, email, token, key: created.json().key, keyId: created.json().id };
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/**
 * Until at least `n` backends of the test's PostgreSQL database wait on a lock (a statement a test
 * has made wait for a transaction it holds open). Polls pg_stat_activity; throws after 10 s.
 */
export async function untilLockWaiters(db: Pick<Services['db'], 'query'>, n = 1): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    const [row] = await db.query<{ waiting: number }>(
      "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (row!.waiting >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${n} statements waited on a lock`);
}
