// What the InnerTube adapter (innertube-client.ts) answers with: the client's interface and plain
// objects of our own, so the domain reads InnerTube without seeing youtubei.js. Counts parsed from
// display text are approximate; a listing has no publish date.
export interface InnertubeThumbnail {
  url: string;
  width?: number;
  height?: number;
}
export interface InnertubeChannel {
  id: string;
  title?: string;
  description?: string;
  /** "@name" */
  handle?: string;
  avatar: InnertubeThumbnail[];
  banner: InnertubeThumbnail[];
  subscriberCountText?: string;
  /** Parsed from display text: approximate. */
  subscriberCount?: number;
  videoCountText?: string;
  videoCount?: number;
  keywords?: string;
  /** Not on the channel page (only in its "about" panel, one more call): absent from the adapter today. */
  country?: string;
}
export interface InnertubeShortItem {
  id: string;
  title?: string;
  viewCountText?: string;
  /** Parsed from display text: approximate. */
  viewCount?: number;
  thumbnails: InnertubeThumbnail[];
}
export interface InnertubeShortsPage {
  items: InnertubeShortItem[];
  hasMore: boolean;
  /**
   * On the first page only: the channel as the same answer describes it (the Shorts tab is a channel
   * page), so keyless listing needs no separate channel() call.
   */
  channel?: InnertubeChannel;
  /**
   * The next page; on the last page, an empty last page. `readAhead`: the caller will want the page
   * after it too, so the client requests that one as soon as this one's answer arrives, before
   * parsing it (InnerTube calls cost no units, but one asked ahead and not used is a call made
   * for nothing, so only callers that know they read on ask for it).
   */
  next(options?: { readAhead?: boolean }): Promise<InnertubeShortsPage>;
}
export interface InnertubeVideo {
  id: string;
  title?: string;
  description?: string;
  /**
   * ISO 8601 from the player microformat's publishDate (uploadDate when absent), in UTC to the
   * second; a date without a time stays a date ("2024-03-15").
   */
  publishedAt?: string;
  /** Exact. */
  viewCount?: string;
  durationSeconds?: number;
  keywords?: string[];
  channelId?: string;
  thumbnails: InnertubeThumbnail[];
}
/**
 * Why a call failed: 'bot-check' (LOGIN_REQUIRED "not a bot", a 403), 'consent' (sent to the
 * cookie-consent page), 'rate-limited' (429), 'http-error' (any other non-2xx answer: 404, 500,
 * 501, 503), 'parse' (an answer of a shape youtubei.js cannot read), 'unavailable' (no answer: the
 * network failed, or the service pauses calls), 'timeout'.
 */
export const INNERTUBE_FAILURE_KINDS = [
  'bot-check',
  'consent',
  'rate-limited',
  'http-error',
  'parse',
  'unavailable',
  'timeout',
] as const;
export type InnertubeFailureKind = (typeof INNERTUBE_FAILURE_KINDS)[number];

/** Failures are thrown as errors carrying `kind` (InnertubeFailureKind). */
export interface InnertubeClient {
  /** Channel id (UC…) for any channel URL form; undefined when YouTube does not know it. */
  resolve(url: string): Promise<string | undefined>;
  /** undefined when the channel does not exist or was terminated. */
  channel(id: string): Promise<InnertubeChannel | undefined>;
  /** First page of the channel's Shorts tab (newest first). */
  shorts(id: string): Promise<InnertubeShortsPage>;
  /** undefined when the video does not exist or is unavailable (private, removed). */
  video(id: string): Promise<InnertubeVideo | undefined>;
  close(): Promise<void>;
}
