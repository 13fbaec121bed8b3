// A fake of the YouTube Data API v3 subset the service uses (channels, playlistItems, videos and
// search list calls), speaking Google's protocol: the same JSON shapes, page tokens, error bodies,
// API-key checks and per-method quota costs. Tests, benchmarks and `npm run demo` point the service
// at it (YOUTUBE_API_BASE_URL = baseUrl); latency and faults can be injected while it runs.
// The same server speaks InnerTube under /youtubei/v1/ (innertube.ts) for the same channels: point
// youtubei.js at innertubeBaseUrl. InnerTube calls are logged apart and cost no Data API quota.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ChannelSpec, VideoResource } from './channel-generator.ts';
import { ChannelRegistry, DEMO_CHANNELS } from './registry.ts';
import { type FakeState, handleRequest, publishShort, setShortStatistics, setShortVisible } from './routes.ts';
import { type CountsInput, parseCounts, ShortStatistics } from './statistics.ts';
import { createFakeHub, type FakeHub } from './websub-hub.ts';

export type { ChannelSpec } from './channel-generator.ts';
export type { Endpoint } from './endpoints.ts';
export type { InnertubeEndpoint } from './innertube.ts';
export type { Fault, FaultKind, FakeCall, InnertubeCall, InnertubeFault, InnertubeFaultKind } from './types.ts';
import type { Fault, FakeCall, InnertubeCall, InnertubeFault } from './types.ts';

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
  /** Thumbnails, avatars and banners served by the fake itself (placeholder SVGs), for an offline demo. */
  localImages?: boolean;
  /**
   * Views grow with the fake's clock (statistics.ts: a seeded rate per short, a few taking off);
   * off by default so counts stay fixed for tests that compare them. `now` defaults to Date.now.
   */
  growth?: boolean | { now: () => number };
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
  /**
   * Requests received so far, counted on arrival (calls() logs each when its answer is built, which with latency is
   * before the answer leaves).
   */
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
  /**
   * Sets a short's counts (POST /__admin/channels/:handle/shorts/:videoId/statistics): decimal
   * strings, as the Data API sends them; every answer shows them from then on (with growth on, it
   * grows from them). A count the short hides (a sparse channel's likes) stays hidden. Throws as
   * takeDownShort, and a TypeError for a count that is not a decimal string.
   */
  setShortStatistics(
    handle: string,
    videoId: string,
    counts: CountsInput,
  ): Promise<{ videoId: string; channelId: string; statistics: VideoStatistics | null }>;
  /** The fake WebSub hub (hubUrl = <origin>/subscribe; topics <origin>/feeds/videos.xml?channel_id=…). */
  hub: FakeHub;
  close(): Promise<void>;
}

type VideoStatistics = VideoResource['statistics'];

function createState(options: FakePlatformOptions): FakeState {
  const growth = options.growth === true ? { now: Date.now } : options.growth || undefined;
  const registry = new ChannelRegistry(options.autoGenerate ?? true, new ShortStatistics(growth));
  for (const spec of [...DEMO_CHANNELS, ...(options.channels ?? [])]) registry.add(spec);
  const state: FakeState = {
    // Each key stands for its own Google project: quota is counted per key.
    projects: new Map(
      Object.entries(options.apiKeys ?? { [options.apiKey ?? 'fake-api-key']: options.dailyQuota ?? 10_000 }).map(
        ([key, daily]) => [key, { daily, used: 0 }],
      ),
    ),
    latencyMs: options.latencyMs ?? 0,
    log: [],
    faults: [],
    innertubeLog: [],
    innertubeFaults: [],
    registry,
    hub: createFakeHub(registry, () => state.origin),
    origin: '',
    localImages: options.localImages ?? false,
    received: 0,
    closing: new AbortController(),
  };
  return state;
}

/** Listens, and answers the origin clients reach it at (127.0.0.1 when it listens on every address). */
async function listen(server: Server, options: FakePlatformOptions): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : '127.0.0.1';
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export async function startFakePlatform(options: FakePlatformOptions = {}): Promise<FakePlatform> {
  const state = createState(options);
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => handleRequest(state, req, res));
  // Idle keep-alive connections stay open well past the client's own idle timeout, as Google's do,
  // so clients never race a server-side close; close() ends them.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  state.origin = await listen(server, options);
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= new Promise<void>((resolve) => {
      state.closing.abort();
      server.close(() => resolve());
      // Hanging requests and idle keep-alive connections would otherwise hold the server open.
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    });
    return closed;
  };
  return platformHandle(state, close);
}

function platformHandle(state: FakeState, close: () => Promise<void>): FakePlatform {
  const { projects, registry } = state;
  return {
    baseUrl: `${state.origin}/youtube/v3`,
    innertubeBaseUrl: state.origin,
    addChannel(spec) {
      const channel = registry.add(spec);
      return { id: channel.id, handle: channel.handle };
    },
    quotaUsed: (key) =>
      key === undefined ? [...projects.values()].reduce((sum, p) => sum + p.used, 0) : (projects.get(key)?.used ?? 0),
    calls: () => state.log.map((call) => ({ ...call, params: { ...call.params } })),
    received: () => state.received,
    innertubeCalls: () => state.innertubeLog.map((call) => ({ ...call, request: { ...call.request } })),
    resetStats() {
      for (const project of projects.values()) project.used = 0;
      state.log = [];
      state.innertubeLog = [];
    },
    setLatency(ms) {
      state.latencyMs = ms;
    },
    injectFault(fault) {
      if ('protocol' in fault && fault.protocol === 'innertube')
        state.innertubeFaults.push({ ...fault, remaining: fault.times ?? 1, waiting: fault.after ?? 0 });
      else state.faults.push({ ...(fault as Fault), remaining: fault.times ?? 1, waiting: fault.after ?? 0 });
    },
    clearFaults() {
      state.faults = [];
      state.innertubeFaults = [];
    },
    publishShort: (handle) => publishShort(state, handle),
    takeDownShort: async (handle, videoId) => setShortVisible(state, handle, videoId, false),
    restoreShort: async (handle, videoId) => setShortVisible(state, handle, videoId, true),
    setShortStatistics: async (handle, videoId, counts) =>
      setShortStatistics(state, handle, videoId, parseCounts(counts)),
    hub: state.hub,
    close,
  };
}
