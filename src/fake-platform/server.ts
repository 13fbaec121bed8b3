// A fake of the YouTube Data API v3 subset the service uses (channels, playlistItems, videos and
// search list calls), speaking Google's protocol: the same JSON shapes, page tokens, error bodies,
// API-key checks and per-method quota costs. Tests, benchmarks and `npm run demo` point the service
// at it (YOUTUBE_API_BASE_URL = baseUrl); latency and faults can be injected while it runs.
// The same server speaks InnerTube under /youtubei/v1/ (innertube.ts) for the same channels: point
// youtubei.js at innertubeBaseUrl. InnerTube calls are logged apart and cost no Data API quota.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ChannelSpec } from './channel-generator.ts';
import { ENDPOINTS, handle, QUOTA_COST, type Endpoint } from './endpoints.ts';
import * as errors from './errors.ts';
import {
  botCheck,
  handleInnertube,
  requestsShortsItems,
  hasClientContext,
  INNERTUBE_ENDPOINTS,
  invalidArgument,
  rateLimited,
  type InnertubeEndpoint,
} from './innertube.ts';
import { ChannelRegistry, DEMO_CHANNELS } from './registry.ts';
import { createFakeHub, type FakeHub } from './websub-hub.ts';

export type { ChannelSpec } from './channel-generator.ts';
export type { Endpoint } from './endpoints.ts';
export type { InnertubeEndpoint } from './innertube.ts';

export type FaultKind =
  | 'quotaExceeded'
  | 'keyInvalid'
  | 'keyRestricted'
  | 'backendError'
  | 'hang'
  | 'reset'
  | 'malformed';
/**
 * InnerTube faults: 'botCheck' (player answers LOGIN_REQUIRED "Sign in to confirm you’re not a bot";
 * other endpoints are unaffected), 'rateLimited' (HTTP 429), 'malformed' (a truncated JSON body),
 * 'layoutChanged' (valid JSON whose Shorts items have a shape youtubei.js does not know),
 * 'backendError' (503 or 500), 'hang' and 'reset'.
 */
export type InnertubeFaultKind =
  | 'botCheck'
  | 'rateLimited'
  | 'malformed'
  | 'layoutChanged'
  | 'backendError'
  | 'hang'
  | 'reset';

export interface Fault {
  endpoint?: Endpoint | '*';
  kind: FaultKind;
  /** How many matching requests it affects: default 1; Infinity for all until cleared. */
  times?: number;
  /** For backendError: 503 "service unavailable" (default) or 500 "Backend Error". */
  status?: 500 | 503;
}

export interface InnertubeFault {
  protocol: 'innertube';
  endpoint?: InnertubeEndpoint | '*';
  kind: InnertubeFaultKind;
  /** How many matching requests it affects: default 1; Infinity for all until cleared. */
  times?: number;
  /** For backendError: 503 (default) or 500. */
  status?: 500 | 503;
}

export interface FakePlatformOptions {
  apiKey?: string;
  /** Several keys, each its own Google project with its own daily quota (key → units); replaces apiKey. */
  apiKeys?: Record<string, number>;
  /** Added before every response, in milliseconds. */
  latencyMs?: number;
  dailyQuota?: number;
  channels?: ChannelSpec[];
  /** Unknown handles fake-<N> resolve to generated channels with N shorts (default true). */
  autoGenerate?: boolean;
  port?: number;
  host?: string;
}

export interface FakeCall {
  /** channels, playlistItems, videos, search, or the unknown method's name. */
  endpoint: string;
  params: Record<string, string>;
  units: number;
  /** HTTP status sent; 0 when no response was sent (hang, reset). */
  status: number;
}

export interface InnertubeCall {
  /** resolve_url, browse, player, config, or the unknown path's name. */
  endpoint: string;
  /** What the request asked for: url, browseId, params, continuation or videoId. */
  request: Record<string, string>;
  /** HTTP status sent; 0 when no response was sent (hang, reset). */
  status: number;
}

export interface FakePlatform {
  /** http://127.0.0.1:<port>/youtube/v3 */
  baseUrl: string;
  /** http://127.0.0.1:<port>: stands for https://www.youtube.com (requests go to /youtubei/v1/…). */
  innertubeBaseUrl: string;
  addChannel(spec: ChannelSpec): { id: string; handle: string };
  /** Units spent today, by all keys or by one. */
  quotaUsed(key?: string): number;
  /** Data API calls only. */
  calls(): FakeCall[];
  /** Requests received so far, counted on arrival (calls() logs each when its answer is built, which with latency is before the answer leaves). */
  received(): number;
  innertubeCalls(): InnertubeCall[];
  /** Clears quota counters and both call logs. */
  resetStats(): void;
  setLatency(ms: number): void;
  injectFault(fault: Fault | InnertubeFault): void;
  clearFaults(): void;
  /**
   * Publishes a new short on a channel now (as POST /__admin/channels/:handle/shorts does): it is
   * the newest in the Shorts playlist and tab, and the fake WebSub hub notifies the channel's
   * subscribers. Throws for an unknown handle.
   */
  publishShort(handle: string): Promise<{ videoId: string; channelId: string; publishedAt: string }>;
  /**
   * Takes a short down, as when it is made private or removed (DELETE
   * /__admin/channels/:handle/shorts/:videoId): it leaves the Shorts playlist and tab, videos.list
   * returns no item for it, the player calls it unavailable, and the channel's counts drop by one.
   * Idempotent. Throws for an unknown handle or a video id that is not one of the channel's shorts.
   */
  takeDownShort(handle: string, videoId: string): Promise<{ videoId: string; channelId: string; visible: false }>;
  /**
   * Puts a short taken down back (POST /__admin/channels/:handle/shorts/:videoId/restore), at its old
   * place with its old publication time; no WebSub notification. Idempotent; throws as takeDownShort.
   */
  restoreShort(handle: string, videoId: string): Promise<{ videoId: string; channelId: string; visible: true }>;
  /** The fake WebSub hub (hubUrl = <origin>/subscribe; topics <origin>/feeds/videos.xml?channel_id=…). */
  hub: FakeHub;
  close(): Promise<void>;
}

const HEADERS = {
  'content-type': 'application/json; charset=UTF-8',
  vary: 'Origin, X-Origin, Referer',
  server: 'scaffolding on HTTPServer2',
  'x-xss-protection': '0',
  'x-frame-options': 'SAMEORIGIN',
  'x-content-type-options': 'nosniff',
};

/** Google pretty-prints unless prettyPrint=false, and escapes <, > and & inside strings. */
function serialize(body: unknown, pretty: boolean): string {
  return JSON.stringify(body, null, pretty ? 2 : undefined).replace(
    /[<>&]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export async function startFakePlatform(options: FakePlatformOptions = {}): Promise<FakePlatform> {
  // Each key stands for its own Google project: quota is counted per key.
  const projects = new Map(
    Object.entries(options.apiKeys ?? { [options.apiKey ?? 'fake-api-key']: options.dailyQuota ?? 10_000 }).map(
      ([key, daily]) => [key, { daily, used: 0 }],
    ),
  );
  let latencyMs = options.latencyMs ?? 0;
  let log: FakeCall[] = [];
  let faults: Array<Fault & { remaining: number }> = [];
  let innertubeLog: InnertubeCall[] = [];
  let innertubeFaults: Array<InnertubeFault & { remaining: number }> = [];
  const registry = new ChannelRegistry(options.autoGenerate ?? true);
  for (const spec of [...DEMO_CHANNELS, ...(options.channels ?? [])]) registry.add(spec);
  const sockets = new Set<Socket>();
  const closing = new AbortController();

  const takeFault = (endpoint: Endpoint) => {
    const fault = faults.find(
      (f) => f.remaining > 0 && (f.endpoint === undefined || f.endpoint === '*' || f.endpoint === endpoint),
    );
    if (fault) fault.remaining--;
    return fault;
  };

  // A bot check only hits the player, and a layout change only pages that hold Shorts items, so a
  // fault injected for them waits for such a request however many others come first.
  const takeInnertubeFault = (endpoint: InnertubeEndpoint, body: Record<string, unknown>) => {
    const fault = innertubeFaults.find(
      (f) =>
        f.remaining > 0 &&
        (f.endpoint === undefined || f.endpoint === '*' || f.endpoint === endpoint) &&
        (f.kind !== 'botCheck' || endpoint === 'player') &&
        (f.kind !== 'layoutChanged' || (endpoint === 'browse' && requestsShortsItems(body))),
    );
    if (fault) fault.remaining--;
    return fault;
  };

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  async function respondInnertube(req: IncomingMessage, res: ServerResponse, url: URL, name: string): Promise<void> {
    const pretty = url.searchParams.get('prettyPrint') !== 'false';
    const text = await readBody(req);
    let body: Record<string, unknown> = {};
    let parsed = true;
    try {
      const value: unknown = text ? JSON.parse(text) : {};
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) body = value as Record<string, unknown>;
      else parsed = false;
    } catch {
      parsed = false;
    }
    const request: Record<string, string> = {};
    for (const key of ['url', 'browseId', 'params', 'continuation', 'videoId'])
      if (typeof body[key] === 'string') request[key] = body[key] as string;
    const record = (status: number) => innertubeLog.push({ endpoint: name, request, status });
    const send = (status: number, payload: unknown) => {
      record(status);
      res.writeHead(status, HEADERS);
      res.end(serialize(payload, pretty));
    };
    const endpoint = INNERTUBE_ENDPOINTS[name];
    if (!endpoint) return send(404, { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } });
    if (req.method !== 'POST')
      return send(405, { error: { code: 405, message: 'Method Not Allowed', status: 'METHOD_NOT_ALLOWED' } });
    // config is answered whatever its body; every other call needs the client context.
    if (!parsed || (endpoint !== 'config' && !hasClientContext(body))) return send(400, invalidArgument().body);
    const fault = takeInnertubeFault(endpoint, body);
    if (fault?.kind === 'hang') return void record(0);
    if (fault?.kind === 'reset') {
      record(0);
      return void req.socket.resetAndDestroy();
    }
    if (fault?.kind === 'rateLimited') return send(429, rateLimited().body);
    if (fault?.kind === 'backendError') {
      const status = fault.status ?? 503;
      return send(status, {
        error: {
          code: status,
          message: status === 503 ? 'The service is currently unavailable.' : 'Internal error encountered.',
          status: status === 503 ? 'UNAVAILABLE' : 'INTERNAL',
        },
      });
    }
    if (fault?.kind === 'botCheck') {
      const check = botCheck(body);
      return send(check.status, check.body);
    }
    const result = handleInnertube(endpoint, registry, body, { malformedItems: fault?.kind === 'layoutChanged' });
    if (fault?.kind === 'malformed') {
      record(200);
      res.writeHead(200, HEADERS);
      return void res.end(serialize(result.body, false).slice(0, 120));
    }
    send(result.status, result.body);
  }

  let origin = '';
  const hub = createFakeHub(registry, () => origin);

  async function publishShort(handle: string) {
    const published = registry.publish(handle, new Date());
    if (!published) throw new RangeError(`no channel @${handle}`);
    hub.notify(published.channel);
    return { videoId: published.videoId, channelId: published.channel.id, publishedAt: published.publishedAt };
  }

  function setShortVisible<V extends boolean>(handle: string, videoId: string, visible: V) {
    const result = registry.setShortVisible(handle, videoId, visible);
    if (!result) throw new RangeError(`no channel @${handle}`);
    return { videoId: result.videoId, channelId: result.channel.id, visible };
  }
  async function takeDownShort(handle: string, videoId: string) {
    return setShortVisible(handle, videoId, false);
  }
  async function restoreShort(handle: string, videoId: string) {
    return setShortVisible(handle, videoId, true);
  }

  async function respondAdmin(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const publish = /^\/__admin\/channels\/([^/]+)\/shorts\/?$/.exec(url.pathname);
    const short = /^\/__admin\/channels\/([^/]+)\/shorts\/([^/]+?)(\/restore)?\/?$/.exec(url.pathname);
    if (!publish && !short) return false;
    await readBody(req);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    if (!publish) {
      if (!short) return false;
      const restore = short[3] !== undefined;
      if (req.method !== (restore ? 'POST' : 'DELETE')) {
        json(405, { error: restore ? 'POST restores a short taken down' : 'DELETE takes a short down' });
        return true;
      }
      try {
        const handle = decodeURIComponent(short[1]!);
        const videoId = decodeURIComponent(short[2]!);
        json(200, restore ? await restoreShort(handle, videoId) : await takeDownShort(handle, videoId));
      } catch (error) {
        json(404, { error: (error as Error).message });
      }
      return true;
    }
    if (req.method !== 'POST') {
      json(405, { error: 'POST publishes a new short' });
      return true;
    }
    try {
      json(201, await publishShort(decodeURIComponent(publish[1]!)));
    } catch (error) {
      json(404, { error: (error as Error).message });
    }
    return true;
  }

  /**
   * The answer leaves `latencyMs` after the request arrived, the fake's own work included, as a
   * platform's latency includes its processing: built first and then held, not held and then built.
   * Building a page of 50 videos takes the fake 2-3 ms on its one event loop; added on top, it put a
   * client that does nothing but the calls at 1.12-1.15× the cold path's sequential bound (#13).
   */
  function holdAnswer(res: ServerResponse, latency: number): void {
    const due = performance.now() + latency;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((...args: unknown[]) => {
      const wait = due - performance.now();
      if (wait <= 0 || closing.signal.aborted) return end(...args);
      const timer = setTimeout(() => end(...args), wait);
      // close() ends every connection; a held answer must not keep a timer alive after it.
      closing.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
      return res;
    }) as typeof res.end;
  }

  let received = 0;
  async function respond(req: IncomingMessage, res: ServerResponse): Promise<void> {
    received++;
    if (latencyMs > 0) holdAnswer(res, latencyMs);
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    if (url.pathname.startsWith('/__admin/') && (await respondAdmin(req, res, url))) return;
    if (url.pathname === '/subscribe') return hub.handleSubscribe(req, res, await readBody(req));
    if (url.pathname === '/feeds/videos.xml') return hub.feed(res, url.searchParams.get('channel_id'));
    const innertube = /^\/youtubei\/v1\/(.+?)\/?$/.exec(url.pathname);
    if (innertube) return respondInnertube(req, res, url, innertube[1]!);
    const params = url.searchParams;
    const pretty = params.get('prettyPrint') !== 'false';
    const name = /^\/youtube\/v3\/([^/]+)\/?$/.exec(url.pathname)?.[1] ?? url.pathname;
    const endpoint = ENDPOINTS.find((e) => e === name);
    const record = (status: number, units: number) =>
      log.push({ endpoint: name, params: Object.fromEntries(params), units, status });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, HEADERS);
      res.end(serialize(body, pretty));
    };
    const fail = (error: errors.GoogleError, units = 0) => {
      record(error.status, units);
      send(error.status, error.body);
    };

    if (!endpoint || (req.method !== 'GET' && req.method !== 'HEAD')) return fail(errors.methodNotFound(url.pathname));
    // Google takes the key from the query string or the X-Goog-Api-Key header.
    const key = params.get('key') ?? req.headers['x-goog-api-key'];
    if (!key) return fail(errors.keyMissing());
    const fault = takeFault(endpoint);
    const project = typeof key === 'string' ? projects.get(key) : undefined;
    if (!project || fault?.kind === 'keyInvalid') return fail(errors.keyInvalid());
    if (fault?.kind === 'keyRestricted') return fail(errors.keyRestricted());
    if (fault?.kind === 'hang') return void record(0, 0); // the socket is ended by close()
    if (fault?.kind === 'reset') {
      record(0, 0);
      return void req.socket.resetAndDestroy();
    }
    const cost = QUOTA_COST[endpoint];
    if (fault?.kind === 'quotaExceeded' || project.used + cost > project.daily) return fail(errors.quotaExceeded());
    // Google charges every call that reaches YouTube, including ones it answers with an error.
    project.used += cost;
    if (fault?.kind === 'backendError') return fail(errors.backendError(fault.status ?? 503), cost);
    if (fault?.kind === 'malformed') {
      record(200, cost);
      res.writeHead(200, HEADERS);
      return void res.end('{\n  "kind": "youtube#' + endpoint.replace(/s$/, '') + 'ListResponse",\n  "etag": "');
    }
    const result = handle(endpoint, registry, params);
    record(result.status, cost);
    send(result.status, result.body);
  }

  const server = createServer((req, res) => {
    respond(req, res).catch((error: unknown) => {
      if (closing.signal.aborted) return;
      if (!res.headersSent) {
        res.writeHead(500, HEADERS);
        res.end(serialize(errors.backendError(500).body, true));
      }
      console.error('fake platform: unexpected error', error);
    });
  });
  // Idle keep-alive connections stay open well past the client's own idle timeout, as Google's do,
  // so clients never race a server-side close; close() ends them.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : '127.0.0.1';
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closed: Promise<void> | undefined;

  return {
    baseUrl: `${origin}/youtube/v3`,
    innertubeBaseUrl: origin,
    addChannel(spec) {
      const channel = registry.add(spec);
      return { id: channel.id, handle: channel.handle };
    },
    quotaUsed: (key) =>
      key === undefined ? [...projects.values()].reduce((sum, p) => sum + p.used, 0) : (projects.get(key)?.used ?? 0),
    calls: () => log.map((call) => ({ ...call, params: { ...call.params } })),
    received: () => received,
    innertubeCalls: () => innertubeLog.map((call) => ({ ...call, request: { ...call.request } })),
    resetStats() {
      for (const project of projects.values()) project.used = 0;
      log = [];
      innertubeLog = [];
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    injectFault(fault) {
      if ('protocol' in fault && fault.protocol === 'innertube')
        innertubeFaults.push({ ...fault, remaining: fault.times ?? 1 });
      else faults.push({ ...(fault as Fault), remaining: fault.times ?? 1 });
    },
    clearFaults() {
      faults = [];
      innertubeFaults = [];
    },
    publishShort,
    takeDownShort,
    restoreShort,
    hub,
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        // Hanging requests and idle keep-alive connections would otherwise hold the server open.
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}
