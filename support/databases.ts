// Real backing stores for tests and the benchmark: a fresh, uniquely named PostgreSQL database
// (dropped afterwards), the Redis URL, and a throwaway redis-server for outage tests.
// TEST_POSTGRES_URL / TEST_REDIS_URL point elsewhere. `skipWithout` says whether a suite can run here.
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import pg from 'pg';
import { until } from './webhook-receiver.ts';

const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_TEST_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cs_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** A throwaway redis-server on `port` (the machine's binary), for outage tests that kill it. */
export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  await until(
    async () =>
      new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      }),
    10_000,
    50,
  );
  return child;
}

// ---------------------------------------------------------------------------------------------
// Which backing stores this machine has. Probed once per test process, when this module loads, so
// a suite can say at registration (describe's `skip`) whether it runs. Without them the suites that
// need them skip, each naming what is missing; under CI=true (as .ci/run sets) a missing store is an
// error instead: a green CI must mean every suite ran.

/** What a suite needs: `pglite` and `memory` need nothing (a StorageMode or a store's name reads as one). */
export type Need = 'pglite' | 'memory' | 'postgres' | 'redis' | 'redis-server';

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || defaultPort) });
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

function onPath(binary: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, binary)));
}

const [postgresUp, redisUp] = await Promise.all([reachable(POSTGRES_ADMIN_URL, 5432), reachable(REDIS_TEST_URL, 6379)]);

function missing(need: Need): string | undefined {
  const where = (url: string, port: number) => {
    const u = new URL(url);
    return `${u.hostname}:${u.port || port}`;
  };
  if (need === 'postgres' && !postgresUp)
    return `PostgreSQL (nothing answers at ${where(POSTGRES_ADMIN_URL, 5432)}, TEST_POSTGRES_URL)`;
  if (need === 'redis' && !redisUp) return `Redis (nothing answers at ${where(REDIS_TEST_URL, 6379)}, TEST_REDIS_URL)`;
  if (need === 'redis-server' && !onPath('redis-server')) return 'redis-server (not on the PATH)';
  return undefined;
}

/** How every skip reason of a missing store starts: support/skip-summary.ts gathers them into one line. */
export const NEEDS = 'needs ';

/**
 * false when this machine has everything the suite needs; else the reason it skips (one line: what
 * is missing and where to read how to start it), or under CI=true an error.
 */
export function skipWithout(...needs: Need[]): string | false {
  const reasons = needs.map(missing).filter((reason) => reason !== undefined);
  if (reasons.length === 0) return false;
  if (process.env.CI === 'true')
    throw new Error(`This suite needs ${reasons.join(' and ')}. CI=true: suites may not be skipped.`);
  return `${NEEDS}${reasons.join(' and ')}; README, "Tests", says how to start it`;
}
