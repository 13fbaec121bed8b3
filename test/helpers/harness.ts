// One harness per test or suite: it starts the fake platform, wires the app's upstream addresses to
// it, starts the app on a real database, and tears all of it down by itself (t.after for a test,
// the suite's after hook for useHarness). Calls made through h.as(user) are typed by the contract.
// Model: Unkey's IntegrationHarness (pkg/testutil/harness.ts).
import { after, before, type TestContext } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import { type FakePlatform, type FakePlatformOptions, startFakePlatform } from '../../src/fake-platform/server.ts';
import { startReceiver } from '../../support/webhook-receiver.ts';
import { freePort } from '../../support/child-service.ts';
import { createUser, type StorageMode, startTestApp, type TestApp, type TestUser } from './test-app.ts';

export interface HarnessOptions {
  /** Storage: embedded PGlite in memory (default) or a fresh PostgreSQL database dropped afterwards. */
  mode?: StorageMode;
  /**
   * The fake platform: true (the default) or its options starts one owned by the harness; an existing
   * one is shared (and left running); false starts none (upstream stays the unreachable default).
   */
  fake?: boolean | FakePlatformOptions | FakePlatform;
  /** Settings over the wired ones: a test that sets an upstream address itself keeps its own. */
  env?: Record<string, string>;
  runWorker?: boolean;
  now?: () => number;
  onJobs?: () => void;
  /** Listen on a real port: true for any, or PUBLIC_BASE_URL's port when `public` is set. */
  listen?: boolean;
  /** Listen on a port chosen first and set PUBLIC_BASE_URL to it (WebSub callbacks need it at boot). */
  public?: boolean;
}

export interface Response<Body> {
  status: number;
  body: Body;
  headers: OutgoingHttpHeaders;
  /** The raw text, for messages: assert.equal(res.status, 200, res.text). */
  text: string;
}

/** Calls as one credential (an API key, a session token) or none; bodies typed by the caller. */
export interface Client {
  get<Res = unknown>(url: string, headers?: Record<string, string>): Promise<Response<Res>>;
  delete<Res = unknown>(url: string, headers?: Record<string, string>): Promise<Response<Res>>;
  post<Req = unknown, Res = unknown>(url: string, body?: Req, headers?: Record<string, string>): Promise<Response<Res>>;
  put<Req = unknown, Res = unknown>(url: string, body?: Req, headers?: Record<string, string>): Promise<Response<Res>>;
  patch<Req = unknown, Res = unknown>(
    url: string,
    body?: Req,
    headers?: Record<string, string>,
  ): Promise<Response<Res>>;
}

export interface Harness extends TestApp {
  /** The fake platform (throws when the harness was started with fake: false). */
  readonly fake: FakePlatform;
  /** http://127.0.0.1:<port> when listening. */
  readonly url: string;
  /** A client sending `Authorization: Bearer` with the user's API key, or with the given secret. */
  as(credential: TestUser | string): Client;
  /** A client sending no credential. */
  readonly anon: Client;
  /** The raw inject, for what the typed calls do not cover. */
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** A customer with `credits`, a session token and one API key. */
  user(credits?: number): Promise<TestUser>;
  /** A webhook receiver closed with the harness. */
  receiver(...script: Parameters<typeof startReceiver>): ReturnType<typeof startReceiver>;
  /** Another instance of the service on the same database and fake (PostgreSQL only), closed first. */
  peer(options?: Omit<HarnessOptions, 'mode' | 'fake'>): Promise<Harness>;
  /** Another service with its own database and settings on the same fake, closed first. */
  sibling(options?: Omit<HarnessOptions, 'fake'>): Promise<Harness>;
  /** Runs `fn` at teardown, before what the harness started itself (last registered, first run). */
  defer(fn: () => unknown): void;
}

/** Where cleanups go: a test's context (t.after), or anything with the same method. */
interface Cleanups {
  after(fn: () => unknown): void;
}

/** A harness for one test: `const h = await harness(t, {...})`; torn down after the test. */
export async function harness(t: TestContext | Cleanups, options: HarnessOptions = {}): Promise<Harness> {
  const stack: Array<() => unknown> = [];
  t.after(async () => {
    await unwind(stack);
  });
  return start(stack, options);
}

/**
 * A harness for a describe block: started in its before hook, torn down in its after hook. The
 * value returned stands for it from the first test on (using it before then throws).
 */
export function useHarness(options: HarnessOptions | (() => HarnessOptions | Promise<HarnessOptions>) = {}): Harness {
  const stack: Array<() => unknown> = [];
  let started: Harness | undefined;
  before(async () => {
    started = await start(stack, typeof options === 'function' ? await options() : options);
  });
  after(async () => {
    await unwind(stack);
  });
  return new Proxy({} as Harness, {
    get(_, key) {
      // Not a thenable: awaiting the handle (or returning it from an async function) is harmless.
      if (key === 'then') return undefined;
      if (!started) throw new Error(`harness used before its suite started (reading ${String(key)})`);
      return Reflect.get(started, key);
    },
  });
}

async function unwind(stack: Array<() => unknown>): Promise<void> {
  const errors: unknown[] = [];
  while (stack.length > 0) {
    try {
      await stack.pop()!();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, 'harness teardown failed');
}

/**
 * The upstream settings that point a service at the fake: the harness applies them itself (a
 * test's own env wins); tests that spawn the service as a process pass them to its environment.
 */
export function fakeEnv(fake: FakePlatform): Record<string, string> {
  return {
    YOUTUBE_API_BASE_URL: fake.baseUrl,
    YOUTUBE_INNERTUBE_BASE_URL: fake.innertubeBaseUrl,
    WEBSUB_HUB_URL: `${fake.innertubeBaseUrl}/subscribe`,
    WEBSUB_TOPIC_BASE_URL: fake.innertubeBaseUrl,
  };
}

async function start(stack: Array<() => unknown>, options: HarnessOptions): Promise<Harness> {
  const mode = options.mode ?? 'pglite';
  let fake: FakePlatform | undefined;
  const given = options.fake ?? true;
  if (given !== false) {
    if (typeof given === 'object' && 'baseUrl' in given) fake = given;
    else {
      fake = await startFakePlatform(given === true ? {} : given);
      const owned = fake;
      stack.push(() => owned.close());
    }
  }
  const port = options.public ? await freePort() : undefined;
  const env = {
    ...(fake ? fakeEnv(fake) : {}),
    ...(port ? { PUBLIC_BASE_URL: `http://127.0.0.1:${port}` } : {}),
    ...options.env,
  };
  const app = await startTestApp(mode, env, {
    ...(options.runWorker !== undefined ? { runWorker: options.runWorker } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.onJobs ? { onJobs: options.onJobs } : {}),
  });
  // Closed once, whether a test closes it early (a restart, a crash) or the teardown does.
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= app.close());
  stack.push(close);
  let url = '';
  if (options.listen || port) {
    url = await app.app.listen({ port: port ?? 0, host: '127.0.0.1' });
  }
  const client = (headers: Record<string, string>): Client => {
    const send =
      (method: InjectOptions['method']) =>
      async <Res>(path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Response<Res>> => {
        const res = await app.app.inject({
          method,
          url: path,
          headers: { ...headers, ...extra },
          ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}),
        });
        const json = /json/.test(String(res.headers['content-type'] ?? '')) && res.body !== '';
        return {
          status: res.statusCode,
          body: (json ? res.json() : res.body) as Res,
          headers: res.headers,
          text: res.body,
        };
      };
    return {
      get: (path, extra) => send('GET')(path, undefined, extra),
      delete: (path, extra) => send('DELETE')(path, undefined, extra),
      post: (path, body, extra) => send('POST')(path, body, extra),
      put: (path, body, extra) => send('PUT')(path, body, extra),
      patch: (path, body, extra) => send('PATCH')(path, body, extra),
    };
  };
  const h: Harness = {
    ...app,
    close,
    get fake() {
      if (!fake) throw new Error('this harness runs without a fake platform (fake: false)');
      return fake;
    },
    url,
    as: (credential) =>
      client({ authorization: `Bearer ${typeof credential === 'string' ? credential : credential.key}` }),
    anon: client({}),
    inject: (injectOptions) => app.app.inject(injectOptions),
    user: (credits) => createUser(app, credits),
    receiver: async (...script) => {
      const receiver = await startReceiver(...script);
      stack.push(() => receiver.close());
      return receiver;
    },
    peer: async (peerOptions = {}) => {
      if (!app.config.DATABASE_URL) throw new Error('a peer shares a PostgreSQL database; this harness is embedded');
      return start(stack, {
        ...peerOptions,
        mode: 'pglite',
        fake: fake ?? false,
        env: { DATABASE_URL: app.config.DATABASE_URL, ...options.env, ...peerOptions.env },
      });
    },
    sibling: (siblingOptions = {}) => start(stack, { ...siblingOptions, fake: fake ?? false }),
    defer: (fn) => {
      stack.push(fn);
    },
  };
  return h;
}
