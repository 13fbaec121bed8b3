// How a fake short's counts move: counts set through the admin route, and an optional growth model
// where views are a function of the fake's clock. Both apply to every answer that shows a count
// (videos.list, the player, the Shorts tab), because they rewrite the one VideoResource those
// answers are built from.
import type { VideoResource } from './channel-generator.ts';
import { mixNumbers, parseVideoId } from './ids.ts';

/** Counts as the Data API sends them: decimal strings. */
export interface CountsInput {
  viewCount?: string;
  likeCount?: string;
  commentCount?: string;
}

/**
 * Views gained per hour since the model started (or since the counts were last set): a rate seeded
 * per short between 1 and 200 an hour, and one short in 16 "taking off" at 50 times that, so a
 * demo shows both the slow majority and a few movers. Likes and comments follow views at the
 * generator's ratios (1/25, 1/900) for what is gained.
 */
export interface GrowthModel {
  /** The fake's clock in milliseconds; Date.now by default. */
  now: () => number;
}

const HOUR_MS = 3_600_000;
const COUNT = /^(0|[1-9]\d{0,17})$/;

export function viewsPerHour(videoId: string): number {
  const parsed = parseVideoId(videoId);
  const seed = parsed ? mixNumbers(parsed.key, parsed.ordinal, 77) : 0;
  const base = 1 + (seed % 200);
  return seed % 16 === 5 ? base * 50 : base;
}

/** A count the admin route accepts: a decimal string of a non-negative integer. */
export function parseCounts(body: unknown): CountsInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new TypeError('expected a JSON object');
  const out: CountsInput = {};
  for (const key of ['viewCount', 'likeCount', 'commentCount'] as const) {
    const value = (body as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !COUNT.test(value))
      throw new TypeError(`${key} must be a decimal string of a non-negative integer, as the Data API sends it`);
    out[key] = value;
  }
  if (Object.keys(out).length === 0) throw new TypeError('give at least one of viewCount, likeCount, commentCount');
  return out;
}

interface SetCounts extends CountsInput {
  /** When they were set, on the model's clock: growth counts from there. */
  at: number;
}

export class ShortStatistics {
  readonly #set = new Map<string, SetCounts>();
  readonly #growth: GrowthModel | undefined;
  readonly #started: number;
  readonly #now: () => number;

  constructor(growth: GrowthModel | undefined, now: () => number = Date.now) {
    this.#growth = growth;
    this.#now = growth?.now ?? now;
    this.#started = this.#now();
  }

  set(videoId: string, counts: CountsInput): void {
    const previous = this.#set.get(videoId);
    this.#set.set(videoId, { ...previous, ...counts, at: this.#now() });
  }

  /** The video with its counts as of now: set counts replace the generated ones, growth adds to them. */
  apply(video: VideoResource): VideoResource {
    const set = this.#set.get(video.id);
    if (!set && !this.#growth) return video;
    const stats = { ...video.statistics };
    if (set?.viewCount !== undefined) stats.viewCount = set.viewCount;
    if (set?.likeCount !== undefined && stats.likeCount !== undefined) stats.likeCount = set.likeCount;
    if (set?.commentCount !== undefined && stats.commentCount !== undefined) stats.commentCount = set.commentCount;
    if (this.#growth) {
      const since = Math.max(set?.at ?? this.#started, Date.parse(video.snippet.publishedAt));
      const gained = Math.floor((viewsPerHour(video.id) * Math.max(0, this.#now() - since)) / HOUR_MS);
      stats.viewCount = String(Number(stats.viewCount) + gained);
      if (stats.likeCount !== undefined) stats.likeCount = String(Number(stats.likeCount) + Math.floor(gained / 25));
      if (stats.commentCount !== undefined)
        stats.commentCount = String(Number(stats.commentCount) + Math.floor(gained / 900));
    }
    return { ...video, statistics: stats };
  }
}
