// The response resources, named as the Channel and Short tables of docs/spec.md. Rule for absent upstream
// values: a field the platform did not send is omitted (never null, never invented).
import type { Localized } from './youtube-types.ts';

export interface ThumbnailOut {
  url: string;
  width?: number;
  height?: number;
}
export type ThumbnailSet = Partial<Record<'default' | 'medium' | 'high' | 'standard' | 'maxres', ThumbnailOut>>;

export interface Channel {
  kind: string;
  /** Absent when the data comes from InnerTube alone (keyless mode). */
  etag?: string;
  id: string;
  snippet: {
    title?: string; description?: string; customUrl?: string; publishedAt?: string; thumbnails?: ThumbnailSet;
    defaultLanguage?: string; localized?: Localized; country?: string;
  };
  statistics: { viewCount?: string; subscriberCount?: string; hiddenSubscriberCount?: boolean; videoCount?: string };
  brandingSettings: {
    channel: {
      title?: string; description?: string; keywords?: string; trackingAnalyticsAccountId?: string; moderateComments?: boolean;
      unsubscribedTrailer?: string; defaultLanguage?: string; country?: string;
    };
    image: { bannerExternalUrl?: string };
  };
}

export interface Short {
  kind: string;
  /** Absent when the data comes from InnerTube alone (keyless mode). */
  etag?: string;
  id: string;
  snippet: {
    publishedAt?: string; channelId?: string; title?: string; description?: string; thumbnails?: ThumbnailSet; channelTitle?: string;
    channelHandle?: string; channelCustomUrl?: string; tags?: string[]; categoryId?: string; liveBroadcastContent?: string;
    defaultLanguage?: string; localized?: Localized; defaultAudioLanguage?: string;
  };
  statistics: { viewCount?: string; likeCount?: string; dislikeCount?: string; favoriteCount?: string; commentCount?: string };
  /** The video's duration as the platform gives it (ISO 8601, e.g. PT58S); absent when it sends none. */
  contentDetails?: { duration: string };
  shortUrl: string;
  /** contentDetails.duration in seconds; absent when the platform sends no (readable) duration. */
  durationSeconds?: number;
}

export interface ShortsResult {
  channel: Channel;
  shorts: Short[];
  /** True when the channel has more matching shorts than one request returns. */
  truncated: boolean;
  /** Why `truncated` (MAX_SHORTS_PER_REQUEST, or the balance stopped the read). */
  truncatedBy?: 'max' | 'balance';
  /** Set when a sort or duration filter arranged a window of this many shorts (the window read). */
  arrangedFrom?: number;
  /** When the data was read from the platform (ISO 8601). */
  fetchedAt: string;
  /** Where the shorts were listed and detailed: data-api (UUSH playlist), hybrid (Shorts tab + videos.list), innertube (keyless). */
  source: 'data-api' | 'hybrid' | 'innertube';
  /** Fields whose values are approximate (parsed from display text): keyless results only. */
  approximateFields?: string[];
}
