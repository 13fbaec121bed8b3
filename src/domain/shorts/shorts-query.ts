// What a caller asks the shorts service for, and what it gets back: the types shared by the
// service (shorts-service.ts), its wrappers (sorting.ts) and its callers (requests/shorts-requests.ts).
// They live apart from the service so a wrapper can name them without importing the service.
import type { Short } from '../../contract/shorts.ts';
import type { MeteredWork } from '../quota/metered-work.ts';
import type { ChannelRef } from './channel-url.ts';
import type { ShortsResult } from './shorts-result.ts';

/** The orders a window can be sorted in (sorting.ts applies them). */
export const SORTS = ['newest', 'oldest', 'popular'] as const;
export type ShortsSort = (typeof SORTS)[number];

export interface ShortsQuery {
  ref: ChannelRef;
  oldestDate?: number;
  limit?: number;
  /**
   * The most shorts the request may read: what its maxCredits pays for. Sorting and filtering read
   * at most this many of the newest (withArrangement); the service itself sees it as a `limit`
   * with `capped` set.
   */
  cap?: number;
  /**
   * `limit` is a cap the caller's credits set, not the number of shorts asked for: shorts left out
   * make the result `truncated`, and its results are cached apart from a caller's `limit`.
   */
  capped?: boolean;
  /**
   * When every Data API key is spent: "stale-ok" (default) takes an earlier exact copy, else current
   * keyless data (approximate fields listed); "exact" takes an earlier exact copy, else 503.
   */
  freshness?: Freshness;
  // Sort and duration filters: handled by withArrangement (sorting.ts), which reads the whole
  // window through the service without them; the service itself never sees them.
  sort?: ShortsSort;
  minDurationSeconds?: number;
  maxDurationSeconds?: number;
}

export type Freshness = 'stale-ok' | 'exact';

/** Where listings and details come from (YOUTUBE_SOURCE, with auto already decided; sources/). */
export type SourceMode = 'data-api' | 'hybrid' | 'innertube';

export interface FetchOutcome {
  result: ShortsResult;
  /** Served from the stale copy because no key had quota left. */
  stale: boolean;
  /** The upstream work this request did and pays for (absent: cache or another request's fetch). */
  work?: MeteredWork;
  /**
   * Shorts the price is computed on when more were read than returned (sort and duration filters
   * read the whole window). Default: the result's shorts.
   */
  itemsPriced?: number;
}

export interface FetchHooks {
  /** Opens this request's metered work; runs only when this request is the one going upstream. */
  openMeter(): Promise<MeteredWork>;
  /**
   * Shorts of the result being read, as their details arrive (the Data API paths), while later
   * pages travel: the result holds these same objects, unchanged, unless the window or the balance
   * leaves them out. Only for the request going upstream.
   */
  onShorts?(shorts: Short[]): void;
}

export interface ShortsService {
  fetch(query: ShortsQuery, hooks: FetchHooks): Promise<FetchOutcome>;
}
