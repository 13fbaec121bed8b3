// Fixed windows aligned to the clock (minute, hour, UTC day). A request is admitted only when every
// window has room, and only then does it count in all of them: a rejected request consumes nothing.
export interface WindowSpec {
  name: string;
  limit: number;
  seconds: number;
}

export interface WindowState {
  name: string;
  limit: number;
  remaining: number;
  /** Seconds until this window resets. */
  resetSeconds: number;
  seconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  windows: WindowState[];
  /** When rejected: seconds until the blocking window(s) reset. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Check every window and, when all have room, count one hit in each, atomically. */
  consume(bucket: string, windows: WindowSpec[], nowMs?: number): Promise<RateLimitDecision>;
  /** Current state without counting. */
  peek(bucket: string, windows: WindowSpec[], nowMs?: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

export function windowStart(spec: WindowSpec, nowMs: number): number {
  const size = spec.seconds * 1000;
  return Math.floor(nowMs / size) * size;
}

export function decide(windows: WindowSpec[], counts: number[], admitted: boolean, nowMs: number): RateLimitDecision {
  const states = windows.map((spec, i) => {
    const resetMs = windowStart(spec, nowMs) + spec.seconds * 1000 - nowMs;
    return {
      name: spec.name,
      limit: spec.limit,
      seconds: spec.seconds,
      remaining: Math.max(0, spec.limit - (counts[i] ?? 0)),
      resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
    };
  });
  const blocking = states.filter((s, i) => (counts[i] ?? 0) >= s.limit && !admitted);
  return {
    allowed: admitted,
    windows: states,
    retryAfterSeconds: blocking.length ? Math.max(...blocking.map((s) => s.resetSeconds)) : 0,
  };
}
