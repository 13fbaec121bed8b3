// The second upstream source: YouTube's own web API (InnerTube), through youtubei.js
// (src/infra/innertube/innertube-client.ts, answering in the shapes of innertube-types.ts beside it).
// It costs no Data API quota, so it resolves addresses and lists Shorts-tab ids for free; its counts
// are display text ("2.9M views"), so the fields it alone supplies are approximate, and it has no
// publish date in a listing.
import type { YtChannel, YtVideo, Thumbnails } from './youtube-types.ts';
import {
  INNERTUBE_FAILURE_KINDS,
  type InnertubeChannel,
  type InnertubeClient,
  type InnertubeFailureKind,
  type InnertubeShortItem,
  type InnertubeShortsPage,
  type InnertubeThumbnail,
  type InnertubeVideo,
} from '../../infra/innertube/innertube-types.ts';
export type {
  InnertubeChannel,
  InnertubeClient,
  InnertubeFailureKind,
  InnertubeShortItem,
  InnertubeShortsPage,
  InnertubeThumbnail,
  InnertubeVideo,
};

/** Is this an InnerTube failure (bot check, 429, layout change, network)? */
export function innertubeFailureKind(error: unknown): InnertubeFailureKind | undefined {
  const kind = (error as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' && (INNERTUBE_FAILURE_KINDS as readonly string[]).includes(kind)
    ? (kind as InnertubeFailureKind)
    : undefined;
}

/**
 * Fields that are approximate when the data comes from InnerTube alone (keyless mode): counts
 * parsed from display text. Everything else InnerTube gives is exact; what it lacks stays absent.
 */
export const KEYLESS_APPROXIMATE_FIELDS = [
  'channel.statistics.subscriberCount',
  'channel.statistics.videoCount',
  'shorts[].statistics.viewCount',
] as const;

const VIDEO_SIZES: Array<[keyof Thumbnails, number]> = [
  ['default', 120],
  ['medium', 320],
  ['high', 480],
  ['standard', 640],
  ['maxres', 1280],
];
const AVATAR_SIZES: Array<[keyof Thumbnails, number]> = [
  ['default', 88],
  ['medium', 240],
  ['high', 800],
];

/**
 * InnerTube's image lists → the Data API's named sizes: each image under the size nearest its own
 * width (the nearest one wins a size two images share), sizes no image is near left absent. The
 * image picks its size, not the sizes an image: a lone 1080-wide frame must not become `default`,
 * which in the Data API is the 120-wide image.
 */
function named(images: InnertubeThumbnail[], sizes: Array<[keyof Thumbnails, number]>): Thumbnails | undefined {
  const out: Thumbnails = {};
  const distance = new Map<keyof Thumbnails, number>();
  for (const image of images) {
    if (!image.url) continue;
    const width = image.width ?? 0;
    const [name, nominal] = sizes.reduce((best, size) =>
      Math.abs(size[1] - width) < Math.abs(best[1] - width) ? size : best,
    );
    const off = Math.abs(nominal - width);
    if ((distance.get(name) ?? Infinity) <= off) continue;
    distance.set(name, off);
    out[name] = { url: image.url, width: image.width || undefined, height: image.height || undefined };
  }
  return distance.size > 0 ? out : undefined;
}

/** Seconds → ISO 8601 as the Data API writes it (PT45S, PT1M, PT1M5S, PT1H2M3S). */
function isoDuration(total: number): string {
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}

const count = (n: number | undefined) => (n === undefined ? undefined : String(n));

/** An InnerTube channel page in the Data API's channel shape (absent stays undefined, left out of JSON). */
export function keylessChannel(ch: InnertubeChannel): YtChannel {
  const thumbnails = named(ch.avatar, AVATAR_SIZES);
  const banner = [...ch.banner].sort((a, b) => (b.width ?? 0) - (a.width ?? 0))[0];
  return {
    kind: 'youtube#channel',
    id: ch.id,
    snippet: {
      title: ch.title,
      localized: ch.title !== undefined ? { title: ch.title, description: ch.description } : undefined,
      description: ch.description,
      customUrl: ch.handle?.toLowerCase() || undefined,
      thumbnails,
      country: ch.country || undefined,
    },
    statistics: { subscriberCount: count(ch.subscriberCount), videoCount: count(ch.videoCount) },
    brandingSettings: {
      channel: {
        title: ch.title,
        description: ch.description,
        keywords: ch.keywords || undefined,
        country: ch.country || undefined,
      },
      image: banner ? { bannerExternalUrl: banner.url } : {},
    },
  } as YtChannel;
}

/** A Shorts-tab item (and, when fetched, its player details) in the Data API's video shape. */
export function keylessVideo(item: InnertubeShortItem, channel: YtChannel, details?: InnertubeVideo): YtVideo {
  const thumbnails = named(details?.thumbnails.length ? details.thumbnails : item.thumbnails, VIDEO_SIZES);
  const title = details?.title ?? item.title;
  const viewCount = details?.viewCount ?? count(item.viewCount);
  return {
    kind: 'youtube#video',
    id: item.id,
    snippet: {
      publishedAt: details?.publishedAt || undefined,
      channelId: channel.id,
      title,
      description: details?.description,
      thumbnails,
      channelTitle: channel.snippet?.title,
      tags: details?.keywords?.length ? details.keywords : undefined,
    },
    statistics: { viewCount },
    // The player gives the length in whole seconds: the same value the Data API writes as ISO 8601.
    contentDetails: details?.durationSeconds ? { duration: isoDuration(details.durationSeconds) } : undefined,
  } as YtVideo;
}
