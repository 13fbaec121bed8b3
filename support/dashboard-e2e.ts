// The setup every dashboard browser suite shares, in one place: build web/dist when missing, run
// src/server.ts on a free port over a fresh DATA_DIR with users created beforehand, and open
// headless Chromium with one context and page. Each suite keeps only what is its own (env, users,
// viewport, downloads, extra listeners).
// A lone `node --test test-e2e/x.test.ts` (without npm test's --import) stays off the real YouTube too.
import '../test/offline-upstream.ts';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { CHROMIUM, DESKTOP, SCREENSHOTS } from './browser.ts';
import { startChild } from './child-service.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

function newestSource(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((e) =>
      e.isDirectory() ? newestSource(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs,
    ),
  );
}

/**
 * The server serves the built dashboard; build it when a fresh checkout has none, or (`ifStale`)
 * when web/src changed since the last build.
 */
export async function ensureDashboardBuilt(options: { ifStale?: boolean } = {}): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const index = join(ROOT, 'web', 'dist', 'index.html');
  if (!existsSync(index) || (options.ifStale && statSync(index).mtimeMs < newestSource(join(ROOT, 'web', 'src')))) {
    await run(
      process.execPath,
      [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', 'web', '--logLevel', 'warn'],
      { cwd: ROOT },
    );
  }
}

export interface E2eUser {
  email: string;
  password: string;
  credits?: number;
  role?: string;
}

export interface DashboardService {
  base: string;
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The real server over the embedded store in a temp DATA_DIR (DATABASE_URL/REDIS_URL are dropped so
 * a developer's environment cannot leak in). Users are created with the CLI first: the embedded
 * data dir is locked while a server runs. `unset`: further variables of this process's environment
 * the service and CLI must not see.
 */
export async function startDashboardService(
  options: { env?: Record<string, string>; users?: E2eUser[]; prefix?: string; unset?: string[] } = {},
): Promise<DashboardService> {
  const dropped = ['DATABASE_URL', 'REDIS_URL', ...(options.unset ?? [])];
  const dataDir = await mkdtemp(join(tmpdir(), options.prefix ?? 'channel-shorts-e2e-'));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !dropped.includes(k)) env[k] = v;
  Object.assign(env, { DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  for (const user of options.users ?? []) {
    const args = ['src/cli.ts', 'users', 'create', '--email', user.email, '--password', user.password];
    if (user.credits !== undefined) args.push('--credits', String(user.credits));
    if (user.role !== undefined) args.push('--role', user.role);
    await run(process.execPath, args, { cwd: ROOT, env });
  }
  let child: Awaited<ReturnType<typeof startChild>>;
  try {
    child = await startChild('src/server.ts', { ...env, ...options.env }, { unset: dropped });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    base: child.url,
    dataDir,
    output: child.output,
    async stop() {
      // SIGTERM for a clean shutdown (releases the data dir lock); SIGKILL if it hangs 10 s.
      const timer = setTimeout(() => child.process.kill('SIGKILL'), 10_000);
      await child.kill('SIGTERM');
      clearTimeout(timer);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface E2eBrowser {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  pageErrors: string[];
}

/** Headless Chromium, one context (desktop, en-US, UTC, light unless overridden) and its page. */
export async function openBrowser(context: BrowserContextOptions = {}): Promise<E2eBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const ctx = await browser.newContext({
    viewport: DESKTOP,
    locale: 'en-US',
    timezoneId: 'UTC',
    colorScheme: 'light',
    ...context,
  });
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  return { browser, context: ctx, page, pageErrors };
}
