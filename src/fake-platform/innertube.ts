// The InnerTube side of the fake platform: the web client's POST /youtubei/v1/{navigation/resolve_url,
// browse, player, config} for the same registry and deterministic channels as the fake Data API, so a
// test can compare what the two protocols say about one channel field by field.
//
// The JSON follows what youtube.com answers the WEB client today, as youtubei.js 18.x parses it:
//  - resolve_url: {endpoint: {commandMetadata, browseEndpoint: {browseId, params}}}; unknown address → 404.
//  - browse {browseId[, params]}: the channel page (pageHeaderRenderer → pageHeaderViewModel with the
//    handle and "1.2M subscribers" / "120 videos" in its metadata rows, channelMetadataRenderer,
//    microformatDataRenderer, twoColumnBrowseResultsRenderer tabs whose endpoints carry the tab's URL
//    and params). The Shorts tab holds a richGridRenderer of 48 richItemRenderer items and a
//    continuationItemRenderer; browse {continuation} answers appendContinuationItemsAction.
//    Items are shortsLockupViewModel (since late 2024: the image is a thumbnailViewModel, and the
//    1080×1920 frame rides on the reelWatchEndpoint) or, for ChannelSpec.shortsItemShape 'reel',
//    the older reelItemRenderer. Unknown channel ids answer an ERROR alert, as YouTube does.
//  - player {videoId}: playabilityStatus, videoDetails (exact viewCount, lengthSeconds, keywords) and
//    microformat.playerMicroformatRenderer (publishDate/uploadDate in Pacific time, to the second).
// Nothing here is a Data API call: the server logs these calls apart and charges no quota for them.
import type { GeneratedChannel } from './channel-generator.ts';
import { fields, varint } from './page-tokens.ts';
import type { ChannelRegistry } from './registry.ts';

export type InnertubeEndpoint = 'resolve_url' | 'browse' | 'player' | 'config';
export const INNERTUBE_ENDPOINTS: Record<string, InnertubeEndpoint> = {
  'navigation/resolve_url': 'resolve_url',
  browse: 'browse',
  player: 'player',
  config: 'config',
};

/** Items per Shorts-tab page, as on youtube.com. */
export const SHORTS_PAGE_SIZE = 48;

export interface InnertubeResult {
  status: number;
  body: unknown;
}

/** Tab params of the web client's channel page (protobuf {2: tab name, 110: …}, as NewPipe and Invidious send them). */
const TAB_PARAMS = {
  featured: 'EghmZWF0dXJlZPIGBAoCMgA%3D',
  shorts: 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D',
} as const;
type TabName = keyof typeof TAB_PARAMS;

// The continuation token's outer field (80226972), as in every browse continuation YouTube issues
// ("4qmFsgK…" once in base64).
const CONTINUATION_FIELD = 80226972;

const CATEGORY_NAMES: Record<string, string> = {
  '22': 'People & Blogs',
  '24': 'Entertainment',
  '23': 'Comedy',
  '17': 'Sports',
  '26': 'Howto & Style',
};

// ---------------------------------------------------------------------------------------------
// Display texts in the en-US styles YouTube uses: counts of subscribers keep three significant
// figures ("4.32M", "172K"), view and video counts one decimal below ten of a unit and none above
// ("2.9M", "15M", "895K", "1.2K"), all rounded down.

const subscriberFormat = new Intl.NumberFormat('en-US', {
  notation: 'compact',
  maximumSignificantDigits: 3,
  roundingMode: 'trunc',
});
const UNITS: Array<[number, string, string]> = [
  [1e9, 'B', ' billion'],
  [1e6, 'M', ' million'],
  [1e3, 'K', ' thousand'],
];

/** "2.9M" / "2.9 million", "895K", "1.2K", "999". */
function compactCount(count: number, spoken = false): string {
  for (const [size, short, long] of UNITS) {
    if (count < size) continue;
    const mantissa = count / size;
    const shown = mantissa < 10 ? Math.floor(mantissa * 10) / 10 : Math.floor(mantissa);
    return `${shown}${spoken ? long : short}`;
  }
  return String(count);
}

export function subscriberText(count: number): string {
  return `${subscriberFormat.format(count)} ${count === 1 ? 'subscriber' : 'subscribers'}`;
}

export function shortViewText(count: number): string {
  if (count === 0) return 'No views';
  return `${compactCount(count)} ${count === 1 ? 'view' : 'views'}`;
}

function videoCountText(count: number): string {
  return `${compactCount(count)} ${count === 1 ? 'video' : 'videos'}`;
}

/** "2.9 million views": the spoken form YouTube puts in accessibility labels. */
function spokenViews(count: number): string {
  return `${compactCount(count, true)} ${count === 1 ? 'view' : 'views'}`;
}

/** The player's publishDate: local time in America/Los_Angeles with its offset, to the second. */
export function pacificTimestamp(iso: string): string {
  const ms = Math.floor(Date.parse(iso) / 1000) * 1000;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Los_Angeles',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    })
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName!.replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

/** Seconds of an ISO 8601 duration as the Data API writes them (PT1M5S). */
function durationSeconds(iso: string): number {
  const match = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/.exec(iso);
  if (!match) throw new RangeError(`not a duration: ${iso}`);
  return Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Tokens

/** Tracking params are opaque base64 to clients; stable per seed so two answers compare equal. */
function trackingParams(seed: string): string {
  return Buffer.from(`fake-tracking:${seed}`).toString('base64');
}

function message(entries: Array<[number, number | string | Uint8Array]>): number[] {
  const out: number[] = [];
  for (const [field, value] of entries) {
    if (typeof value === 'number') out.push(...varint(field * 8), ...varint(value));
    else {
      const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
      out.push(...varint(field * 8 + 2), ...varint(bytes.length), ...bytes);
    }
  }
  return out;
}

export function continuationToken(browseId: string, offset: number): string {
  const position = Buffer.from(
    message([
      [1, offset],
      [2, 'shorts'],
    ]),
  ).toString('base64');
  const inner = Buffer.from(
    message([
      [2, browseId],
      [3, position],
    ]),
  );
  // YouTube sends these percent-encoded ("…%3D%3D"), and accepts them either way.
  return encodeURIComponent(Buffer.from(message([[CONTINUATION_FIELD, inner]])).toString('base64'));
}

export function parseContinuationToken(token: string): { browseId: string; offset: number } | undefined {
  let raw: string;
  try {
    raw = decodeURIComponent(token);
  } catch {
    return undefined;
  }
  const outer = fields(Buffer.from(raw, 'base64'))?.get(CONTINUATION_FIELD);
  const inner = outer instanceof Uint8Array ? fields(outer) : undefined;
  const browseId = inner?.get(2);
  const position = inner?.get(3);
  if (!(browseId instanceof Uint8Array) || !(position instanceof Uint8Array)) return undefined;
  const offset = fields(Buffer.from(Buffer.from(position).toString('latin1'), 'base64'))?.get(1);
  return typeof offset === 'number' ? { browseId: Buffer.from(browseId).toString('utf8'), offset } : undefined;
}

/** The tab a browse request's params select: protobuf field 2 holds the tab's name. */
function tabOf(params: unknown): TabName | 'other' {
  if (typeof params !== 'string' || !params) return 'featured';
  let name: string | undefined;
  try {
    const value = fields(Buffer.from(decodeURIComponent(params), 'base64'))?.get(2);
    name = value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : undefined;
  } catch {
    name = undefined;
  }
  // Unknown params land on the Home tab, as on youtube.com.
  if (name === 'shorts') return 'shorts';
  return name === undefined || name === 'featured' ? 'featured' : 'other';
}

// ---------------------------------------------------------------------------------------------
// Errors in Google's JSON envelope

function googleError(status: number, message: string, reason: string): InnertubeResult {
  return {
    status,
    body: {
      error: {
        code: status,
        message,
        errors: [{ message, domain: 'global', reason }],
        status: reason === 'notFound' ? 'NOT_FOUND' : 'INVALID_ARGUMENT',
      },
    },
  };
}

export const notFound = () => googleError(404, 'Requested entity was not found.', 'notFound');

/** What browse answers addresses and sessions YouTube blocks outright. */
export const forbidden = (): InnertubeResult => ({
  status: 403,
  body: {
    error: {
      code: 403,
      message: 'The caller does not have permission',
      errors: [{ message: 'The caller does not have permission', domain: 'global', reason: 'forbidden' }],
      status: 'PERMISSION_DENIED',
    },
  },
});

const ANSWERED_ERRORS: Record<number, [message: string, status: string]> = {
  404: ['Requested entity was not found.', 'NOT_FOUND'],
  500: ['Internal error encountered.', 'INTERNAL'],
  501: ['Operation is not implemented, or supported, or enabled.', 'UNIMPLEMENTED'],
  503: ['The service is currently unavailable.', 'UNAVAILABLE'],
};

/** An error InnerTube answers in Google's envelope without an errors list (404, 500, 501, 503). */
export function answeredError(code: number): InnertubeResult {
  const [message, status] = ANSWERED_ERRORS[code] ?? ANSWERED_ERRORS[503]!;
  return { status: code, body: { error: { code, message, status } } };
}

/**
 * The redirect to the cookie-consent page that addresses in the EU (and some datacenters) get in
 * place of any youtube.com answer: a 302 with Google's short HTML body, to consent.youtube.com with
 * the address asked for as `continue`.
 */
export function consentRedirect(pathAndQuery: string): { status: 302; headers: Record<string, string>; body: string } {
  const location =
    `https://consent.youtube.com/m?continue=${encodeURIComponent(`https://www.youtube.com${pathAndQuery}`)}` +
    '&gl=DE&m=0&pc=yt&cm=2&hl=en&src=1';
  const href = location.replaceAll('&', '&amp;');
  return {
    status: 302,
    headers: { location, 'content-type': 'text/html; charset=UTF-8' },
    body:
      '<HTML><HEAD><meta http-equiv="content-type" content="text/html;charset=utf-8">\n<TITLE>302 Moved</TITLE>' +
      `</HEAD><BODY>\n<H1>302 Moved</H1>\nThe document has moved\n<A HREF="${href}">here</A>.\r\n</BODY></HTML>\r\n`,
  };
}
const invalidArgument = () => googleError(400, 'Request contains an invalid argument.', 'badRequest');
export function rateLimited(): InnertubeResult {
  return {
    status: 429,
    body: {
      error: {
        code: 429,
        message: 'Resource has been exhausted (e.g. check quota).',
        errors: [
          { message: 'Resource has been exhausted (e.g. check quota).', domain: 'global', reason: 'rateLimitExceeded' },
        ],
        status: 'RESOURCE_EXHAUSTED',
      },
    },
  };
}

function responseContext(visitorData: string | undefined): Record<string, unknown> {
  return {
    ...(visitorData ? { visitorData } : {}),
    serviceTrackingParams: [
      {
        service: 'CSI',
        params: [
          { key: 'c', value: 'WEB' },
          { key: 'yt_li', value: '0' },
        ],
      },
    ],
    mainAppWebResponseContext: { loggedOut: true },
    webResponseContextExtensionData: { hasDecorated: true },
  };
}

// ---------------------------------------------------------------------------------------------
// Channel page

function channelUrlPath(channel: GeneratedChannel): string {
  return `/@${channel.handle}`;
}

function avatarBase(channel: GeneratedChannel): string {
  // The same image the Data API serves from yt3.ggpht.com, sized by its "=s<N>" suffix.
  const url = channel.resource.snippet.thumbnails.default!.url;
  return url.replace('https://yt3.ggpht.com/', 'https://yt3.googleusercontent.com/').replace(/=s\d+.*$/, '');
}

const avatarSize = (base: string, size: number) => ({
  url: `${base}=s${size}-c-k-c0x00ffffff-no-rj`,
  width: size,
  height: size,
});

function tabEndpoint(channel: GeneratedChannel, tab: TabName): Record<string, unknown> {
  return {
    clickTrackingParams: trackingParams(`${channel.id}:tab:${tab}`),
    commandMetadata: {
      webCommandMetadata: {
        url: `${channelUrlPath(channel)}/${tab}`,
        webPageType: 'WEB_PAGE_TYPE_CHANNEL',
        rootVe: 3611,
        apiUrl: '/youtubei/v1/browse',
      },
    },
    browseEndpoint: { browseId: channel.id, params: TAB_PARAMS[tab], canonicalBaseUrl: channelUrlPath(channel) },
  };
}

function pageHeader(channel: GeneratedChannel): Record<string, unknown> {
  const { snippet, statistics, brandingSettings } = channel.resource;
  const base = avatarBase(channel);
  // Row 1: the handle; row 2: subscribers (left out when hidden) and videos (left out when none).
  const counts = [
    ...(statistics.subscriberCount !== undefined
      ? [{ text: { content: subscriberText(Number(statistics.subscriberCount)) } }]
      : []),
    ...(channel.shortsCount > 0 ? [{ text: { content: videoCountText(channel.shortsCount) } }] : []),
  ];
  const metadataRows = [
    {
      metadataParts: [
        {
          text: {
            content: `@${channel.handle}`,
            styleRuns: [{ startIndex: 0, length: channel.handle.length + 1, weightLabel: 'FONT_WEIGHT_MEDIUM' }],
          },
        },
      ],
    },
    ...(counts.length ? [{ metadataParts: counts }] : []),
  ];
  const bannerUrl = brandingSettings.image?.bannerExternalUrl;
  const bannerWidths: Array<[number, number]> = [
    [1060, 175],
    [1138, 188],
    [1707, 283],
    [2120, 351],
    [2276, 377],
    [2560, 424],
  ];
  return {
    pageHeaderRenderer: {
      pageTitle: snippet.title,
      content: {
        pageHeaderViewModel: {
          title: {
            dynamicTextViewModel: {
              text: { content: snippet.title },
              rendererContext: { accessibilityContext: { label: snippet.title } },
            },
          },
          image: {
            decoratedAvatarViewModel: {
              avatar: {
                avatarViewModel: {
                  image: { sources: [avatarSize(base, 72), avatarSize(base, 120), avatarSize(base, 160)] },
                  avatarImageSize: 'AVATAR_SIZE_XL',
                },
              },
              a11yLabel: snippet.title,
              rendererContext: {},
            },
          },
          metadata: { contentMetadataViewModel: { metadataRows, delimiter: ' • ' } },
          description: {
            descriptionPreviewViewModel: {
              description: { content: snippet.description.split('\n')[0] },
              maxLines: 1,
              truncationText: { content: '...more' },
              alwaysShowTruncationText: true,
              rendererContext: {},
            },
          },
          ...(bannerUrl
            ? {
                banner: {
                  imageBannerViewModel: {
                    image: {
                      sources: bannerWidths.map(([width, height]) => ({
                        url: `${bannerUrl}=w${width}-fcrop64=1,00005a57ffffa5a8-k-c0xffffffff-no-nd-rj`,
                        width,
                        height,
                      })),
                    },
                    style: 'IMAGE_BANNER_STYLE_DEFAULT',
                    rendererContext: {},
                  },
                },
              }
            : {}),
        },
      },
    },
  };
}

function channelMetadata(channel: GeneratedChannel): Record<string, unknown> {
  const { snippet, brandingSettings } = channel.resource;
  const vanity = `http://www.youtube.com/@${channel.handle}`;
  return {
    channelMetadataRenderer: {
      title: snippet.title,
      description: snippet.description,
      rssUrl: `https://www.youtube.com/feeds/videos.xml?channel_id=${channel.id}`,
      externalId: channel.id,
      // Keywords are left out when the channel has none, as on youtube.com.
      ...(brandingSettings.channel.keywords ? { keywords: brandingSettings.channel.keywords } : {}),
      ownerUrls: [vanity],
      avatar: { thumbnails: [avatarSize(avatarBase(channel), 900)] },
      channelUrl: `https://www.youtube.com/channel/${channel.id}`,
      isFamilySafe: true,
      androidDeepLink: `android-app://com.google.android.youtube/http/www.youtube.com/channel/${channel.id}`,
      androidAppindexingLink: `android-app://com.google.android.youtube/http/www.youtube.com/channel/${channel.id}`,
      iosAppindexingLink: `ios-app://544007664/vnd.youtube/www.youtube.com/channel/${channel.id}`,
      vanityChannelUrl: vanity,
    },
  };
}

function microformat(channel: GeneratedChannel): Record<string, unknown> {
  const { snippet } = channel.resource;
  return {
    microformatDataRenderer: {
      urlCanonical: `https://www.youtube.com/channel/${channel.id}`,
      title: snippet.title,
      // The page's short description (meta tags) stops at 160 characters; the metadata has it whole.
      description: snippet.description.length > 160 ? snippet.description.slice(0, 160) : snippet.description,
      thumbnail: { thumbnails: [avatarSize(avatarBase(channel), 200)] },
      siteName: 'YouTube',
      appName: 'YouTube',
      androidPackage: 'com.google.android.youtube',
      iosAppStoreId: '544007664',
      iosAppArguments: `https://www.youtube.com/channel/${channel.id}`,
      ogType: 'yt-fb-app:channel',
      urlApplinksWeb: `https://www.youtube.com/channel/${channel.id}?feature=applinks`,
      urlApplinksIos: `vnd.youtube://www.youtube.com/channel/${channel.id}?feature=applinks`,
      urlApplinksAndroid: `vnd.youtube://www.youtube.com/channel/${channel.id}?feature=applinks`,
      urlTwitterIos: `vnd.youtube://www.youtube.com/channel/${channel.id}?feature=twitter-deep-link`,
      urlTwitterAndroid: `vnd.youtube://www.youtube.com/channel/${channel.id}?feature=twitter-deep-link`,
      twitterCardType: 'summary',
      twitterSiteHandle: '@YouTube',
      schemaDotOrgType: 'http://schema.org/http://schema.org/YoutubeChannelV2',
      noindex: false,
      unlisted: false,
      familySafe: true,
      linkAlternates: [{ hrefUrl: `https://m.youtube.com/${channelUrlPath(channel).slice(1)}` }],
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Shorts items

function reelWatchEndpoint(channel: GeneratedChannel, index: number): Record<string, unknown> {
  const videoId = channel.videoId(index);
  return {
    clickTrackingParams: trackingParams(`${videoId}:tap`),
    commandMetadata: {
      webCommandMetadata: { url: `/shorts/${videoId}`, webPageType: 'WEB_PAGE_TYPE_SHORTS', rootVe: 37414 },
    },
    reelWatchEndpoint: {
      videoId,
      playerParams: '8AEBoAMEyAMkuAQS2AQB',
      // The full-size first frame; the only image of a current lockup item youtubei.js 18.1 exposes.
      thumbnail: {
        thumbnails: [{ url: `https://i.ytimg.com/vi/${videoId}/frame0.jpg`, width: 1080, height: 1920 }],
        isOriginalAspectRatio: true,
      },
      overlay: {
        reelPlayerOverlayRenderer: {
          style: 'REEL_PLAYER_OVERLAY_STYLE_SHORTS',
          trackingParams: trackingParams(`${videoId}:overlay`),
          reelPlayerNavigationModel: 'REEL_PLAYER_NAVIGATION_MODEL_UNSPECIFIED',
        },
      },
      params: 'CAYwAg%3D%3D',
      sequenceProvider: 'REEL_WATCH_SEQUENCE_PROVIDER_RPC',
      sequenceParams: Buffer.from(`fake-sequence:${videoId}:${channel.id}`).toString('base64'),
      loggingContext: {
        vssLoggingContext: { serializedContextData: 'CgIIDA%3D%3D' },
        qoeLoggingContext: { serializedContextData: 'CgIIDA%3D%3D' },
      },
      ustreamerConfig: 'CAwaAggB',
    },
  };
}

/** A lockup item's cover as youtube.com sends it since late 2024 (youtubei.js 18.1 does not read it). */
function lockupCover(videoId: string): Record<string, unknown> {
  const signature = Buffer.from(`fake-cover:${videoId}`).toString('base64url');
  return {
    thumbnailViewModel: {
      image: {
        sources: [
          {
            url: `https://i.ytimg.com/vi/${videoId}/oardefault.jpg?sqp=-oaymwEoCJUDENAFSFqQAgHyq4qpAxcIARUAAIhCcAHAAQbQAQHiAQQIABAB&rs=${signature}`,
            width: 405,
            height: 720,
          },
        ],
      },
      isShort: true,
      overlays: [],
      backgroundColor: { lightTheme: 2434341, darkTheme: 2434341 },
    },
  };
}

function shortItem(channel: GeneratedChannel, index: number): Record<string, unknown> {
  const video = channel.video(index);
  const videoId = video.id;
  const views = Number(video.statistics.viewCount);
  const title = video.snippet.title;
  const viewText = shortViewText(views);
  if (channel.spec.shortsItemShape === 'reel') {
    return {
      reelItemRenderer: {
        videoId,
        headline: { simpleText: title },
        thumbnail: {
          thumbnails: [{ url: `https://i.ytimg.com/vi/${videoId}/oar2.jpg`, width: 405, height: 720 }],
          isOriginalAspectRatio: true,
        },
        viewCountText: { accessibility: { accessibilityData: { label: spokenViews(views) } }, simpleText: viewText },
        navigationEndpoint: reelWatchEndpoint(channel, index),
        trackingParams: trackingParams(`${videoId}:reel`),
        accessibility: { accessibilityData: { label: `${title} - play video` } },
        style: 'REEL_ITEM_STYLE_AVATAR_CIRCLE',
        videoType: 'REEL_VIDEO_TYPE_VIDEO',
        loggingDirectives: {
          trackingParams: trackingParams(`${videoId}:reel`),
          visibility: { types: '12' },
          enableDisplayloggerExperiment: true,
        },
      },
    };
  }
  return {
    shortsLockupViewModel: {
      entityId: `shorts-shelf-item-${videoId}`,
      accessibilityText: `${title}, ${spokenViews(views)} - play Short`,
      // The cover YouTube shows (2026: oardefault.jpg, 405×720, signed by its sqp/rs query), left out
      // for ChannelSpec.shortsCover false: the reelWatchEndpoint's first frame is then the only image.
      ...(channel.spec.shortsCover === false ? {} : { thumbnailViewModel: lockupCover(videoId) }),
      onTap: { innertubeCommand: reelWatchEndpoint(channel, index) },
      inlinePlayerData: {
        onVisible: {
          innertubeCommand: {
            clickTrackingParams: trackingParams(`${videoId}:inline`),
            commandMetadata: {
              webCommandMetadata: {
                url: `/watch?v=${videoId}&pp=0gcJCYwJAYcqIYzv`,
                webPageType: 'WEB_PAGE_TYPE_WATCH',
                rootVe: 3832,
              },
            },
            watchEndpoint: { videoId, playerParams: '0gcJCYwJAYcqIYzv' },
          },
        },
      },
      menuOnTap: {
        innertubeCommand: {
          clickTrackingParams: trackingParams(`${videoId}:menu`),
          showSheetCommand: {
            panelLoadingStrategy: {
              inlineContent: { sheetViewModel: { content: { listViewModel: { listItems: [] } } } },
            },
          },
        },
      },
      indexInCollection: index,
      menuOnTapA11yLabel: 'More actions',
      overlayMetadata: { primaryText: { content: title }, secondaryText: { content: viewText } },
      loggingDirectives: {
        trackingParams: trackingParams(`${videoId}:lockup`),
        visibility: { types: '12' },
        enableDisplayloggerExperiment: true,
      },
    },
  };
}

function shortsItems(channel: GeneratedChannel, offset: number, malformed: boolean): unknown[] {
  const end = Math.min(channel.shortsCount, offset + SHORTS_PAGE_SIZE);
  const items: unknown[] = [];
  for (let index = offset; index < end; index++) {
    const item = shortItem(channel, index);
    // A layout change: items arrive in a shape youtubei.js has no parser for (and with no fields it knows).
    items.push({
      richItemRenderer: {
        content: malformed ? { shortsLockupViewModelV2: { entityId: `shorts-v2-${channel.videoId(index)}` } } : item,
        trackingParams: trackingParams(`${channel.id}:item:${index}`),
      },
    });
  }
  if (end < channel.shortsCount) {
    items.push({
      continuationItemRenderer: {
        trigger: 'CONTINUATION_TRIGGER_ON_ITEM_SHOWN',
        continuationEndpoint: {
          clickTrackingParams: trackingParams(`${channel.id}:continuation:${end}`),
          commandMetadata: { webCommandMetadata: { sendPost: true, apiUrl: '/youtubei/v1/browse' } },
          continuationCommand: {
            token: continuationToken(channel.id, end),
            request: 'CONTINUATION_REQUEST_TYPE_BROWSE',
          },
        },
      },
    });
  }
  return items;
}

function tabs(channel: GeneratedChannel, selected: TabName, malformed: boolean): unknown[] {
  const home = {
    tabRenderer: {
      endpoint: tabEndpoint(channel, 'featured'),
      title: 'Home',
      ...(selected === 'featured'
        ? {
            selected: true,
            content: {
              sectionListRenderer: {
                contents: [],
                trackingParams: trackingParams(`${channel.id}:home`),
                targetId: `browse-feed${channel.id}featured`,
              },
            },
          }
        : {}),
      trackingParams: trackingParams(`${channel.id}:tab:featured`),
    },
  };
  // A channel that never posted a Short has no Shorts tab at all.
  if (channel.shortsCount === 0) return [home];
  const shorts = {
    tabRenderer: {
      endpoint: tabEndpoint(channel, 'shorts'),
      title: 'Shorts',
      ...(selected === 'shorts'
        ? {
            selected: true,
            content: {
              richGridRenderer: {
                contents: shortsItems(channel, 0, malformed),
                trackingParams: trackingParams(`${channel.id}:grid`),
                targetId: `browse-feed${channel.id}shorts`,
                style: 'RICH_GRID_STYLE_SLIM',
              },
            },
          }
        : {}),
      trackingParams: trackingParams(`${channel.id}:tab:shorts`),
    },
  };
  return [home, shorts];
}

function channelPage(
  channel: GeneratedChannel,
  selected: TabName,
  visitorData: string | undefined,
  malformed: boolean,
): Record<string, unknown> {
  return {
    responseContext: responseContext(visitorData),
    contents: { twoColumnBrowseResultsRenderer: { tabs: tabs(channel, selected, malformed) } },
    header: pageHeader(channel),
    metadata: channelMetadata(channel),
    trackingParams: trackingParams(`${channel.id}:page`),
    microformat: microformat(channel),
  };
}

/** youtube.com's answer for a channel id it does not know, or one that was closed. */
function channelAlert(visitorData: string | undefined, text: string): Record<string, unknown> {
  return {
    responseContext: responseContext(visitorData),
    alerts: [{ alertRenderer: { type: 'ERROR', text: { simpleText: text } } }],
    trackingParams: trackingParams(`alert:${text}`),
  };
}

// ---------------------------------------------------------------------------------------------
// resolve_url

/** The channel a youtube.com address names: /@handle, /channel/UC…, /user/name, /c/name or /name. */
function channelForUrl(registry: ChannelRegistry, raw: string): GeneratedChannel | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (!/^(?:(?:www|m|music)\.)?youtube\.com$/i.test(url.hostname)) return undefined;
  let segments: string[];
  try {
    segments = url.pathname
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
  const [first, second] = segments;
  if (!first) return undefined;
  if (first.startsWith('@')) return registry.byHandle(first);
  if (first === 'channel') return second ? registry.byId(second) : undefined;
  if (first === 'user') return second ? registry.byUsername(second) : undefined;
  const vanity = first === 'c' ? second : first;
  if (!vanity || ['watch', 'shorts', 'playlist', 'results', 'feed'].includes(vanity)) return undefined;
  // A legacy vanity name resolves only as it was made, youtube.com/<name>; /c/<name> is 404.
  const legacy =
    first !== 'c'
      ? [...registry.all()].find((c) => c.spec.legacyVanity?.toLowerCase() === vanity.toLowerCase())
      : undefined;
  // Legacy custom URLs became handles; older ones are usernames or a customUrl of their own.
  return (
    legacy ??
    registry.byHandle(vanity) ??
    registry.byUsername(vanity) ??
    [...registry.all()].find(
      (c) => c.resource.snippet.customUrl.replace(/^@/, '').toLowerCase() === vanity.toLowerCase(),
    )
  );
}

function resolveUrl(registry: ChannelRegistry, body: Record<string, unknown>): InnertubeResult {
  if (typeof body.url !== 'string') return invalidArgument();
  const channel = channelForUrl(registry, body.url);
  if (!channel) return notFound();
  return {
    status: 200,
    body: {
      responseContext: responseContext(visitorDataOf(body)),
      endpoint: {
        clickTrackingParams: trackingParams(`resolve:${channel.id}`),
        commandMetadata: {
          webCommandMetadata: {
            url: `/channel/${channel.id}`,
            webPageType: 'WEB_PAGE_TYPE_CHANNEL',
            rootVe: 3611,
            apiUrl: '/youtubei/v1/browse',
          },
        },
        browseEndpoint: { browseId: channel.id, params: 'EgC4AQA%3D' },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// browse

function browse(registry: ChannelRegistry, body: Record<string, unknown>, malformed: boolean): InnertubeResult {
  const visitorData = visitorDataOf(body);
  if (typeof body.continuation === 'string') {
    const position = parseContinuationToken(body.continuation);
    const channel = position && registry.byId(position.browseId);
    if (!position || !channel || position.offset > channel.shortsCount) return invalidArgument();
    return {
      status: 200,
      body: {
        responseContext: responseContext(visitorData),
        trackingParams: trackingParams(`${channel.id}:continuation:${position.offset}`),
        onResponseReceivedActions: [
          {
            clickTrackingParams: trackingParams(`${channel.id}:append:${position.offset}`),
            appendContinuationItemsAction: {
              continuationItems: shortsItems(channel, position.offset, malformed),
              targetId: `browse-feed${channel.id}shorts`,
            },
          },
        ],
      },
    };
  }
  const browseId = body.browseId;
  if (typeof browseId !== 'string' || !browseId) return invalidArgument();
  if (!/^UC[A-Za-z0-9_-]{22}$/.test(browseId)) return invalidArgument();
  const channel = registry.byId(browseId);
  if (!channel) return { status: 200, body: channelAlert(visitorData, 'This channel does not exist.') };
  if (channel.spec.status)
    return {
      status: 200,
      body: channelAlert(
        visitorData,
        "This account has been terminated for a violation of YouTube's Terms of Service.",
      ),
    };
  const tab = tabOf(body.params);
  return {
    status: 200,
    body: channelPage(
      channel,
      tab === 'shorts' && channel.shortsCount > 0 ? 'shorts' : 'featured',
      visitorData,
      malformed,
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// player

/** What youtube.com answers the player for a session it takes for a bot. */
export function botCheck(body: Record<string, unknown>): InnertubeResult {
  const reason = 'Sign in to confirm you’re not a bot';
  return {
    status: 200,
    body: {
      responseContext: responseContext(visitorDataOf(body)),
      playabilityStatus: {
        status: 'LOGIN_REQUIRED',
        reason,
        errorScreen: {
          playerErrorMessageRenderer: {
            subreason: { runs: [{ text: 'This helps protect our community. ' }, { text: 'Learn more' }] },
            reason: { simpleText: reason },
            icon: { iconType: 'ERROR_OUTLINE' },
          },
        },
        contextParams: 'Q0FFU0FnZ0M=',
      },
      trackingParams: trackingParams('bot-check'),
    },
  };
}

function player(registry: ChannelRegistry, body: Record<string, unknown>): InnertubeResult {
  const videoId = body.videoId;
  if (typeof videoId !== 'string') return invalidArgument();
  const hit = registry.video(videoId);
  const visitorData = visitorDataOf(body);
  if (!hit || hit.channel.spec.status) {
    const reason = 'This video is unavailable';
    return {
      status: 200,
      body: {
        responseContext: responseContext(visitorData),
        playabilityStatus: {
          status: 'ERROR',
          reason,
          errorScreen: {
            playerErrorMessageRenderer: { reason: { simpleText: reason }, icon: { iconType: 'ERROR_OUTLINE' } },
          },
          contextParams: 'Q0FFU0FnZ0I=',
        },
        trackingParams: trackingParams(`unavailable:${videoId}`),
      },
    };
  }
  const { channel, index } = hit;
  const video = channel.video(index);
  // Sparse channels have no duration in the Data API; the player still sends lengthSeconds (0 when unknown).
  const seconds = video.contentDetails.duration ? String(durationSeconds(video.contentDetails.duration)) : '0';
  const published = pacificTimestamp(video.snippet.publishedAt);
  const base = `https://i.ytimg.com/vi/${video.id}`;
  return {
    status: 200,
    body: {
      responseContext: responseContext(visitorData),
      playabilityStatus: { status: 'OK', playableInEmbed: true, contextParams: 'Q0FFU0FnZ0I=' },
      videoDetails: {
        videoId: video.id,
        title: video.snippet.title,
        lengthSeconds: seconds,
        ...(video.snippet.tags ? { keywords: video.snippet.tags } : {}),
        channelId: channel.id,
        isOwnerViewing: false,
        shortDescription: video.snippet.description,
        isCrawlable: true,
        thumbnail: {
          thumbnails: [
            { url: `${base}/default.jpg`, width: 120, height: 90 },
            { url: `${base}/mqdefault.jpg`, width: 320, height: 180 },
            { url: `${base}/hqdefault.jpg`, width: 480, height: 360 },
            { url: `${base}/sddefault.jpg`, width: 640, height: 480 },
          ],
        },
        allowRatings: true,
        viewCount: video.statistics.viewCount,
        author: channel.resource.snippet.title,
        isPrivate: false,
        isUnpluggedCorpus: false,
        isLiveContent: false,
      },
      trackingParams: trackingParams(`player:${video.id}`),
      microformat: {
        playerMicroformatRenderer: {
          thumbnail: { thumbnails: [{ url: `${base}/hqdefault.jpg`, width: 480, height: 360 }] },
          embed: { iframeUrl: `https://www.youtube.com/embed/${video.id}`, width: 1280, height: 720 },
          title: { simpleText: video.snippet.title },
          description: { simpleText: video.snippet.description },
          lengthSeconds: seconds,
          ownerProfileUrl: `http://www.youtube.com/@${channel.handle}`,
          externalChannelId: channel.id,
          isFamilySafe: true,
          isUnlisted: false,
          hasYpcMetadata: false,
          viewCount: video.statistics.viewCount,
          category: CATEGORY_NAMES[video.snippet.categoryId] ?? 'People & Blogs',
          publishDate: published,
          ownerChannelName: channel.resource.snippet.title,
          uploadDate: published,
          isShortsEligible: true,
          externalVideoId: video.id,
          ...(video.statistics.likeCount ? { likeCount: video.statistics.likeCount } : {}),
          canonicalUrl: `https://www.youtube.com/shorts/${video.id}`,
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------

function visitorDataOf(body: Record<string, unknown>): string | undefined {
  const context = body.context as { client?: { visitorData?: unknown } } | undefined;
  return typeof context?.client?.visitorData === 'string' ? context.client.visitorData : undefined;
}

/** Every InnerTube request carries the client's context; YouTube refuses one without it. */
export function hasClientContext(body: Record<string, unknown>): boolean {
  const context = body.context as { client?: { clientName?: unknown; clientVersion?: unknown } } | undefined;
  return typeof context?.client?.clientName === 'string' && typeof context.client.clientVersion === 'string';
}

/** Whether a browse request asks for Shorts-tab items: the tab itself or one of its continuations. */
export function requestsShortsItems(body: Record<string, unknown>): boolean {
  return typeof body.continuation === 'string' || tabOf(body.params) === 'shorts';
}

export function handleInnertube(
  endpoint: InnertubeEndpoint,
  registry: ChannelRegistry,
  body: Record<string, unknown>,
  options: { malformedItems?: boolean } = {},
): InnertubeResult {
  switch (endpoint) {
    case 'config':
      // youtubei.js reads only configData and the cold/hot config hashes, and tolerates their absence.
      return {
        status: 200,
        body: {
          responseContext: { ...responseContext(visitorDataOf(body)), globalConfigGroup: {} },
          configData: Buffer.from('fake-config').toString('base64'),
        },
      };
    case 'resolve_url':
      return resolveUrl(registry, body);
    case 'browse':
      return browse(registry, body, options.malformedItems ?? false);
    case 'player':
      return player(registry, body);
  }
}

export { invalidArgument };
