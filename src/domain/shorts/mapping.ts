// Platform resources → the Channel and Short of docs/spec.md. Copies only those fields, only when present.
import type { Channel, Short, ThumbnailSet } from '../../contract/shorts.ts';
import type { Thumbnails, YtChannel, YtVideo } from './youtube-types.ts';
import { parseIsoDuration } from './duration.ts';

type Plain = Record<string, unknown>;

/** Copy the listed keys that are present (not undefined/null) in `source`. */
function pick<T extends object>(source: T | undefined, keys: readonly (keyof T)[]): Partial<T> {
  const out: Partial<T> = {};
  if (!source) return out;
  for (const key of keys) if (source[key] !== undefined && source[key] !== null) out[key] = source[key];
  return out;
}

function thumbnails(set: Thumbnails | undefined): ThumbnailSet | undefined {
  if (!set) return undefined;
  const out: ThumbnailSet = {};
  for (const size of ['default', 'medium', 'high', 'standard', 'maxres'] as const) {
    const t = set[size];
    if (t?.url)
      out[size] = pick({ url: t.url, width: t.width, height: t.height }, ['url', 'width', 'height']) as { url: string };
  }
  return out;
}

function withOptional<T extends Plain>(base: T, extra: Plain): T {
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) (base as Plain)[key] = value;
  return base;
}

export function toChannel(yt: YtChannel): Channel {
  const s = yt.snippet;
  const b = yt.brandingSettings;
  return {
    kind: yt.kind,
    etag: yt.etag,
    id: yt.id,
    snippet: withOptional(pick(s, ['title', 'description', 'customUrl', 'publishedAt', 'defaultLanguage', 'country']), {
      thumbnails: thumbnails(s?.thumbnails),
      localized: s?.localized ? pick(s.localized, ['title', 'description']) : undefined,
    }),
    statistics: pick(yt.statistics, ['viewCount', 'subscriberCount', 'hiddenSubscriberCount', 'videoCount']),
    brandingSettings: {
      channel: pick(b?.channel, [
        'title',
        'description',
        'keywords',
        'trackingAnalyticsAccountId',
        'moderateComments',
        'unsubscribedTrailer',
        'defaultLanguage',
        'country',
      ]),
      image: pick(b?.image, ['bannerExternalUrl']),
    },
  };
}

/**
 * channelHandle is the channel's "@name"; channelCustomUrl the full address built from customUrl.
 * The Data API writes customUrl in lower case ("@doobydobap"); where the source shows the handle as
 * its owner cased it ("@Doobydobap", the channel page's header: `displayHandle`), channelHandle
 * keeps that case. customUrl and channelCustomUrl stay as the Data API writes them.
 */
export function channelIdentity(
  channel: Channel,
  displayHandle?: string,
): { channelHandle?: string; channelCustomUrl?: string } {
  const custom = channel.snippet.customUrl;
  if (!custom) return {};
  const handle = custom.startsWith('@') ? custom : `@${custom}`;
  return {
    channelHandle: displayHandle?.toLowerCase() === handle.toLowerCase() ? displayHandle : handle,
    channelCustomUrl: `https://www.youtube.com/${custom.startsWith('@') ? custom : `c/${custom}`}`,
  };
}

export function toShort(yt: YtVideo, identity: { channelHandle?: string; channelCustomUrl?: string }): Short {
  const s = yt.snippet;
  const duration = yt.contentDetails?.duration;
  const seconds = parseIsoDuration(duration);
  const short: Short = {
    kind: yt.kind,
    etag: yt.etag,
    id: yt.id,
    snippet: withOptional(
      pick(s, [
        'publishedAt',
        'channelId',
        'title',
        'description',
        'channelTitle',
        'tags',
        'categoryId',
        'liveBroadcastContent',
        'defaultLanguage',
        'defaultAudioLanguage',
      ]),
      {
        thumbnails: thumbnails(s?.thumbnails),
        channelHandle: identity.channelHandle,
        channelCustomUrl: identity.channelCustomUrl,
        localized: s?.localized ? pick(s.localized, ['title', 'description']) : undefined,
      },
    ),
    statistics: pick(yt.statistics, ['viewCount', 'likeCount', 'dislikeCount', 'favoriteCount', 'commentCount']),
    ...(duration ? { contentDetails: { duration } } : {}),
    shortUrl: `https://www.youtube.com/shorts/${yt.id}`,
  };
  if (seconds !== undefined) short.durationSeconds = seconds;
  return short;
}

/** Platform timestamps come with or without fractional seconds; a zone-less one is UTC. */
export function parseTimestamp(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const withZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : value + 'Z';
  const ms = Date.parse(withZone);
  return Number.isNaN(ms) ? undefined : ms;
}
