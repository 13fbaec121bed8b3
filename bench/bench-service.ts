// What every benchmark script starts the service with (bench/run.ts, profile-hot.ts, cpu-probe.ts):
// a data directory holding one account with an API key, and the environment that points the
// service at the fake platform with limits that never get in the way.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/infra/db/open-database.ts';
import { createAccount } from '../src/domain/accounts/accounts.ts';
import { createApiKey } from '../src/domain/keys/api-keys.ts';
import type { Database } from '../src/infra/db/database.ts';
import { freePort } from '../support/child-service.ts';

/** Rate limits high enough that a benchmark never meets them. */
export const NO_LIMIT = String(1_000_000_000);

export function benchServiceEnv(
  dataDir: string,
  baseUrl: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    YOUTUBE_API_KEY: 'fake-api-key',
    YOUTUBE_API_BASE_URL: baseUrl,
    YOUTUBE_INNERTUBE_BASE_URL: baseUrl.replace(/\/youtube\/v3$/, ''),
    YOUTUBE_SOURCE: 'data-api',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_PER_MINUTE: NO_LIMIT,
    RATE_LIMIT_PER_HOUR: NO_LIMIT,
    RATE_LIMIT_PER_DAY: NO_LIMIT,
    READ_RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/**
 * A new data directory (and, with `databaseUrl`, that PostgreSQL database) holding one account with
 * `credits` and an API key; `prepare` runs on the database before it is closed.
 */
export async function seedBenchAccount(options: {
  credits: number;
  databaseUrl?: string;
  prepare?: (db: Database) => Promise<void>;
}): Promise<{ dataDir: string; key: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cs-bench-'));
  const db = await openDatabase(
    { DATA_DIR: dataDir, DATABASE_POOL_SIZE: 1, ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}) },
    { role: 'bench' },
  );
  try {
    const account = await createAccount(db, {
      email: 'bench@example.com',
      password: 'bench-password-123',
      credits: options.credits,
    });
    const { key } = await createApiKey(db, account.id, 'bench');
    await options.prepare?.(db);
    return { dataDir, key };
  } finally {
    await db.close();
  }
}

/** The bare Fastify server (bench/bare-server.ts) answering with the bytes of `bodyFile`, in a process of its own. */
export async function startBare(bodyFile: string, kind: 'buffer' | 'string') {
  const port = await freePort();
  const bare = spawn(process.execPath, ['bench/bare-server.ts', bodyFile], {
    env: { ...process.env, PORT: String(port), BARE_BODY: kind },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((r) => bare.stdout!.once('data', r));
  const origin = `http://127.0.0.1:${port}`;
  return { origin, url: `${origin}/api/youtube/shorts`, pid: bare.pid!, close: () => bare.kill() };
}

/**
 * bench/bare-webhooks.ts in a process of its own: `count` signed POSTs of `body` to `receiverBase`,
 * `lanes` at a time; resolves with the loop's time, one POST's median round trip and the loop's CPU time (ms).
 */
export async function bareWebhookLoop(
  receiverBase: string,
  count: number,
  lanes: number,
  body: string,
): Promise<{ elapsedMs: number; medianMs: number; cpuMs: number }> {
  const bodyFile = join(await mkdtemp(join(tmpdir(), 'cs-bench-bare-')), 'body.json');
  await writeFile(bodyFile, body);
  try {
    const loop = spawn(
      process.execPath,
      ['bench/bare-webhooks.ts', receiverBase, String(count), String(lanes), bodyFile],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    loop.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await new Promise<void>((resolve, reject) =>
      loop.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bare webhook loop exited ${code}`)))),
    );
    return JSON.parse(out) as { elapsedMs: number; medianMs: number; cpuMs: number };
  } finally {
    await rm(join(bodyFile, '..'), { recursive: true, force: true });
  }
}
