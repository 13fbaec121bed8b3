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

export interface InnertubeAccessOptions {
  innertube: InnertubeClient | undefined;
  breaker: CircuitBreaker | undefined;
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
  /** Whether InnerTube may be asked now: configured, and its breaker closed. */
  usable(): boolean;
  /** Counts an InnerTube failure against the breaker (true), or says `error` is none (false). */
  failed(error: unknown): boolean;
  /** A call that went through: the breaker closes. */
  succeeded(): void;
  /** What the caller is answered when InnerTube, with nothing to stand in for it, failed with `error`. */
  unavailable(error: unknown): AppError;
  /** The channel id at `ref`; null: YouTube says there is none; `failed`: InnerTube could not be used (why). */
  resolve(ref: ChannelRef): Promise<string | null | { failed: unknown }>;
  /** A video's publish date and details, cached for good and throttled per hour. */
  video(id: string): Promise<InnertubeVideo | undefined>;
}

/** InnerTube could not be used (breaker open) where nothing else can stand in. */
class InnertubeDown extends Error {
  readonly kind = 'unavailable';
}

export function createInnertubeAccess(options: InnertubeAccessOptions): InnertubeAccess {
  const { innertube, breaker } = options;
  const throttle = { windowStart: 0, calls: 0 };
  const access: InnertubeAccess = {
    client: innertube,
    usable: () => !!innertube && (!breaker || breaker.allows()),
    failed(error) {
      const kind = innertubeFailureKind(error);
      if (!kind) return false;
      breaker?.failure();
      options.onInnertubeFailure?.(kind, error);
      return true;
    },
    succeeded: () => breaker?.success(),
    unavailable: unavailableError,
    async resolve(ref) {
      if (!access.usable()) return { failed: new InnertubeDown() };
      try {
        const id = await resolveAddress(innertube!, ref);
        breaker?.success();
        return id ?? null;
      } catch (error) {
        if (access.failed(error)) return { failed: error };
        throw error;
      }
    },
    video: (id) => playerVideo(options, throttle, id),
  };
  return access;
}

function unavailableError(error: unknown): AppError {
  const kind = innertubeFailureKind(error);
  // A timeout is the platform's 504, as on the Data API path, not a 503 "rate limited".
  if (kind === 'timeout')
    return new AppError('UPSTREAM_TIMEOUT', `The video platform's web API (keyless mode) did not answer in time.`, {
      cause: error,
    });
  const why =
    kind === 'bot-check'
      ? 'it asks the service to prove it is not a bot'
      : kind === 'rate-limited'
        ? 'it is rate limiting the service'
        : kind === 'parse'
          ? 'its pages changed in a way the service cannot read'
          : 'it could not be reached';
  return new AppError(
    kind === 'parse' ? 'UPSTREAM_ERROR' : 'UPSTREAM_RATE_LIMITED',
    `The video platform's web API (keyless mode) is unavailable: ${why}.`,
    kind === 'parse' ? { cause: error } : { headers: { 'retry-after': '60' }, cause: error },
  );
}

/** Keyless date lookups: cached for good (publish dates never change) and throttled per hour. */
async function playerVideo(
  options: InnertubeAccessOptions,
  throttle: { windowStart: number; calls: number },
  id: string,
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
  const video = await options.innertube!.video(id);
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
