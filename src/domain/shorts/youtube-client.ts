// Thin YouTube Data API v3 client: one method per endpoint we use, quota units counted per call,
// Google's error bodies mapped onto our error catalog. Idempotent GETs are retried once on 5xx
// or a dropped connection. Every call takes its units from the key pool first; a key that answers
// quotaExceeded or is rejected is marked in the pool and the call moves on to the next key.
import { Agent, request, errors as undiciErrors } from 'undici';
import { AppError } from '../../errors.ts';
import type { KeyPool } from '../quota/key-pool.ts';
import type { YtChannel, YtListResponse, YtPlaylistItem, YtSearchResult, YtVideo } from './youtube-types.ts';

export const QUOTA_COST = { channels: 1, playlistItems: 1, videos: 1, search: 100 } as const;
export type Endpoint = keyof typeof QUOTA_COST;

export interface UpstreamCall {
  endpoint: Endpoint;
  units: number;
  status: number;
  durationMs: number;
  /** Label of the key used ("<index>:<hash>"). */
  key: string;
}

/**
 * Asked before every upstream attempt, with the units it will cost: the request's quota meter
 * (src/domain/quota/quota-meter.ts) throws when neither its credits nor its allowance cover them.
 */
export type Spend = (units: number) => Promise<void>;

export interface YoutubeClientOptions {
  keys: KeyPool;
  baseUrl: string;
  timeoutMs: number;
  onCall?: (call: UpstreamCall) => void;
}

/** Thrown for a 404 playlistNotFound: the caller decides what an absent playlist means. */
export class PlaylistNotFound extends Error {}

/** The Data API calls of one request, each paid through that request's meter. */
export interface YoutubeCalls {
  channels(params: Record<string, string>): Promise<YtListResponse<YtChannel>>;
  playlistItems(playlistId: string, pageToken?: string): Promise<YtListResponse<YtPlaylistItem>>;
  videos(ids: string[]): Promise<YtListResponse<YtVideo>>;
  searchChannels(query: string): Promise<YtListResponse<YtSearchResult>>;
}

export interface YoutubeClient {
  /** The calls of one request: `spend` is asked before each attempt. */
  metered(spend: Spend): YoutubeCalls;
  close(): Promise<void>;
}

export const CHANNEL_PARTS = 'snippet,statistics,brandingSettings';
/** contentDetails (the duration) costs nothing extra: videos.list is 1 unit whatever the parts. */
export const VIDEO_PARTS = 'snippet,statistics,contentDetails';

export function createYoutubeClient(options: YoutubeClientOptions): YoutubeClient {
  const agent = new Agent({
    keepAliveTimeout: 30_000,
    connections: 64,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  const base = options.baseUrl.replace(/\/+$/, '');

  async function call<T>(endpoint: Endpoint, params: Record<string, string>, spend: Spend): Promise<T> {
    const units = QUOTA_COST[endpoint];
    let transientRetries = 1;
    // Each key can fail at most once per call (quota, rejection); then the pool has no key left.
    for (let attempt = 1; attempt <= options.keys.size + 2; attempt++) {
      // The key first: when no key has quota left, the request's allowance is not touched. A call the
      // request cannot pay for gives the key its units back (refused calls were
      // counted against the key, so an account refused for free could spend a key's whole day).
      const lease = await options.keys.take(units);
      try {
        await spend(units);
      } catch (error) {
        options.keys.unspent(lease, units);
        throw error;
      }
      const label = `${lease.index}:${lease.keyId}`;
      // prettyPrint=false: Google indents its JSON unless told not to, a third of the bytes of a
      // videos.list page, for the platform to write and for us to read on every page's critical path.
      const url = `${base}/${endpoint}?${new URLSearchParams({ ...params, prettyPrint: 'false', key: lease.key })}`;
      const started = performance.now();
      let status = 0;
      try {
        const response = await request(url, {
          dispatcher: agent,
          signal: AbortSignal.timeout(options.timeoutMs),
          headers: { accept: 'application/json' },
        });
        status = response.statusCode;
        const text = await response.body.text();
        options.onCall?.({ endpoint, units, status, durationMs: performance.now() - started, key: label });
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          if (transientRetries-- > 0 && status >= 500) continue;
          throw new AppError(
            'UPSTREAM_ERROR',
            `The video platform sent an unreadable ${endpoint} response (HTTP ${status}).`,
          );
        }
        if (status >= 200 && status < 300) return body as T;
        const failure = googleError(body);
        const keyTrouble = classifyKeyTrouble(failure);
        if (keyTrouble === 'exhausted') {
          await options.keys.markExhausted(lease);
          continue;
        }
        if (keyTrouble === 'invalid') {
          await options.keys.markInvalid(lease, `${failure.reasons.join(',') || status}: ${failure.message}`);
          continue;
        }
        if (status >= 500 && transientRetries-- > 0) continue;
        throw mapGoogleError(endpoint, status, failure);
      } catch (error) {
        if (error instanceof AppError || error instanceof PlaylistNotFound) throw error;
        if (status === 0)
          options.onCall?.({ endpoint, units, status: 0, durationMs: performance.now() - started, key: label });
        if (isTimeout(error))
          throw new AppError(
            'UPSTREAM_TIMEOUT',
            `The video platform did not answer ${endpoint} within ${options.timeoutMs} ms.`,
          );
        if (transientRetries-- > 0) continue;
        throw new AppError('UPSTREAM_ERROR', `Could not reach the video platform (${(error as Error).message}).`, {
          cause: error,
        });
      }
    }
    // Every key failed this call in turn: take() has no key left to give and says why.
    await options.keys.take(units);
    throw new AppError('UPSTREAM_ERROR', "The video platform kept refusing the service's keys.");
  }

  return {
    metered: (spend) => ({
      channels: (params) => call('channels', { part: CHANNEL_PARTS, ...params }, spend),
      playlistItems: (playlistId, pageToken) =>
        call(
          'playlistItems',
          { part: 'contentDetails', playlistId, maxResults: '50', ...(pageToken ? { pageToken } : {}) },
          spend,
        ),
      videos: (ids) => call('videos', { part: VIDEO_PARTS, id: ids.join(','), maxResults: '50' }, spend),
      searchChannels: (query) =>
        call('search', { part: 'snippet', type: 'channel', q: query, maxResults: '10' }, spend),
    }),
    close: () => agent.close(),
  };
}

/** A channel every key can read: the re-check's one cheap call (channels.list, part=id: 1 unit). */
const RECHECK_CHANNEL = 'UC_x5XG1OV2P6uZZ5FSM9Ttw';

/**
 * Whether the platform takes `key` again: one channels.list call. true: it answers (or answers that the
 * key's quota is spent: the key itself is valid); false: it still refuses the key; undefined: no answer.
 */
export async function checkKey(
  options: { baseUrl: string; timeoutMs: number },
  key: string,
): Promise<boolean | undefined> {
  const base = options.baseUrl.replace(/\/+$/, '');
  const url = `${base}/channels?${new URLSearchParams({ part: 'id', id: RECHECK_CHANNEL, prettyPrint: 'false', key })}`;
  try {
    const response = await request(url, { signal: AbortSignal.timeout(options.timeoutMs) });
    const text = await response.body.text();
    if (response.statusCode >= 200 && response.statusCode < 300) return true;
    const trouble = classifyKeyTrouble(googleError(JSON.parse(text)));
    return trouble === 'invalid' ? false : trouble === 'exhausted' ? true : undefined;
  } catch {
    return undefined;
  }
}

interface GoogleFailure {
  message: string;
  reasons: string[];
}

function googleError(body: unknown): GoogleFailure {
  const error = (
    body as {
      error?: { message?: unknown; errors?: Array<{ reason?: unknown }>; details?: Array<{ reason?: unknown }> };
    } | null
  )?.error;
  return {
    message: typeof error?.message === 'string' ? error.message : 'unknown error',
    // YouTube's own reasons (errors[]) and, from Google's API front end, the ErrorInfo's (details[]):
    // a key's restrictions answer 403 "forbidden" with the real cause only there.
    reasons: [...(error?.errors ?? []), ...(Array.isArray(error?.details) ? error.details : [])]
      .map((e) => String(e?.reason ?? ''))
      .filter((r) => r !== ''),
  };
}

/**
 * Google's front end refuses the key itself: not valid, expired, restricted to other referrers,
 * addresses, apps or APIs (API_KEY_HTTP_REFERRER_BLOCKED, API_KEY_SERVICE_BLOCKED, …), or the
 * project has the API disabled or is suspended. Such a key gives way to the next one: read as
 * "forbidden", it would fail every call.
 */
const KEY_REFUSED = /^(API_KEY_|SERVICE_DISABLED$|CONSUMER_SUSPENDED$|CONSUMER_INVALID$)/;

/** Trouble that belongs to the key rather than the call: the pool moves on to the next key. */
function classifyKeyTrouble(failure: GoogleFailure): 'exhausted' | 'invalid' | undefined {
  const has = (...reasons: string[]) => failure.reasons.some((r) => reasons.includes(r));
  if (has('quotaExceeded', 'dailyLimitExceeded')) return 'exhausted';
  if (
    has('keyInvalid', 'keyExpired', 'accessNotConfigured', 'ipRefererBlocked') ||
    failure.reasons.some((r) => KEY_REFUSED.test(r)) ||
    /API key/i.test(failure.message)
  )
    return 'invalid';
  return undefined;
}

function mapGoogleError(endpoint: Endpoint, status: number, failure: GoogleFailure): Error {
  const has = (...reasons: string[]) => failure.reasons.some((r) => reasons.includes(r));
  if (status === 404 && has('playlistNotFound')) return new PlaylistNotFound(failure.message);
  // Per-second/minute limits of the project: transient, not the day's quota.
  if (has('rateLimitExceeded', 'userRateLimitExceeded')) {
    return new AppError('UPSTREAM_RATE_LIMITED', undefined, { headers: { 'retry-after': '10' } });
  }
  // A closed, suspended or unknown channel is the caller's "no such channel", not a platform failure.
  if (has('channelNotFound', 'channelClosed', 'channelSuspended')) {
    const why = has('channelClosed')
      ? ' (the channel has been closed)'
      : has('channelSuspended')
        ? ' (the channel has been suspended)'
        : '';
    return new AppError('CHANNEL_NOT_FOUND', `No channel exists at that address${why}.`);
  }
  if (has('forbidden')) {
    return new AppError('UPSTREAM_ERROR', 'The video platform refused the service access to this resource.');
  }
  if (status === 404) return new AppError('CHANNEL_NOT_FOUND');
  return new AppError(
    'UPSTREAM_ERROR',
    `The video platform answered ${endpoint} with HTTP ${status}: ${failure.message}`,
  );
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
