// The parts of the YouTube Data API v3 resources we read (per Google's discovery document).
export interface Thumbnail {
  url: string;
  width?: number;
  height?: number;
}
export type Thumbnails = Partial<Record<'default' | 'medium' | 'high' | 'standard' | 'maxres', Thumbnail>>;
export interface Localized {
  title?: string;
  description?: string;
}

export interface YtChannel {
  kind: string;
  /** Absent when the data comes from InnerTube alone (keyless mode). */
  etag?: string;
  id: string;
  snippet?: {
    title?: string;
    description?: string;
    customUrl?: string;
    publishedAt?: string;
    thumbnails?: Thumbnails;
    defaultLanguage?: string;
    localized?: Localized;
    country?: string;
  };
  statistics?: { viewCount?: string; subscriberCount?: string; hiddenSubscriberCount?: boolean; videoCount?: string };
  brandingSettings?: {
    channel?: {
      title?: string;
      description?: string;
      keywords?: string;
      trackingAnalyticsAccountId?: string;
      moderateComments?: boolean;
      unsubscribedTrailer?: string;
      defaultLanguage?: string;
      country?: string;
    };
    image?: { bannerExternalUrl?: string };
  };
}

export interface YtVideo {
  kind: string;
  /** Absent when the data comes from InnerTube alone (keyless mode). */
  etag?: string;
  id: string;
  snippet?: {
    publishedAt?: string;
    channelId?: string;
    title?: string;
    description?: string;
    thumbnails?: Thumbnails;
    channelTitle?: string;
    tags?: string[];
    categoryId?: string;
    liveBroadcastContent?: string;
    defaultLanguage?: string;
    localized?: Localized;
    defaultAudioLanguage?: string;
  };
  statistics?: {
    viewCount?: string;
    likeCount?: string;
    dislikeCount?: string;
    favoriteCount?: string;
    commentCount?: string;
  };
  contentDetails?: {
    duration?: string;
    dimension?: string;
    definition?: string;
    caption?: string;
    licensedContent?: boolean;
    projection?: string;
  };
}

export interface YtPlaylistItem {
  contentDetails?: { videoId?: string; videoPublishedAt?: string };
}

export interface YtListResponse<T> {
  kind: string;
  etag?: string;
  nextPageToken?: string;
  pageInfo?: { totalResults?: number; resultsPerPage?: number };
  items?: T[];
}

export interface YtSearchResult {
  id?: { kind?: string; channelId?: string };
}
