// Thin YouTube Data API v3 client: one method per endpoint we use, quota units counted per call,
// Google's error bodies mapped onto our error catalog. Idempotent GETs are retried once on 5xx
// or a dropped connection.
import { Agent, request, errors as undiciErrors } from 'undici';
import { AppError } from '../../errors.ts';
import type { YtChannel, YtListResponse, YtPlaylistItem, YtSearchResult, YtVideo } from './youtube-types.ts';

export const QUOTA_COST = { channels: 1, playlistItems: 1, videos: 1, search: 100 } as const;
export type Endpoint = keyof typeof QUOTA_COST;

export interface UpstreamCall {
  endpoint: Endpoint;
  units: number;
  status: number;
  durationMs: number;
}

export interface YoutubeClientOptions {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  onCall?: (call: UpstreamCall) => void;
}

/** Thrown for a 404 playlistNotFound: the caller decides what an absent playlist means. */
export class PlaylistNotFound extends Error {}

export interface YoutubeClient {
  channels(params: Record<string, string>): Promise<YtListResponse<YtChannel>>;
  playlistItems(playlistId: string, pageToken?: string): Promise<YtListResponse<YtPlaylistItem>>;
  videos(ids: string[]): Promise<YtListResponse<YtVideo>>;
  searchChannels(query: string): Promise<YtListResponse<YtSearchResult>>;
  close(): Promise<void>;
}

export const CHANNEL_PARTS = 'snippet,statistics,brandingSettings';

export function createYoutubeClient(options: YoutubeClientOptions): YoutubeClient {
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 64, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs });
  const base = options.baseUrl.replace(/\/+$/, '');

  async function call<T>(endpoint: Endpoint, params: Record<string, string>): Promise<T> {
    const url = `${base}/${endpoint}?${new URLSearchParams({ ...params, key: options.apiKey })}`;
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      let status = 0;
      try {
        const response = await request(url, { dispatcher: agent, signal: AbortSignal.timeout(options.timeoutMs), headers: { accept: 'application/json' } });
        status = response.statusCode;
        const text = await response.body.text();
        options.onCall?.({ endpoint, units: QUOTA_COST[endpoint], status, durationMs: performance.now() - started });
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          if (attempt === 1 && status >= 500) continue;
          throw new AppError('UPSTREAM_ERROR', `The video platform sent an unreadable ${endpoint} response (HTTP ${status}).`);
        }
        if (status >= 200 && status < 300) return body as T;
        const failure = googleError(body);
        if (status >= 500 && attempt === 1) continue;
        throw mapGoogleError(endpoint, status, failure);
      } catch (error) {
        if (error instanceof AppError || error instanceof PlaylistNotFound) throw error;
        if (status === 0) options.onCall?.({ endpoint, units: QUOTA_COST[endpoint], status: 0, durationMs: performance.now() - started });
        if (isTimeout(error)) throw new AppError('UPSTREAM_TIMEOUT', `The video platform did not answer ${endpoint} within ${options.timeoutMs} ms.`);
        if (attempt === 1) continue;
        throw new AppError('UPSTREAM_ERROR', `Could not reach the video platform (${(error as Error).message}).`, { cause: error });
      }
    }
  }

  return {
    channels: (params) => call('channels', { part: CHANNEL_PARTS, ...params }),
    playlistItems: (playlistId, pageToken) =>
      call('playlistItems', { part: 'contentDetails', playlistId, maxResults: '50', ...(pageToken ? { pageToken } : {}) }),
    videos: (ids) => call('videos', { part: 'snippet,statistics', id: ids.join(','), maxResults: '50' }),
    searchChannels: (query) => call('search', { part: 'snippet', type: 'channel', q: query, maxResults: '10' }),
    close: () => agent.close(),
  };
}

interface GoogleFailure {
  message: string;
  reasons: string[];
}

function googleError(body: unknown): GoogleFailure {
  const error = (body as { error?: { message?: unknown; errors?: Array<{ reason?: unknown }> } } | null)?.error;
  return {
    message: typeof error?.message === 'string' ? error.message : 'unknown error',
    reasons: (error?.errors ?? []).map((e) => String(e.reason ?? '')),
  };
}

function mapGoogleError(endpoint: Endpoint, status: number, failure: GoogleFailure): Error {
  const has = (...reasons: string[]) => failure.reasons.some((r) => reasons.includes(r));
  if (status === 404 && has('playlistNotFound')) return new PlaylistNotFound(failure.message);
  if (has('quotaExceeded', 'dailyLimitExceeded', 'rateLimitExceeded', 'userRateLimitExceeded')) {
    return new AppError('UPSTREAM_QUOTA_EXHAUSTED');
  }
  if (has('keyInvalid', 'keyExpired', 'accessNotConfigured', 'forbidden') || /API key/i.test(failure.message)) {
    return new AppError('UPSTREAM_ERROR', 'The service is not authorised by the video platform (API key rejected); the operator has been told.');
  }
  if (status === 404) return new AppError('CHANNEL_NOT_FOUND');
  return new AppError('UPSTREAM_ERROR', `The video platform answered ${endpoint} with HTTP ${status}: ${failure.message}`);
}

function isTimeout(error: unknown): boolean {
  const e = error as { name?: string; code?: string } | null;
  return (
    e?.name === 'TimeoutError' ||
    e?.name === 'AbortError' ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    e?.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e?.code === 'UND_ERR_BODY_TIMEOUT'
  );
}
