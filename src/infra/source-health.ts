// Each upstream source's recent health, per process: the share of its recent calls that succeeded,
// its last error's class and time, and its breakers' states. Fed by the clients (every call,
// whoever makes it: requests, watch checks, the keyless fallback), read by /readyz, /metrics and
// the operator API. In memory: each instance reports what it met itself.
import type { CircuitBreaker } from './circuit-breaker.ts';

export type SourceName = 'data-api' | 'innertube';

export interface SourceHealthView {
  source: SourceName;
  /** Calls within the window (at most the last `maxSamples`). */
  recentCalls: number;
  /** Share of those that succeeded, 0–1; null without calls in the window. */
  successRate: number | null;
  /** The last failure (at any time since start): its class (bot-check, http-error, timeout…), status and time. */
  lastError: { class: string; status: number | null; at: string } | null;
  /** Whether a breaker of this source pauses calls now. */
  breakerOpen: boolean;
  /** Each breaker by the call kind it guards (InnerTube: resolve_url, browse). */
  breakers: Record<string, 'closed' | 'open' | 'half-open'>;
}

export interface SourceHealth {
  record(source: SourceName, outcome: { ok: true } | { ok: false; class: string; status?: number }): void;
  /** A breaker whose state the source's health shows, under the call kind it guards. */
  watchBreaker(source: SourceName, call: string, breaker: CircuitBreaker): void;
  /** The sources that were configured (`sources`), in that order. */
  view(): SourceHealthView[];
}

interface Track {
  samples: Array<{ at: number; ok: boolean }>;
  lastError: SourceHealthView['lastError'];
  breakers: Map<string, CircuitBreaker>;
}

export function createSourceHealth(options: {
  sources: SourceName[];
  now: () => number;
  /** What "recent" means (default 15 minutes). */
  windowMs?: number;
  maxSamples?: number;
}): SourceHealth {
  const windowMs = options.windowMs ?? 15 * 60_000;
  const maxSamples = options.maxSamples ?? 200;
  const tracks = new Map<SourceName, Track>(
    options.sources.map((s) => [s, { samples: [], lastError: null, breakers: new Map() }]),
  );
  return {
    record(source, outcome) {
      const track = tracks.get(source);
      if (!track) return;
      const at = options.now();
      track.samples.push({ at, ok: outcome.ok });
      if (track.samples.length > maxSamples) track.samples.shift();
      if (!outcome.ok)
        track.lastError = { class: outcome.class, status: outcome.status ?? null, at: new Date(at).toISOString() };
    },
    watchBreaker(source, call, breaker) {
      tracks.get(source)?.breakers.set(call, breaker);
    },
    view() {
      const since = options.now() - windowMs;
      return [...tracks].map(([source, track]) => {
        const recent = track.samples.filter((s) => s.at >= since);
        const breakers = Object.fromEntries([...track.breakers].map(([call, b]) => [call, b.state]));
        return {
          source,
          recentCalls: recent.length,
          successRate: recent.length ? recent.filter((s) => s.ok).length / recent.length : null,
          lastError: track.lastError,
          breakerOpen: Object.values(breakers).some((state) => state === 'open'),
          breakers,
        };
      });
    },
  };
}
