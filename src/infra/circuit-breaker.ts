// A minimal circuit breaker for an upstream that fails in streaks (InnerTube's bot checks and 429s):
// after `threshold` consecutive failures it opens for `baseMs`, doubling on each failed trial up to
// `maxMs`; while open, callers take their fallback at once instead of adding to the streak. One
// trial call goes through when the pause is over (half-open); a success closes it. A trial whose
// outcome is never reported (its caller gave up, or met an error that is not the upstream's) lapses
// after `trialMs`, and the next caller makes another: the breaker can never stay open for good.
// Hand-written: the maintained libraries (opossum) wrap the call itself with timeouts and events,
// while here the caller decides per call whether to try at all and what counts as a failure.
export interface CircuitBreaker {
  /** Whether a call may go upstream now. */
  allows(): boolean;
  success(): void;
  failure(): void;
  /** How long until a trial call may go through: 0 unless open. */
  retryInMs(): number;
  readonly state: 'closed' | 'open' | 'half-open';
}

export function createCircuitBreaker(options: {
  threshold: number;
  baseMs: number;
  maxMs: number;
  /** How long a trial call may stay unreported before another may go: longer than any call takes. Default baseMs. */
  trialMs?: number;
  now?: () => number;
}): CircuitBreaker {
  const now = options.now ?? Date.now;
  let failures = 0;
  let openUntil = 0;
  let pauseMs = options.baseMs;
  const trialMs = options.trialMs ?? options.baseMs;
  /** When the trial in flight started, if one is. */
  let trialSince: number | undefined;
  return {
    get state() {
      if (failures < options.threshold) return 'closed';
      return now() >= openUntil ? 'half-open' : 'open';
    },
    allows() {
      if (failures < options.threshold) return true;
      const at = now();
      if (at < openUntil || (trialSince !== undefined && at - trialSince < trialMs)) return false;
      trialSince = at;
      return true;
    },
    retryInMs() {
      return failures < options.threshold ? 0 : Math.max(0, openUntil - now());
    },
    success() {
      failures = 0;
      pauseMs = options.baseMs;
      trialSince = undefined;
    },
    failure() {
      const wasTrial = trialSince !== undefined;
      trialSince = undefined;
      failures++;
      if (failures < options.threshold) return;
      if (wasTrial) pauseMs = Math.min(options.maxMs, pauseMs * 2);
      openUntil = now() + pauseMs;
    },
  };
}
