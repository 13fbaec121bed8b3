// What the fake platform answers, request by request: the admin routes, the WebSub hub and feeds,
// InnerTube under /youtubei/v1/, and the Data API for every other path. server.ts owns the server
// and the FakePlatform handle; both work on one FakeState.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ENDPOINTS, handle, QUOTA_COST, type Endpoint } from './endpoints.ts';
import * as errors from './errors.ts';
import {
  answeredError,
  botCheck,
  consentRedirect,
  forbidden,
  handleInnertube,
  hasClientContext,
  INNERTUBE_ENDPOINTS,
  type InnertubeEndpoint,
  type InnertubeResult,
  invalidArgument,
  rateLimited,
  requestsShortsItems,
} from './innertube.ts';
import { parseVideoId } from './ids.ts';
import type { ChannelRegistry } from './registry.ts';
import { type CountsInput, parseCounts } from './statistics.ts';
import type { FakeHub } from './websub-hub.ts';
import type { Fault, FakeCall, InnertubeCall, InnertubeFault } from './types.ts';
import { IMAGE_PATH, imageRoute, rewriteImageHosts } from './placeholder-images.ts';

export interface FakeState {
  /** Each key stands for its own Google project: quota is counted per key. */
  projects: Map<string, { daily: number; used: number }>;
  latencyMs: number;
  log: FakeCall[];
  faults: Array<Fault & { remaining: number; waiting: number }>;
  innertubeLog: InnertubeCall[];
  innertubeFaults: Array<InnertubeFault & { remaining: number; waiting: number }>;
  registry: ChannelRegistry;
  hub: FakeHub;
  /** http://<host>:<port>, known once the server listens. */
  origin: string;
  /** Requests counted on arrival. */
  received: number;
  /** Aborted by close(): held answers go at once, and errors of requests cut short are not reported. */
  closing: AbortController;
  /** Image URLs point at the fake's own placeholders (placeholder-images.ts). */
  localImages: boolean;
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

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Every request: answered by its route, and a 500 in Google's shape if answering it threw. */
export function handleRequest(state: FakeState, req: IncomingMessage, res: ServerResponse): void {
  respond(state, req, res).catch((error: unknown) => {
    if (state.closing.signal.aborted) return;
    if (!res.headersSent) {
      res.writeHead(500, HEADERS);
      res.end(serialize(errors.backendError(500).body, true));
    }
    console.error('fake platform: unexpected error', error);
  });
}

type Route = (
  state: FakeState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  match: RegExpExecArray,
) => Promise<void> | void;

/** The paths matched in this order (on the path alone); every other path is a Data API call. */
const ROUTES: Array<{ path: RegExp; route: Route }> = [
  { path: /^\/__admin\/channels\/([^/]+)\/shorts\/?$/, route: publishRoute },
  { path: /^\/__admin\/channels\/([^/]+)\/shorts\/([^/]+?)\/statistics\/?$/, route: statisticsRoute },
  { path: /^\/__admin\/channels\/([^/]+)\/shorts\/([^/]+?)(\/restore)?\/?$/, route: shortVisibilityRoute },
  { path: /^\/subscribe$/, route: async (state, req, res) => state.hub.handleSubscribe(req, res, await readBody(req)) },
  {
    path: /^\/feeds\/videos\.xml$/,
    route: (state, _req, res, url) => state.hub.feed(res, url.searchParams.get('channel_id')),
  },
  { path: /^\/youtubei\/v1\/(.+?)\/?$/, route: innertubeRoute },
];

async function respond(state: FakeState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  state.received++;
  if (state.latencyMs > 0) holdAnswer(state, res, state.latencyMs);
  const url = new URL(req.url ?? '/', 'http://fake.invalid');
  if (state.localImages) {
    const image = IMAGE_PATH.exec(url.pathname);
    if (image) return imageRoute(req, res, image);
    rewriteImageHosts(res, () => state.origin);
  }
  for (const { path, route } of ROUTES) {
    const match = path.exec(url.pathname);
    if (match) return route(state, req, res, url, match);
  }
  return dataApiRoute(state, req, res, url);
}

/**
 * The answer leaves `latencyMs` after the request arrived, the fake's own work included, as a
 * platform's latency includes its processing: built first and then held, not held and then built.
 * Building a page of 50 videos takes the fake 2-3 ms on its one event loop; added on top of the
 * latency, it put a client that does nothing but the calls at 1.12-1.15× the cold path's
 * sequential bound.
 */
function holdAnswer(state: FakeState, res: ServerResponse, latency: number): void {
  const { closing } = state;
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

// ---------------------------------------------------------------------------------------------
// Admin: publish, take down and restore shorts

export async function publishShort(state: FakeState, handle: string) {
  const published = state.registry.publish(handle, new Date());
  if (!published) throw new RangeError(`no channel @${handle}`);
  state.hub.notify(published.channel);
  return { videoId: published.videoId, channelId: published.channel.id, publishedAt: published.publishedAt };
}

export function setShortVisible<V extends boolean>(state: FakeState, handle: string, videoId: string, visible: V) {
  const result = state.registry.setShortVisible(handle, videoId, visible);
  if (!result) throw new RangeError(`no channel @${handle}`);
  return { videoId: result.videoId, channelId: result.channel.id, visible };
}

export function setShortStatistics(state: FakeState, handle: string, videoId: string, counts: CountsInput) {
  const result = state.registry.setShortStatistics(handle, videoId, counts);
  if (!result) throw new RangeError(`no channel @${handle}`);
  const index = result.channel.indexOfOrdinal(parseVideoId(videoId)!.ordinal);
  const statistics = index === undefined ? undefined : result.channel.video(index).statistics;
  return { videoId, channelId: result.channel.id, statistics: statistics ?? null };
}

function adminJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** POST /__admin/channels/:handle/shorts */
async function publishRoute(
  state: FakeState,
  req: IncomingMessage,
  res: ServerResponse,
  _url: URL,
  match: RegExpExecArray,
) {
  await readBody(req);
  if (req.method !== 'POST') return adminJson(res, 405, { error: 'POST publishes a new short' });
  try {
    adminJson(res, 201, await publishShort(state, decodeURIComponent(match[1]!)));
  } catch (error) {
    adminJson(res, 404, { error: (error as Error).message });
  }
}

/** DELETE /__admin/channels/:handle/shorts/:videoId, POST …/:videoId/restore */
async function shortVisibilityRoute(
  state: FakeState,
  req: IncomingMessage,
  res: ServerResponse,
  _url: URL,
  match: RegExpExecArray,
) {
  await readBody(req);
  const restore = match[3] !== undefined;
  if (req.method !== (restore ? 'POST' : 'DELETE'))
    return adminJson(res, 405, { error: restore ? 'POST restores a short taken down' : 'DELETE takes a short down' });
  try {
    const handle = decodeURIComponent(match[1]!);
    const videoId = decodeURIComponent(match[2]!);
    adminJson(res, 200, setShortVisible(state, handle, videoId, restore));
  } catch (error) {
    adminJson(res, 404, { error: (error as Error).message });
  }
}

/** POST /__admin/channels/:handle/shorts/:videoId/statistics {viewCount?, likeCount?, commentCount?} */
async function statisticsRoute(
  state: FakeState,
  req: IncomingMessage,
  res: ServerResponse,
  _url: URL,
  match: RegExpExecArray,
) {
  const text = await readBody(req);
  if (req.method !== 'POST') return adminJson(res, 405, { error: "POST sets a short's counts" });
  let counts: CountsInput;
  try {
    counts = parseCounts(text ? JSON.parse(text) : undefined);
  } catch (error) {
    return adminJson(res, 400, { error: (error as Error).message });
  }
  try {
    adminJson(
      res,
      200,
      setShortStatistics(state, decodeURIComponent(match[1]!), decodeURIComponent(match[2]!), counts),
    );
  } catch (error) {
    adminJson(res, 404, { error: (error as Error).message });
  }
}

// ---------------------------------------------------------------------------------------------
// InnerTube

/**
 * A bot check only hits the player, and a layout change only pages that hold Shorts items, so a
 * fault injected for them waits for such a request however many others come first.
 */
function takeInnertubeFault(state: FakeState, endpoint: InnertubeEndpoint, body: Record<string, unknown>) {
  const fault = state.innertubeFaults.find(
    (f) =>
      f.remaining > 0 &&
      (f.endpoint === undefined || f.endpoint === '*' || f.endpoint === endpoint) &&
      (f.kind !== 'botCheck' || endpoint === 'player') &&
      (f.kind !== 'layoutChanged' || (endpoint === 'browse' && requestsShortsItems(body))),
  );
  return taken(fault);
}

/** The fault, counted, when it applies to this request; undefined while it still lets requests through. */
function taken<F extends { remaining: number; waiting: number }>(fault: F | undefined): F | undefined {
  if (!fault) return undefined;
  if (fault.waiting > 0) {
    fault.waiting--;
    return undefined;
  }
  fault.remaining--;
  return fault;
}

/** A JSON object body; anything else (not JSON, an array, a scalar) is not parsed. An empty body is {}. */
function parseObject(text: string): { body: Record<string, unknown>; parsed: boolean } {
  try {
    const value: unknown = text ? JSON.parse(text) : {};
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return { body: value as Record<string, unknown>, parsed: true };
    return { body: {}, parsed: false };
  } catch {
    return { body: {}, parsed: false };
  }
}

/** What a fault answers in place of the call, for the faults that replace the answer with an error. */
function innertubeFaultAnswer(fault: InnertubeFault, body: Record<string, unknown>): InnertubeResult | undefined {
  if (fault.kind === 'rateLimited') return rateLimited();
  if (fault.kind === 'botCheck') return botCheck(body);
  if (fault.kind === 'forbidden') return forbidden();
  if (fault.kind !== 'backendError') return undefined;
  return answeredError(fault.status ?? 503);
}

async function innertubeRoute(
  state: FakeState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  match: RegExpExecArray,
) {
  const name = match[1]!;
  const pretty = url.searchParams.get('prettyPrint') !== 'false';
  const { body, parsed } = parseObject(await readBody(req));
  const request: Record<string, string> = {};
  for (const key of ['url', 'browseId', 'params', 'continuation', 'videoId'])
    if (typeof body[key] === 'string') request[key] = body[key] as string;
  const record = (status: number) => state.innertubeLog.push({ endpoint: name, request, status });
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
  const fault = takeInnertubeFault(state, endpoint, body);
  if (fault?.kind === 'hang') return void record(0);
  if (fault?.kind === 'reset') {
    record(0);
    return void req.socket.resetAndDestroy();
  }
  if (fault?.kind === 'consentRedirect') {
    const redirect = consentRedirect(`${url.pathname}${url.search}`);
    record(redirect.status);
    res.writeHead(redirect.status, redirect.headers);
    return void res.end(redirect.body);
  }
  const failure = fault && innertubeFaultAnswer(fault, body);
  if (failure) return send(failure.status, failure.body);
  const result = handleInnertube(endpoint, state.registry, body, { malformedItems: fault?.kind === 'layoutChanged' });
  if (fault?.kind === 'malformed') {
    record(200);
    res.writeHead(200, HEADERS);
    return void res.end(serialize(result.body, false).slice(0, 120));
  }
  send(result.status, result.body);
}

// ---------------------------------------------------------------------------------------------
// Data API

function takeFault(state: FakeState, endpoint: Endpoint) {
  const fault = state.faults.find(
    (f) => f.remaining > 0 && (f.endpoint === undefined || f.endpoint === '*' || f.endpoint === endpoint),
  );
  return taken(fault);
}

async function dataApiRoute(state: FakeState, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const params = url.searchParams;
  const pretty = params.get('prettyPrint') !== 'false';
  const name = /^\/youtube\/v3\/([^/]+)\/?$/.exec(url.pathname)?.[1] ?? url.pathname;
  const endpoint = ENDPOINTS.find((e) => e === name);
  const record = (status: number, units: number) =>
    state.log.push({ endpoint: name, params: Object.fromEntries(params), units, status });
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
  const fault = takeFault(state, endpoint);
  const project = typeof key === 'string' ? state.projects.get(key) : undefined;
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
  const result = handle(endpoint, state.registry, params);
  record(result.status, cost);
  send(result.status, result.body);
}
