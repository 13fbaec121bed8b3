// Sort and duration filters, applied to a window of shorts that has been read in full.
//
// The Shorts playlist lists newest first, so `newest` with a `limit` can stop reading early. The
// other orders, and the duration filters (a short's duration is known only once its details are
// read), need the whole window (up to MAX_SHORTS_PER_REQUEST): the service reads it as an ordinary
// request without `limit` — priced, reserved and cached as such — and this module then filters,
// sorts and cuts it to `limit`. The price follows what was read (docs/quota.md), so the caller of
// `popular` with `limit: 10` pays for the whole window, and a duration filter never lowers a price.
// A cached whole window answers any sort and filter without upstream calls.
import { AppError } from '../../errors.ts';
import { noQuotaError } from '../quota/key-pool.ts';
import { parseTimestamp } from './mapping.ts';
import type { ShortsResult } from './shorts-result.ts';
import type { Short } from '../../contract/shorts.ts';
import type { FetchHooks, FetchOutcome, ShortsQuery, ShortsService, ShortsSort } from './shorts-query.ts';

export { SORTS, type ShortsSort } from './shorts-query.ts';

export interface Arrangement {
  sort?: ShortsSort;
  minDurationSeconds?: number;
  maxDurationSeconds?: number;
}

const time = (s: Short) => parseTimestamp(s.snippet.publishedAt);
/** Exact view counts are decimal strings; a missing one ranks below every count. */
const views = (s: Short) => (s.statistics.viewCount === undefined ? -1n : BigInt(s.statistics.viewCount));

/**
 * Sorts a window of shorts. Shorts without a date (a keyless listing has none: docs/sources.md) come
 * after every dated one and keep the listing's order among themselves — newest first, as the
 * listing reads — reversed for `oldest`; dated shorts of the same instant keep it too. Ties
 * broken by id would put `oldest` over a keyless listing in no order at all.
 */
export function sortShorts(shorts: readonly Short[], sort: ShortsSort): Short[] {
  const position = new Map(shorts.map((s, i) => [s.id, i]));
  const listed = (a: Short, b: Short) => position.get(a.id)! - position.get(b.id)!;
  // Infinity - Infinity is NaN, which || passes over: two undated shorts fall to the listing's order.
  const newest = (a: Short, b: Short) => (time(b) ?? -Infinity) - (time(a) ?? -Infinity) || listed(a, b);
  const oldest = (a: Short, b: Short) => (time(a) ?? Infinity) - (time(b) ?? Infinity) || listed(b, a);
  /** Most viewed first; equal counts newest first. */
  const popular = (a: Short, b: Short) => {
    const va = views(a);
    const vb = views(b);
    return va === vb ? newest(a, b) : vb > va ? 1 : -1;
  };
  return [...shorts].sort(sort === 'oldest' ? oldest : sort === 'popular' ? popular : newest);
}

/**
 * The default order, newest first by publishedAt, for a listing whose shorts all carry a date (Data
 * API, hybrid). The Shorts playlist and tab list a premiere where it was uploaded, below shorts
 * published before it (2 of 80 in one real channel): their order is not the dates'. Equal times
 * keep the listing's order. A listing with undated shorts (keyless) is returned as it is: YouTube's
 * tab order is then the only order there is, and the body says so. Already in order: the same array.
 */
export function newestFirst(shorts: Short[]): Short[] {
  const times = shorts.map(time);
  if (times.some((t) => t === undefined)) return shorts;
  if (times.every((t, i) => i === 0 || t! <= times[i - 1]!)) return shorts;
  return shorts
    .map((short, i) => ({ short, at: times[i]!, i }))
    .sort((a, b) => b.at - a.at || a.i - b.i)
    .map((entry) => entry.short);
}

/**
 * Keeps shorts whose durationSeconds is within the bounds (inclusive); without a known duration a short cannot match a
 * bound.
 */
export function filterByDuration(
  shorts: readonly Short[],
  { minDurationSeconds: min, maxDurationSeconds: max }: Arrangement,
): Short[] {
  if (min === undefined && max === undefined) return [...shorts];
  return shorts.filter(
    (s) =>
      s.durationSeconds !== undefined &&
      (min === undefined || s.durationSeconds >= min) &&
      (max === undefined || s.durationSeconds <= max),
  );
}

/** Whether this query needs the whole window read before it can be answered. */
export function needsWholeWindow(query: ShortsQuery): boolean {
  return (
    (query.sort !== undefined && query.sort !== 'newest') ||
    query.minDurationSeconds !== undefined ||
    query.maxDurationSeconds !== undefined
  );
}

/**
 * Filter, sort, then `limit`, over a whole window. `truncated` stays as read: a ranking of a cut window is over the
 * newest shorts only.
 */
export function arrange(window: ShortsResult, query: ShortsQuery): ShortsResult {
  let shorts = sortShorts(filterByDuration(window.shorts, query), query.sort ?? 'newest');
  if (query.limit !== undefined && shorts.length > query.limit) shorts = shorts.slice(0, query.limit);
  return { ...window, shorts, arrangedFrom: window.shorts.length };
}

/** Duration filters asked of a service that reads YouTube keyless only: refused before any work. */
export function keylessDurations(): AppError {
  return new AppError(
    'VALIDATION_FAILED',
    "minDurationSeconds and maxDurationSeconds need each short's duration, which this service cannot read: it " +
      'reads YouTube without a Data API key (keyless).',
  );
}

/** Checks the bounds; the message says what is accepted. */
export function durationBoundsProblem(min: number | undefined, max: number | undefined): string | undefined {
  for (const [name, value] of [
    ['minDurationSeconds', min],
    ['maxDurationSeconds', max],
  ] as const) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0))
      return `${name} must be a whole number of seconds, 0 or more; got ${value}.`;
  }
  if (min !== undefined && max !== undefined && min > max)
    return (
      `minDurationSeconds (${min}) must not be greater than maxDurationSeconds ` +
      `(${max}); both bounds are inclusive.`
    );
  return undefined;
}

/**
 * The query the service reads: a `cap` (what maxCredits pays for) below the caller's own limit
 * becomes the limit, marked `capped` so shorts it leaves out make the result truncated.
 */
function capped(query: ShortsQuery): ShortsQuery {
  const { cap, ...rest } = query;
  if (cap === undefined || (rest.limit !== undefined && rest.limit <= cap)) return rest;
  return { ...rest, limit: cap, capped: true };
}

/**
 * Wraps the service: a query that needs the whole window is fetched without `limit`, sort or
 * filters (so it is read, priced, reserved, cached and shared like any whole-window request), then
 * arranged. `itemsPriced` is the window's size: the price follows what was read, not what is returned.
 */
export function withArrangement(service: ShortsService, options: { now: () => number }): ShortsService {
  return {
    async fetch(query: ShortsQuery, hooks: FetchHooks): Promise<FetchOutcome> {
      if (!needsWholeWindow(query)) return service.fetch(capped(query), hooks);
      // Durations come from the Data API (contentDetails.duration): a keyless listing has none, and
      // every short would be filtered out of a charged, empty answer. A keyless
      // service refuses the filters before any work (keylessDurations, in the request's checks).
      const filtered = query.minDurationSeconds !== undefined || query.maxDurationSeconds !== undefined;
      const { limit: _limit, sort: _sort, minDurationSeconds: _min, maxDurationSeconds: _max, ...whole } = query;
      const outcome = await service.fetch(capped(whole), hooks);
      if (filtered && outcome.result.source === 'innertube') {
        // Every key spent for the day, and keyless data stood in: it cannot be filtered by duration.
        const error = noQuotaError(options.now());
        throw new AppError(
          'UPSTREAM_QUOTA_EXHAUSTED',
          `${error.message} Duration filters need the Data API; keyless data has no durations.`,
          { headers: error.headers },
        );
      }
      return {
        ...outcome,
        result: arrange(outcome.result, query),
        itemsPriced: outcome.itemsPriced ?? outcome.result.shorts.length,
      };
    },
  };
}
