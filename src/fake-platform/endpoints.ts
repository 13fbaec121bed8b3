// The four list methods, as pure functions of the query string: parameter checks in Google's
// order and words, part filtering, paging, and list envelopes with the property order of the live
// API (kind, etag, tokens, pageInfo/items).
import { sealEtag, type GeneratedChannel } from './channel-generator.ts';
import * as errors from './errors.ts';
import type { GoogleError } from './errors.ts';
import { etagFor } from './ids.ts';
import {
  parsePlaylistPageToken,
  parseSearchPageToken,
  playlistPageToken,
  searchPageToken,
  type PagePosition,
} from './page-tokens.ts';
import type { ChannelRegistry } from './registry.ts';

export type Endpoint = 'channels' | 'playlistItems' | 'videos' | 'search';
export const ENDPOINTS: readonly Endpoint[] = ['channels', 'playlistItems', 'videos', 'search'];

/** Units per call, as in Google's quota calculator. */
export const QUOTA_COST: Record<Endpoint, number> = { channels: 1, playlistItems: 1, videos: 1, search: 100 };

export interface Result {
  status: number;
  body: unknown;
}

const MAX_IDS = 50;
// Etag Google sends for an empty channel list (no items, resultsPerPage 5).
const EMPTY_LIST_ETAG = 'RuuXzTIr0OoDqI4S0RU6n4FqKEM';

// Parts this fake fills in, and parts Google knows but this fake leaves out of its answers.
const PARTS: Record<Endpoint, { served: string[]; known: string[] }> = {
  channels: {
    served: ['id', 'snippet', 'statistics', 'brandingSettings', 'contentDetails'],
    known: ['auditDetails', 'contentOwnerDetails', 'localizations', 'status', 'topicDetails'],
  },
  playlistItems: { served: ['id', 'snippet', 'contentDetails', 'status'], known: [] },
  videos: {
    served: ['id', 'snippet', 'statistics', 'contentDetails'],
    known: [
      'fileDetails',
      'liveStreamingDetails',
      'localizations',
      'paidProductPlacementDetails',
      'player',
      'processingDetails',
      'recordingDetails',
      'status',
      'suggestions',
      'topicDetails',
    ],
  },
  search: { served: ['id', 'snippet'], known: [] },
};

const isError = (value: unknown): value is GoogleError =>
  typeof value === 'object' && value !== null && 'body' in value && 'status' in value;

function parseParts(endpoint: Endpoint, params: URLSearchParams): Set<string> | GoogleError {
  const raw = params.get('part');
  const requested = (raw ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (requested.length === 0) return errors.missingPart();
  const { served, known } = PARTS[endpoint];
  const unknown = requested.find((p) => !served.includes(p) && !known.includes(p));
  return unknown ? errors.unknownPart(unknown) : new Set(requested);
}

/** maxResults: an unsigned integer from 0 to 50; absent means `fallback`. */
function parseMaxResults(params: URLSearchParams, fallback: number): number | GoogleError {
  const raw = params.get('maxResults');
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw.trim())) return errors.invalidUnsignedInteger('maxResults', raw);
  const value = Number(raw.trim());
  return value > 50 ? errors.valueOutOfRange('maxResults', raw, 0, 50) : value;
}

/** A method takes exactly one of its filter parameters; none or two are errors. */
function oneFilter(params: URLSearchParams, names: string[]): string | GoogleError {
  const present = names.filter((name) => params.has(name));
  if (present.length === 0) return errors.missingFilter(names);
  if (present.length > 1) return errors.incompatibleParameters(present);
  return present[0]!;
}

/** Blank entries are ignored and a repeated id is answered once. */
function idList(raw: string): string[] {
  return [
    ...new Set(
      raw
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
}

/** A copy with only the requested parts (kind, etag and id always stay); a partial copy gets its own etag. */
function withParts<T extends { kind: string; etag: string; id: unknown }>(
  resource: T,
  parts: Set<string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: resource.kind, etag: resource.etag, id: resource.id };
  let complete = true;
  for (const [key, value] of Object.entries(resource)) {
    if (key === 'kind' || key === 'etag' || key === 'id') continue;
    if (parts.has(key)) out[key] = value;
    else complete = false;
  }
  if (!complete) out.etag = etagFor(`${resource.etag}:${Object.keys(out).join(',')}`);
  return out;
}

interface Envelope {
  kind: string;
  items: unknown[];
  pageInfo: { totalResults: number; resultsPerPage: number };
  nextPageToken?: string;
  prevPageToken?: string;
  regionCode?: string;
  /** playlistItems and videos put pageInfo after items; channels and search before. */
  pageInfoLast?: boolean;
}

function envelope(e: Envelope): Record<string, unknown> {
  const fingerprint = JSON.stringify([
    e.kind,
    e.pageInfo,
    e.nextPageToken,
    e.prevPageToken,
    e.items.map((i) => (i as { etag: string }).etag),
  ]);
  const empty =
    e.items.length === 0 && e.pageInfo.totalResults === 0 && e.pageInfo.resultsPerPage === 5 && !e.nextPageToken;
  const body: Record<string, unknown> = { kind: e.kind, etag: empty ? EMPTY_LIST_ETAG : etagFor(fingerprint) };
  if (e.nextPageToken) body.nextPageToken = e.nextPageToken;
  if (e.prevPageToken) body.prevPageToken = e.prevPageToken;
  if (e.regionCode) body.regionCode = e.regionCode;
  // Google leaves the items key out of an empty list.
  if (e.pageInfoLast) {
    if (e.items.length > 0) body.items = e.items;
    body.pageInfo = e.pageInfo;
  } else {
    body.pageInfo = e.pageInfo;
    if (e.items.length > 0) body.items = e.items;
  }
  return body;
}

/** Which slice a page token (or its absence) selects, with the tokens of the neighbouring pages. */
function page(total: number, size: number, position: PagePosition | undefined, makeToken: (p: PagePosition) => string) {
  let start = position?.offset ?? 0;
  let end = Math.min(total, start + size);
  if (position?.backward) {
    end = Math.min(total, position.offset);
    start = Math.max(0, end - size);
  }
  return {
    start,
    end,
    nextPageToken: size > 0 && end < total ? makeToken({ offset: end, backward: false }) : undefined,
    prevPageToken: size > 0 && start > 0 ? makeToken({ offset: start, backward: true }) : undefined,
  };
}

function channels(registry: ChannelRegistry, params: URLSearchParams): Result | GoogleError {
  const parts = parseParts('channels', params);
  if (isError(parts)) return parts;
  const filter = oneFilter(params, ['categoryId', 'forHandle', 'forUsername', 'id', 'managedByMe', 'mine']);
  if (isError(filter)) return filter;
  const maxResults = parseMaxResults(params, 5);
  if (isError(maxResults)) return maxResults;
  const value = params.get(filter) ?? '';
  let found: GeneratedChannel[];
  switch (filter) {
    case 'id': {
      const ids = idList(value);
      if (ids.length > MAX_IDS) return errors.invalidFilters();
      found = ids.flatMap((id) => registry.byId(id) ?? []);
      break;
    }
    case 'forHandle':
      found = [registry.byHandle(value)].filter((c) => c !== undefined);
      break;
    case 'forUsername':
      found = [registry.byUsername(value)].filter((c) => c !== undefined);
      break;
    case 'mine':
    case 'managedByMe':
      return errors.authorizationRequired(filter);
    default:
      // categoryId (guide categories) was retired; it finds nothing.
      found = [];
  }
  const unavailable = found.find((c) => c.spec.status);
  if (unavailable)
    return errors.channelUnavailable(unavailable.spec.status === 'closed' ? 'channelClosed' : 'channelSuspended');
  const items = found.map((c) => withParts(c.resource, parts));
  // id lookups report as many results per page as they return; the others the default page size.
  const perPage = filter === 'id' ? items.length : maxResults;
  return {
    status: 200,
    body: envelope({
      kind: 'youtube#channelListResponse',
      items,
      pageInfo: { totalResults: items.length, resultsPerPage: perPage },
    }),
  };
}

function playlistItems(registry: ChannelRegistry, params: URLSearchParams): Result | GoogleError {
  const parts = parseParts('playlistItems', params);
  if (isError(parts)) return parts;
  const filter = oneFilter(params, ['id', 'playlistId']);
  if (isError(filter)) return filter;
  const maxResults = parseMaxResults(params, 5);
  if (isError(maxResults)) return maxResults;

  if (filter === 'id') {
    const ids = idList(params.get('id') ?? '');
    if (ids.length > MAX_IDS) return errors.invalidFilters();
    const items = ids.flatMap((itemId) => {
      const [playlistId, videoId] = Buffer.from(itemId, 'base64').toString('utf8').split('.');
      const playlist = playlistId ? registry.playlist(playlistId) : undefined;
      const video = videoId ? registry.video(videoId) : undefined;
      return playlist && video && video.channel === playlist.channel
        ? [withParts(playlist.channel.playlistItem(playlistId!, video.index), parts)]
        : [];
    });
    return {
      status: 200,
      body: envelope({
        kind: 'youtube#playlistItemListResponse',
        items,
        pageInfo: { totalResults: items.length, resultsPerPage: maxResults },
        pageInfoLast: true,
      }),
    };
  }

  const playlistId = params.get('playlistId') ?? '';
  const playlist = registry.playlist(playlistId);
  // A channel that never posted has no uploads (or Shorts) playlist at all.
  if (!playlist || playlist.channel.shortsCount === 0) return errors.playlistNotFound();
  if (playlist.channel.spec.status)
    return errors.channelUnavailable(playlist.channel.spec.status === 'closed' ? 'channelClosed' : 'channelSuspended');
  const total = playlist.channel.shortsCount;
  const token = params.get('pageToken');
  let position: PagePosition | undefined;
  if (token) {
    position = parsePlaylistPageToken(token);
    if (!position || position.offset > total) return errors.invalidPageToken();
  }
  const slice = page(total, maxResults, position, playlistPageToken);
  const items = [];
  for (let i = slice.start; i < slice.end; i++)
    items.push(withParts(playlist.channel.playlistItem(playlistId, i), parts));
  return {
    status: 200,
    body: envelope({
      kind: 'youtube#playlistItemListResponse',
      items,
      nextPageToken: slice.nextPageToken,
      prevPageToken: slice.prevPageToken,
      pageInfo: { totalResults: total, resultsPerPage: maxResults },
      pageInfoLast: true,
    }),
  };
}

function videos(registry: ChannelRegistry, params: URLSearchParams): Result | GoogleError {
  const parts = parseParts('videos', params);
  if (isError(parts)) return parts;
  const filter = oneFilter(params, ['chart', 'id', 'myRating']);
  if (isError(filter)) return filter;
  const maxResults = parseMaxResults(params, 5);
  if (isError(maxResults)) return maxResults;
  if (filter === 'myRating') return errors.authorizationRequired('myRating');
  if (filter === 'chart') {
    // No charts are simulated: the most-popular chart is empty.
    return {
      status: 200,
      body: envelope({
        kind: 'youtube#videoListResponse',
        items: [],
        pageInfo: { totalResults: 0, resultsPerPage: maxResults },
        pageInfoLast: true,
      }),
    };
  }
  const ids = idList(params.get('id') ?? '');
  if (ids.length > MAX_IDS) return errors.invalidFilters();
  // Unknown ids are left out silently; the rest come back in request order.
  const items = ids.flatMap((id) => {
    const hit = registry.video(id);
    return hit ? [withParts(hit.channel.video(hit.index), parts)] : [];
  });
  return {
    status: 200,
    body: envelope({
      kind: 'youtube#videoListResponse',
      items,
      pageInfo: { totalResults: items.length, resultsPerPage: items.length },
      pageInfoLast: true,
    }),
  };
}

function search(registry: ChannelRegistry, params: URLSearchParams): Result | GoogleError {
  const parts = parseParts('search', params);
  if (isError(parts)) return parts;
  const maxResults = parseMaxResults(params, 5);
  if (isError(maxResults)) return maxResults;
  const types = (params.get('type') ?? 'channel,playlist,video').split(',').map((t) => t.trim());
  const q = (params.get('q') ?? '').trim().toLowerCase();
  // Only channels are searchable here; a query restricted to videos or playlists finds nothing.
  const matches = types.includes('channel')
    ? [...registry.all()].filter(
        (c) =>
          !q ||
          [c.handle, c.resource.snippet.title, c.resource.snippet.customUrl].some((v) => v.toLowerCase().includes(q)),
      )
    : [];
  const token = params.get('pageToken');
  let position: PagePosition | undefined;
  if (token) {
    position = parseSearchPageToken(token);
    if (!position || position.offset > matches.length) return errors.invalidPageToken();
  }
  const slice = page(matches.length, maxResults, position, searchPageToken);
  const items = matches.slice(slice.start, slice.end).map((c) => {
    const s = c.resource.snippet;
    const result = {
      kind: 'youtube#searchResult',
      etag: '',
      id: { kind: 'youtube#channel', channelId: c.id },
      snippet: {
        publishedAt: s.publishedAt,
        channelId: c.id,
        title: s.title,
        description: s.description,
        // Search results carry channel avatars as bare URLs, without sizes.
        thumbnails: Object.fromEntries(Object.entries(s.thumbnails).map(([size, t]) => [size, { url: t.url }])),
        channelTitle: s.title,
        liveBroadcastContent: 'none',
        publishTime: s.publishedAt,
      },
    };
    return withParts(sealEtag(result), parts);
  });
  return {
    status: 200,
    body: envelope({
      kind: 'youtube#searchListResponse',
      items,
      nextPageToken: slice.nextPageToken,
      prevPageToken: slice.prevPageToken,
      regionCode: 'US',
      pageInfo: { totalResults: matches.length, resultsPerPage: maxResults },
    }),
  };
}

const HANDLERS: Record<Endpoint, (registry: ChannelRegistry, params: URLSearchParams) => Result | GoogleError> = {
  channels,
  playlistItems,
  videos,
  search,
};

export function handle(endpoint: Endpoint, registry: ChannelRegistry, params: URLSearchParams): Result {
  return HANDLERS[endpoint](registry, params);
}
