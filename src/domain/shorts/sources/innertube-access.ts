// The service's use of InnerTube (YouTube's keyless web API), shared by the sources that read it:
// whether it may be used now (its circuit breaker), what its failures mean to the caller, the
// 0-unit address resolver, and the throttled publish-date lookups of keyless windows.
import type { CircuitBreaker } from '../../../infra/circuit-breaker.ts';
import type { Cache } from '../../../infra/cache/cache.ts';
import { AppError } from '../../../errors.ts';
import type { ChannelRef } from '../channel-url.ts';
import {
  innertubeFailureKind,
  type InnertubeClient,
  type InnertubeFailureKind,
  type InnertubeVideo,
} from '../innertube-source.ts';

/** The kinds of InnerTube call, each with a breaker of its own: one kind failing pauses only itself. */
export type InnertubeCall = 'resolve_url' | 'browse' | 'player';
export const INNERTUBE_CALLS: readonly InnertubeCall[] = ['resolve_url', 'browse', 'player'];

export interface InnertubeAccessOptions {
  innertube: InnertubeClient | undefined;
  /**
   * A breaker per call kind: a success of one kind must not close another's ('resolves, but every
   * browse fails' would otherwise never open anything).
   */
  breakers: Record<InnertubeCall, CircuitBreaker> | undefined;
  /** Where publish dates are kept for good (they never change): the stale cache. */
  dates: Cache;
  /** Player calls allowed per hour for keyless dates (YouTube bot-checks beyond about 300). */
  playerCallsPerHour: number;
  now: () => number;
  onInnertubeFailure?: ((kind: InnertubeFailureKind, error: unknown) => void) | undefined;
}

export interface InnertubeAccess {
  /** The client; present when the service was given one (hybrid, innertube, and the keyless fallback). */
  readonly client: InnertubeClient | undefined;
  /** Whether InnerTube may be asked for `call` now: configured, and that call's breaker closed. */
  usable(call: InnertubeCall): boolean;
  /** Throws the caller's 503 when `call`'s breaker pauses it (nothing can stand in for InnerTube there). */
  assertUsable(call: InnertubeCall): void;
  /**
   * Counts an InnerTube failure against the breaker of the call that failed (the error's endpoint,
   * else `call`) (true), or says `error` is none (false).
   */
  failed(error: unknown, call?: InnertubeCall): boolean;
  /** A `call` that went through: its breaker closes. */
  succeeded(call: InnertubeCall): void;
  /** What the caller is answered when InnerTube, with nothing to stand in for it, failed with `error`. */
  unavailable(error: unknown): AppError;
  /** The channel id at `ref`; null: YouTube says there is none; `failed`: InnerTube could not be used (why). */
  resolve(ref: ChannelRef): Promise<string | null | { failed: unknown }>;
  /** A video's publish date and details, cached for good and throttled per hour. */
  video(id: string): Promise<InnertubeVideo | undefined>;
}

/** InnerTube could not be used (its breaker is open) where nothing else can stand in. */
class InnertubeDown extends Error {
  readonly kind = 'unavailable';
  readonly retryInMs: number;
  readonly call: InnertubeCall;
  constructor(call: InnertubeCall, retryInMs: number) {
    super(`its ${call} calls are paused after repeated failures`);
    this.call = call;
    this.retryInMs = retryInMs;
  }

  /** 503 with the pause's end as Retry-After: the breaker lets a trial call through then. */
  asAppError(): AppError {
    const seconds = Math.max(1, Math.ceil(this.retryInMs / 1000));
    return new AppError(
      'UPSTREAM_UNAVAILABLE',
      `${WEB_API} is unavailable: the service paused its ${this.call} calls after repeated failures, for ` +
        `${seconds} s more.`,
      { headers: { 'retry-after': String(seconds) }, cause: this },
    );
  }
}

/** The call kind an error belongs to: the endpoint that failed, when it says. */
function callOf(error: unknown, fallback: InnertubeCall): InnertubeCall {
  const endpoint = (error as { endpoint?: unknown } | null)?.endpoint;
  return INNERTUBE_CALLS.find((c) => c === endpoint) ?? fallback;
}

export function createInnertubeAccess(options: InnertubeAccessOptions): InnertubeAccess {
  const { innertube, breakers } = options;
  const throttle = { windowStart: 0, calls: 0 };
  const down = (call: InnertubeCall) => new InnertubeDown(call, breakers?.[call].retryInMs() ?? 0);
  const access: InnertubeAccess = {
    client: innertube,
    usable: (call) => !!innertube && (!breakers || breakers[call].allows()),
    assertUsable(call) {
      if (!access.usable(call)) throw unavailableError(down(call));
    },
    failed(error, call = 'browse') {
      const kind = innertubeFailureKind(error);
      if (!kind) return false;
      if (!(error instanceof InnertubeDown)) breakers?.[callOf(error, call)].failure();
      options.onInnertubeFailure?.(kind, error);
      return true;
    },
    succeeded: (call) => breakers?.[call].success(),
    unavailable: unavailableError,
    async resolve(ref) {
      if (!access.usable('resolve_url')) return { failed: down('resolve_url') };
      try {
        const id = await resolveAddress(innertube!, ref);
        access.succeeded('resolve_url');
        return id ?? null;
      } catch (error) {
        if (access.failed(error, 'resolve_url')) return { failed: error };
        throw error;
      }
    },
    // Its failures are counted where they end the read (the source's `failed`), not twice.
    video: (id) => playerVideo(options, throttle, id, access),
  };
  return access;
}

const WEB_API = "The video platform's web API (keyless mode)";

/** What helps against a block: said to whoever meets one, so it reaches the operator. */
const WHAT_HELPS =
  'What helps: a YouTube Data API key (YOUTUBE_API_KEY; the hybrid source then falls back to the Data API by ' +
  "itself), or an outbound proxy for YouTube's web API (INNERTUBE_PROXY_URL) on an address YouTube does not block.";

/**
 * InnerTube's failure as the caller's error: an answered error is 502 and names the answer; only a
 * rate limit or a block promises a retry (503 with Retry-After); no answer in time is 504; no answer
 * at all is 503 without a promise (nothing says when the network comes back).
 */
export function unavailableError(error: unknown): AppError {
  const kind = innertubeFailureKind(error);
  // The failure's own sentence, without its full stop: it is quoted inside this one.
  const detail = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
  const cause = { cause: error };
  switch (kind) {
    case 'timeout':
      return new AppError('UPSTREAM_TIMEOUT', `${WEB_API} did not answer in time.`, cause);
    case 'rate-limited':
      return new AppError('UPSTREAM_RATE_LIMITED', `${WEB_API} is rate limiting the service (${detail}).`, {
        headers: { 'retry-after': '60' },
        ...cause,
      });
    case 'bot-check':
    case 'consent':
      return new AppError(
        'UPSTREAM_BLOCKED',
        `${WEB_API} blocks the service: ${
          kind === 'consent'
            ? 'it answers with its cookie-consent page'
            : 'it asks the service to prove it is not a bot'
        } (${detail}). ${WHAT_HELPS}`,
        { headers: { 'retry-after': '300' }, ...cause },
      );
    case 'parse':
      return new AppError('UPSTREAM_ERROR', `${WEB_API} answered pages the service cannot read: ${detail}.`, cause);
    case 'http-error':
      return new AppError('UPSTREAM_ERROR', `${WEB_API} answered with an error: ${detail}.`, cause);
    default:
      if (error instanceof InnertubeDown) return error.asAppError();
      return new AppError('UPSTREAM_UNAVAILABLE', `${WEB_API} could not be reached: ${detail}.`, cause);
  }
}

/** Keyless date lookups: cached for good (publish dates never change) and throttled per hour. */
async function playerVideo(
  options: InnertubeAccessOptions,
  throttle: { windowStart: number; calls: number },
  id: string,
  access: Pick<InnertubeAccess, 'assertUsable' | 'succeeded'>,
): Promise<InnertubeVideo | undefined> {
  const key = `yt:player:${id}`;
  const known = await options.dates.get<InnertubeVideo>(key);
  if (known) return known;
  const now = options.now();
  if (now - throttle.windowStart >= 3600_000) {
    throttle.windowStart = now;
    throttle.calls = 0;
  }
  if (++throttle.calls > options.playerCallsPerHour) {
    throw new AppError(
      'UPSTREAM_RATE_LIMITED',
      `Keyless publish-date lookups are limited to ${options.playerCallsPerHour} an hour (YouTube bot-checks ` +
        'beyond that); oldestDate windows in keyless mode resume within the hour.',
      { headers: { 'retry-after': String(Math.ceil((throttle.windowStart + 3600_000 - now) / 1000)) } },
    );
  }
  access.assertUsable('player');
  const video = await options.innertube!.video(id);
  access.succeeded('player');
  if (video) await options.dates.set(key, video, 30 * 86_400_000);
  return video;
}

/**
 * The addresses InnerTube's resolver is asked for a channel reference, in order: the address as
 * given, then, for a custom name, its other readings. YouTube knows some legacy names only in the
 * form they were made in: youtube.com/thedailyshow resolves where /c/thedailyshow answers 404.
 */
function channelAddresses(ref: ChannelRef): string[] {
  const value = encodeURIComponent(ref.value);
  switch (ref.type) {
    case 'id':
      return [`https://www.youtube.com/channel/${value}`];
    case 'handle':
      return [`https://www.youtube.com/@${value}`];
    case 'username':
      return [`https://www.youtube.com/user/${value}`];
    case 'custom': {
      const readings = [`https://www.youtube.com/c/${value}`, `https://www.youtube.com/user/${value}`];
      return ref.bare ? [`https://www.youtube.com/${value}`, ...readings] : readings;
    }
  }
}

/** The channel id at `ref`: each of its addresses in turn (channelAddresses) until YouTube knows one. */
export async function resolveAddress(client: InnertubeClient, ref: ChannelRef): Promise<string | undefined> {
  for (const address of channelAddresses(ref)) {
    const id = await client.resolve(address);
    if (id) return id;
  }
  return undefined;
}
