// Builds a channel and its Shorts deterministically from a ChannelSpec, in the shapes of Google's
// discovery document for youtube v3. Videos are produced on demand from their index, so a channel
// of any size costs a few hundred bytes until its pages are read.
import {
  channelIdFor,
  channelKey,
  etagFor,
  MAX_VIDEOS_PER_CHANNEL,
  mixNumbers,
  seededNumber,
  seededToken,
  videoIdForKey,
} from './ids.ts';

export interface ChannelSpec {
  /** Without the leading "@". */
  handle: string;
  shortsCount: number;
  id?: string;
  /** Legacy /user/ name, found by channels.list?forUsername. */
  username?: string;
  title?: string;
  /** Defaults to "@" + the handle in lower case. */
  customUrl?: string;
  country?: string;
  hiddenSubscriberCount?: boolean;
  /** The channel and all its videos lack every optional field. */
  omitOptional?: boolean;
  /** Publication time of the newest short (ISO 8601); default 2026-06-01T12:00:00Z. */
  newestPublishedAt?: string;
  /** Minutes between consecutive shorts; default 60. */
  spacingMinutes?: number;
  /**
   * Publication times (ISO 8601, oldest first) of the newest shorts, published after the generated
   * series (POST /__admin/channels/:handle/shorts); they count in shortsCount. Ids stay put: a
   * video's id depends on its ordinal from the oldest.
   */
  publishedLater?: string[];
  /**
   * Ordinals (0 = oldest) of shorts taken down (made private or removed; DELETE
   * /__admin/channels/:handle/shorts/:videoId): they keep their ids and their place in shortsCount
   * here, but are left out of the Shorts playlist and tab, videos.list, the player and every count
   * the channel shows, as YouTube leaves them out until they are restored.
   */
  takenDown?: number[];
  /** A closed or suspended channel: channels.list and playlistItems.list answer 403 with that reason. */
  status?: 'closed' | 'suspended';
  /**
   * How the InnerTube Shorts tab presents items: 'lockup' (shortsLockupViewModel, youtube.com since
   * late 2024; default) or 'reel' (the older reelItemRenderer, still met in cached and regional pages).
   */
  shortsItemShape?: 'lockup' | 'reel';
  /**
   * A legacy vanity name youtube.com knows only in the form it was made in, youtube.com/<name>:
   * resolve_url answers 404 for /c/<name>, and the Data API finds neither a handle nor a username by it.
   */
  legacyVanity?: string;
  /**
   * Premieres: ordinal (0 = oldest) → publication time (ISO 8601). A premiere keeps its place in the
   * Shorts playlist and tab (where it was uploaded) but is published later, so it sits below shorts
   * older than it, as YouTube lists premieres.
   */
  premieres?: Record<number, string>;
  /**
   * Whether lockup items list their cover (thumbnailViewModel, as youtube.com does; default true).
   * False: only the reelWatchEndpoint's first frame is given.
   */
  shortsCover?: boolean;
}

export interface Thumbnail {
  url: string;
  width?: number;
  height?: number;
}
export type Thumbnails = Partial<Record<'default' | 'medium' | 'high' | 'standard' | 'maxres', Thumbnail>>;

export interface ChannelResource {
  kind: 'youtube#channel';
  etag: string;
  id: string;
  snippet: {
    title: string;
    description: string;
    customUrl: string;
    publishedAt: string;
    thumbnails: Thumbnails;
    defaultLanguage?: string;
    localized: { title: string; description: string };
    country?: string;
  };
  contentDetails: { relatedPlaylists: { likes: string; uploads: string } };
  statistics: { viewCount: string; subscriberCount?: string; hiddenSubscriberCount: boolean; videoCount: string };
  brandingSettings: {
    channel: {
      title: string;
      description: string;
      keywords?: string;
      trackingAnalyticsAccountId?: string;
      moderateComments?: boolean;
      unsubscribedTrailer?: string;
      defaultLanguage?: string;
      country?: string;
    };
    image?: { bannerExternalUrl: string };
  };
}

export interface VideoResource {
  kind: 'youtube#video';
  etag: string;
  id: string;
  snippet: {
    publishedAt: string;
    channelId: string;
    title: string;
    description: string;
    thumbnails: Thumbnails;
    channelTitle: string;
    tags?: string[];
    categoryId: string;
    liveBroadcastContent: 'none';
    defaultLanguage?: string;
    localized: { title: string; description: string };
    defaultAudioLanguage?: string;
  };
  contentDetails: {
    /** Left out for channels built with omitOptional, to exercise responses without a duration. */
    duration?: string;
    dimension: '2d';
    definition: 'hd' | 'sd';
    caption: 'true' | 'false';
    licensedContent: boolean;
    contentRating: Record<string, never>;
    projection: 'rectangular';
  };
  statistics: { viewCount: string; likeCount?: string; favoriteCount: '0'; commentCount?: string };
}

export interface PlaylistItemResource {
  kind: 'youtube#playlistItem';
  etag: string;
  id: string;
  snippet: {
    publishedAt: string;
    channelId: string;
    title: string;
    description: string;
    thumbnails: Thumbnails;
    channelTitle: string;
    playlistId: string;
    position: number;
    resourceId: { kind: 'youtube#video'; videoId: string };
    videoOwnerChannelTitle: string;
    videoOwnerChannelId: string;
  };
  contentDetails: { videoId: string; videoPublishedAt: string };
  status: { privacyStatus: 'public' };
}

export interface GeneratedChannel {
  readonly spec: ChannelSpec;
  readonly id: string;
  /** As registered, without "@". */
  readonly handle: string;
  /** The channel's number inside its video ids (see ids.ts). */
  readonly key: number;
  /** The shorts visible now: spec.shortsCount less the ones taken down. */
  readonly shortsCount: number;
  readonly resource: ChannelResource;
  /** Index 0 is the newest short. */
  videoId(index: number): string;
  /** The index of the short whose id has this ordinal (0 = oldest), if it exists. */
  indexOfOrdinal(ordinal: number): number | undefined;
  publishedAt(index: number): string;
  video(index: number): VideoResource;
  playlistItem(playlistId: string, index: number): PlaylistItemResource;
}

const DEFAULT_NEWEST = '2026-06-01T12:00:00Z';
const CATEGORIES = ['22', '24', '23', '17', '26'];

function channelThumbnails(id: string): Thumbnails {
  // Channel avatars come in three square sizes only.
  const base = `https://yt3.ggpht.com/${seededToken(`avatar:${id}`, 64)}`;
  return {
    default: { url: `${base}=s88-c-k-c0x00ffffff-no-rj`, width: 88, height: 88 },
    medium: { url: `${base}=s240-c-k-c0x00ffffff-no-rj`, width: 240, height: 240 },
    high: { url: `${base}=s800-c-k-c0x00ffffff-no-rj`, width: 800, height: 800 },
  };
}

function videoThumbnails(videoId: string, withLarge: boolean): Thumbnails {
  const base = `https://i.ytimg.com/vi/${videoId}`;
  const set: Thumbnails = {
    default: { url: `${base}/default.jpg`, width: 120, height: 90 },
    medium: { url: `${base}/mqdefault.jpg`, width: 320, height: 180 },
    high: { url: `${base}/hqdefault.jpg`, width: 480, height: 360 },
  };
  if (withLarge) {
    set.standard = { url: `${base}/sddefault.jpg`, width: 640, height: 480 };
    set.maxres = { url: `${base}/maxresdefault.jpg`, width: 1280, height: 720 };
  }
  return set;
}

/** YouTube rounds public subscriber counts down to three significant figures. */
function threeSignificant(n: number): number {
  if (n < 1000) return n;
  const unit = 10 ** (Math.floor(Math.log10(n)) - 2);
  return Math.floor(n / unit) * unit;
}

/** ISO 8601 durations as the API writes them: PT45S, PT1M, PT1M5S. */
function isoDuration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `PT${minutes ? `${minutes}M` : ''}${rest || !minutes ? `${rest}S` : ''}`;
}

const withoutMilliseconds = (ms: number) => new Date(ms).toISOString().slice(0, 19) + 'Z';

/** Recomputes the etag over the resource's content, so equal content always has an equal etag. */
export function sealEtag<T extends { etag: string }>(resource: T): T {
  resource.etag = '';
  resource.etag = etagFor(JSON.stringify(resource));
  return resource;
}

/**
 * What a channel's resources are computed from: its spec, checked, with what every resource reads.
 * A raw index counts every short ever uploaded, taken down or not (0 = the newest upload, i.e.
 * uploaded - 1 - ordinal); the indexes a GeneratedChannel takes count the visible ones only.
 */
interface Layout {
  spec: ChannelSpec;
  handle: string;
  id: string;
  key: number;
  /** Every short ever uploaded: ids and publication times are laid out over it. */
  uploaded: number;
  /** The visible ones: uploaded less those taken down. */
  shortsCount: number;
  /** Ordinals taken down, newest first, without repeats. */
  takenDown: number[];
  takenDownSet: Set<number>;
  /** Raw indexes of the shorts taken down, ascending. */
  hiddenRaw: number[];
  newest: number;
  spacingMs: number;
  later: string[];
  /** Every optional field present (not spec.omitOptional). */
  full: boolean;
  title: string;
  customUrl: string;
  country: string;
  /** The handle as a hashtag: letters and digits only, lower case. */
  hashtag: string;
  /**
   * Videos and playlist items are a pure function of the spec and their index, so their etags hash
   * this and the index instead of the serialized resource (which would cost a JSON pass per item served).
   */
  fingerprint: string;
}

/** The spec's counts and times, checked in this order: the first thing wrong is the error thrown. */
function checkedSpec(spec: ChannelSpec) {
  const handle = spec.handle.replace(/^@/, '');
  if (!handle) throw new RangeError('a channel needs a handle');
  const uploaded = spec.shortsCount;
  if (!Number.isInteger(uploaded) || uploaded < 0 || uploaded > MAX_VIDEOS_PER_CHANNEL) {
    throw new RangeError(`shortsCount must be an integer from 0 to ${MAX_VIDEOS_PER_CHANNEL}`);
  }
  const takenDown = [...new Set(spec.takenDown ?? [])].sort((a, b) => b - a);
  if (takenDown.some((o) => !Number.isInteger(o) || o < 0 || o >= uploaded))
    throw new RangeError('takenDown lists an ordinal outside the channel');
  const newest = Date.parse(spec.newestPublishedAt ?? DEFAULT_NEWEST);
  if (Number.isNaN(newest)) throw new RangeError(`newestPublishedAt is not a date: ${spec.newestPublishedAt}`);
  const spacingMs = (spec.spacingMinutes ?? 60) * 60_000;
  if (!(spacingMs >= 0)) throw new RangeError('spacingMinutes must not be negative');
  const later = spec.publishedLater ?? [];
  if (later.length > uploaded) throw new RangeError('publishedLater lists more shorts than shortsCount');
  return { handle, uploaded, takenDown, newest, spacingMs, later };
}

function layOut(spec: ChannelSpec): Layout {
  const { handle, uploaded, takenDown, newest, spacingMs, later } = checkedSpec(spec);
  const shortsCount = uploaded - takenDown.length;
  const id = spec.id ?? channelIdFor(handle.normalize('NFC').toLowerCase());
  const full = !spec.omitOptional;
  const title = spec.title ?? handle;
  const customUrl = spec.customUrl ?? `@${handle.toLowerCase()}`;
  const country = spec.country ?? 'US';
  return {
    spec,
    handle,
    id,
    key: channelKey(id),
    uploaded,
    shortsCount,
    takenDown,
    takenDownSet: new Set(takenDown),
    hiddenRaw: takenDown.map((o) => uploaded - 1 - o),
    newest,
    spacingMs,
    later,
    full,
    title,
    customUrl,
    country,
    hashtag: handle.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ''),
    fingerprint: etagFor(
      JSON.stringify([
        id,
        handle,
        shortsCount,
        title,
        customUrl,
        country,
        full,
        newest,
        spacingMs,
        spec.publishedLater ?? [],
        spec.premieres ?? {},
        takenDown,
      ]),
    ),
  };
}

/** The raw index of the index-th newest visible short. */
function rawIndex(layout: Layout, index: number): number {
  let raw = index;
  for (const hidden of layout.hiddenRaw) {
    if (hidden <= raw) raw++;
    else break;
  }
  return raw;
}

function visibleIndexOfOrdinal(layout: Layout, ordinal: number): number | undefined {
  const { uploaded, takenDownSet, hiddenRaw } = layout;
  if (!Number.isInteger(ordinal) || ordinal < 0 || ordinal >= uploaded || takenDownSet.has(ordinal)) return undefined;
  const raw = uploaded - 1 - ordinal;
  return raw - hiddenRaw.filter((hidden) => hidden < raw).length;
}

/** A video's id depends on its ordinal from the oldest, so ids stay put as shorts are published. */
const rawVideoId = (layout: Layout, raw: number) => videoIdForKey(layout.key, layout.uploaded - 1 - raw);

/**
 * Google prints most times to the second, but some with a fraction: every 7th short here carries
 * one. The fraction stays below the spacing, so the newest-first order survives.
 */
function rawPublishedAt(layout: Layout, raw: number): string {
  const premiere = layout.spec.premieres?.[layout.uploaded - 1 - raw];
  if (premiere !== undefined) return premiere;
  const { later, newest, spacingMs } = layout;
  if (raw < later.length) return later[later.length - 1 - raw]!;
  const ms = newest - (raw - later.length) * spacingMs;
  if (ms % 1000 !== 0) return new Date(ms).toISOString();
  if (raw % 7 !== 6) return withoutMilliseconds(ms);
  const room = Math.min(spacingMs, 1000);
  return new Date(ms + (room > 1 ? 1 + ((122 + raw) % (room - 1)) : 0)).toISOString();
}

const channelDescription = (title: string) => `Short videos from ${title} 🎬\nNew shorts every week.`;

function channelResource(layout: Layout): ChannelResource {
  const { id, title, customUrl, country, full, shortsCount } = layout;
  const description = channelDescription(title);
  const number = (what: string) => seededNumber(`${id}:${what}`);
  const hidden = layout.spec.hiddenSubscriberCount ?? false;
  const brandingChannel = brandingSettingsChannel(layout);
  return sealEtag({
    kind: 'youtube#channel',
    etag: '',
    id,
    snippet: {
      title,
      description,
      customUrl,
      publishedAt: withoutMilliseconds(Date.UTC(2009, 0, 1) + (number('created') % (12 * 365 * 86_400)) * 1000),
      thumbnails: channelThumbnails(id),
      ...(full ? { defaultLanguage: 'en' } : {}),
      localized: { title, description },
      ...(full ? { country } : {}),
    },
    contentDetails: { relatedPlaylists: { likes: '', uploads: 'UU' + id.slice(2) } },
    statistics: {
      viewCount: String(shortsCount * 1_000 + (number('views') % 10_000_000)),
      // A hidden subscriber count is left out of the response altogether.
      ...(hidden ? {} : { subscriberCount: String(threeSignificant(100 + (number('subscribers') % 5_000_000))) }),
      hiddenSubscriberCount: hidden,
      videoCount: String(shortsCount),
    },
    brandingSettings: full
      ? {
          channel: brandingChannel,
          image: { bannerExternalUrl: `https://yt3.googleusercontent.com/${seededToken(`banner:${id}`, 86)}` },
        }
      : { channel: brandingChannel },
  });
}

function brandingSettingsChannel(layout: Layout): ChannelResource['brandingSettings']['channel'] {
  const { id, handle, title, country, shortsCount } = layout;
  const description = channelDescription(title);
  if (!layout.full) return { title, description };
  return {
    title,
    description,
    keywords: `shorts "behind the scenes" ${handle.toLowerCase()}`,
    trackingAnalyticsAccountId: `UA-${10_000_000 + (seededNumber(`${id}:analytics`) % 89_999_999)}-1`,
    moderateComments: true,
    ...(shortsCount > 0 ? { unsubscribedTrailer: rawVideoId(layout, rawIndex(layout, 0)) } : {}),
    defaultLanguage: 'en',
    country,
  };
}

const videoTitle = (layout: Layout, ordinal: number) =>
  ordinal % 5 === 2 ? `${layout.title} — short #${ordinal + 1} 🎬 #shorts` : `${layout.title} short #${ordinal + 1}`;

const videoDescription = (layout: Layout, ordinal: number) =>
  `Short number ${ordinal + 1} from ${layout.title}.\n\n#shorts${layout.hashtag ? ` #${layout.hashtag}` : ''}`;

function videoResource(layout: Layout, raw: number): VideoResource {
  const { id, key, full, handle } = layout;
  const vid = rawVideoId(layout, raw);
  const ordinal = layout.uploaded - 1 - raw;
  const n = (salt: number) => mixNumbers(key, ordinal, salt);
  const views = 200 + (n(1) % 2_000_000);
  const localized = { title: videoTitle(layout, ordinal), description: videoDescription(layout, ordinal) };
  return {
    kind: 'youtube#video',
    etag: etagFor(`${layout.fingerprint}:video:${raw}`),
    id: vid,
    snippet: {
      publishedAt: rawPublishedAt(layout, raw),
      channelId: id,
      title: localized.title,
      description: localized.description,
      thumbnails: videoThumbnails(vid, full),
      channelTitle: layout.title,
      ...(full ? { tags: ['shorts', handle.toLowerCase(), `topic ${ordinal % 10}`] } : {}),
      categoryId: CATEGORIES[ordinal % CATEGORIES.length]!,
      liveBroadcastContent: 'none',
      ...(full ? { defaultLanguage: 'en' } : {}),
      localized,
      ...(full ? { defaultAudioLanguage: 'en' } : {}),
    },
    contentDetails: {
      // Shorts run up to three minutes (since 2024-10-15). Sparse channels carry no duration.
      ...(full ? { duration: isoDuration(5 + (n(2) % 176)) } : {}),
      dimension: '2d',
      definition: ordinal % 9 === 4 ? 'sd' : 'hd',
      caption: 'false',
      licensedContent: false,
      contentRating: {},
      projection: 'rectangular',
    },
    // No dislikeCount: the API stopped returning it publicly in December 2021.
    statistics: full
      ? {
          viewCount: String(views),
          likeCount: String(Math.floor(views / 25)),
          favoriteCount: '0',
          commentCount: String(Math.floor(views / 900)),
        }
      : { viewCount: String(views), favoriteCount: '0' },
  };
}

function playlistItemResource(layout: Layout, playlistId: string, raw: number, position: number): PlaylistItemResource {
  const { id, title } = layout;
  const vid = rawVideoId(layout, raw);
  const ordinal = layout.uploaded - 1 - raw;
  const published = rawPublishedAt(layout, raw);
  return {
    kind: 'youtube#playlistItem',
    etag: etagFor(`${layout.fingerprint}:playlistItem:${playlistId}:${raw}`),
    // Google's playlist item ids are base64 of "<playlistId>.<item key>".
    id: Buffer.from(`${playlistId}.${vid}`).toString('base64'),
    snippet: {
      publishedAt: published,
      channelId: id,
      title: videoTitle(layout, ordinal),
      description: videoDescription(layout, ordinal),
      thumbnails: videoThumbnails(vid, layout.full),
      channelTitle: title,
      playlistId,
      position,
      resourceId: { kind: 'youtube#video', videoId: vid },
      videoOwnerChannelTitle: title,
      videoOwnerChannelId: id,
    },
    // The video's own publication time, equal to its snippet.publishedAt.
    contentDetails: { videoId: vid, videoPublishedAt: published },
    status: { privacyStatus: 'public' },
  };
}

export function generateChannel(spec: ChannelSpec): GeneratedChannel {
  const layout = layOut(spec);
  return {
    spec,
    id: layout.id,
    handle: layout.handle,
    key: layout.key,
    shortsCount: layout.shortsCount,
    resource: channelResource(layout),
    videoId: (index) => rawVideoId(layout, rawIndex(layout, index)),
    indexOfOrdinal: (ordinal) => visibleIndexOfOrdinal(layout, ordinal),
    publishedAt: (index) => rawPublishedAt(layout, rawIndex(layout, index)),
    video: (index) => videoResource(layout, rawIndex(layout, index)),
    playlistItem: (playlistId, index) => playlistItemResource(layout, playlistId, rawIndex(layout, index), index),
  };
}
