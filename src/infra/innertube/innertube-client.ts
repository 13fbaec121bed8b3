// A small adapter over youtubei.js (18.x), the maintained InnerTube client: resolution of any channel
// address, the channel page, its Shorts tab page by page, and one video's player data — in plain
// objects of our own, with every failure mapped onto one error type with a kind.
//
// youtubei.js parses; this file only picks fields from its parsed nodes. The one exception is
// documented at `lockupCovers`: youtubei.js 18.1 reads no image from current shortsLockupViewModel
// items, so their cover is read from the raw answer the library parsed.
//
// Every HTTP request of the library goes through our own fetch (innertube-fetch.ts): rewritten to
// the configured base URL, with a timeout and a report per call, and non-2xx answers turned into
// typed failures before the library sees them.
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
// First: the undici package's classes as the globals youtubei.js reads when it loads (http-globals.ts).
import '../http-globals.ts';
import { Agent, type Dispatcher, ProxyAgent } from 'undici';
import { Innertube, Misc, NavigateAction, Parser, Utils, YT, YTNodes } from 'youtubei.js';
import {
  CallFailure,
  type FetchTarget,
  fetchThrough,
  type InnertubeCallReport,
  YOUTUBE_ORIGIN,
} from './innertube-fetch.ts';

import type {
  InnertubeChannel,
  InnertubeClient,
  InnertubeFailureKind,
  InnertubeShortItem,
  InnertubeShortsPage,
  InnertubeThumbnail,
  InnertubeVideo,
} from './innertube-types.ts';
export type { InnertubeCallReport, InnertubeClient, InnertubeFailureKind, InnertubeShortItem, InnertubeShortsPage };

export class InnertubeError extends Error {
  readonly kind: InnertubeFailureKind;
  /** The InnerTube endpoint whose call failed (resolve_url, browse, player), when one did. */
  readonly endpoint?: string;
  /** HTTP status of the failed call, when there was one. */
  readonly status?: number;

  constructor(
    kind: InnertubeFailureKind,
    message: string,
    options: { endpoint?: string; status?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'InnertubeError';
    this.kind = kind;
    if (options.endpoint !== undefined) this.endpoint = options.endpoint;
    if (options.status !== undefined) this.status = options.status;
  }
}

export interface InnertubeClientOptions {
  /** Stands for https://www.youtube.com, e.g. the fake platform's innertubeBaseUrl. */
  baseUrl: string;
  /** Per HTTP call, body included. */
  timeoutMs: number;
  onCall?: (call: InnertubeCallReport) => void;
  /** A Shorts-tab continuation that failed transiently: default 2 retries, from 500 ms. */
  pageRetry?: RetryPolicy;
  /** Each operation's outcome (a Shorts-tab page is one): the source's health. */
  onOutcome?: (outcome: InnertubeOutcome) => void;
  /**
   * An HTTP(S) proxy every InnerTube call goes through (http://user:pass@host:port), for addresses
   * YouTube blocks: each call is a CONNECT tunnel through it, as https://www.youtube.com needs.
   */
  proxyUrl?: string | undefined;
}

/**
 * The Shorts tab's browse params as the web client sends them (NewPipe hard-codes the same): asking
 * for the tab directly saves the channel-page call. Should YouTube stop honouring them, the answer is
 * the Home tab, and the tab's own endpoint from that page is followed instead.
 */
const SHORTS_TAB_PARAMS = 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D';

// ---------------------------------------------------------------------------------------------
// Display counts

const MULTIPLIERS: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, million: 1e6, b: 1e9, billion: 1e9 };

/**
 * The number a display text stands for: "2.9M views" → 2,900,000, "4.32m subscribers", "895k views",
 * "1,234 views", "1 view", "No views" → 0. Case-insensitive, with or without decimals. Rounded texts
 * give approximate numbers. undefined when the text holds no count.
 */
export function parseDisplayCount(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (/^no\s/i.test(trimmed)) return 0;
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?\s*(k|m|b|thousand|million|billion)?(?![a-z])/i.exec(trimmed);
  if (!match) return undefined;
  const value = Number(`${match[1]!.replaceAll(',', '')}.${match[2] ?? '0'}`);
  const multiplier = match[3] ? MULTIPLIERS[match[3].toLowerCase()]! : 1;
  // 4.32 × 1e6 is 4320000.000000001 in floating point.
  return Math.round(value * multiplier);
}

// ---------------------------------------------------------------------------------------------
// Failures

function findInChain<T>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof type) return current;
  }
  return undefined;
}

function fromCallFailure(failure: CallFailure): InnertubeError {
  const { endpoint, status } = failure;
  const options = { endpoint, status, cause: failure };
  if (failure.reason === 'timeout') return new InnertubeError('timeout', failure.message, { endpoint, cause: failure });
  if (failure.reason === 'network')
    return new InnertubeError('unavailable', failure.message, { endpoint, cause: failure });
  if (failure.reason === 'consent') return new InnertubeError('consent', failure.message, options);
  if (status === 429)
    return new InnertubeError('rate-limited', `YouTube rate-limited the ${endpoint} call (HTTP 429).`, options);
  // YouTube answers 403 to sessions and addresses it blocks outright: the same trouble as its bot check.
  if (status === 403)
    return new InnertubeError('bot-check', `YouTube refused the ${endpoint} call (HTTP 403).`, options);
  return new InnertubeError('http-error', `YouTube answered the ${endpoint} call with HTTP ${status}.`, options);
}

/**
 * What any error thrown while the library worked means. Our own failures carry their kind; anything
 * else the library threw (InnertubeError "Invalid channel", a TypeError on a missing node, a JSON
 * syntax error) means the answer did not have the shape it expects: 'parse'.
 */
function classify(error: unknown, what: string): InnertubeError {
  const own = findInChain(error, InnertubeError);
  if (own) return own;
  const failure = findInChain(error, CallFailure);
  if (failure) return fromCallFailure(failure);
  const detail = error instanceof Error ? error.message : String(error);
  return new InnertubeError('parse', `Could not read YouTube's answer for ${what}: ${detail}`, { cause: error });
}

// youtubei.js reports nodes it cannot parse to one process-wide handler and carries on without them
// (by default it prints a warning). Ours files each report under the operation that caused it —
// parsing runs synchronously inside that operation's async context — so a layout change surfaces as
// a 'parse' failure of that operation instead of a console message and silently missing items.
interface OperationContext {
  parserErrors: string[];
}
const operations = new AsyncLocalStorage<OperationContext>();
Parser.setParserErrorHandler((context) => {
  operations.getStore()?.parserErrors.push(`${context.classname} (${context.error_type})`);
});

/** An operation's outcome, for the source's health: the endpoint it reads, and its failure when it failed. */
export interface InnertubeOutcome {
  endpoint: 'resolve_url' | 'browse' | 'player';
  failure?: InnertubeError;
}
type OutcomeObserver = ((outcome: InnertubeOutcome) => void) | undefined;

async function operation<T>(
  what: string,
  work: (context: OperationContext) => Promise<T>,
  observe?: { endpoint: InnertubeOutcome['endpoint']; onOutcome: OutcomeObserver },
): Promise<T> {
  const context: OperationContext = { parserErrors: [] };
  try {
    const value = await operations.run(context, () => work(context));
    observe?.onOutcome?.({ endpoint: observe.endpoint });
    return value;
  } catch (error) {
    const failure = classify(error, what);
    observe?.onOutcome?.({ endpoint: observe.endpoint, failure });
    throw failure;
  }
}

// ---------------------------------------------------------------------------------------------
// Field picking

function thumbnails(
  list: ReadonlyArray<{ url: string; width?: number; height?: number }> | undefined,
): InnertubeThumbnail[] {
  const seen = new Set<string>();
  const out: InnertubeThumbnail[] = [];
  for (const t of list ?? []) {
    if (typeof t.url !== 'string' || !t.url || seen.has(t.url)) continue;
    seen.add(t.url);
    out.push({
      url: t.url,
      ...(Number.isFinite(t.width) ? { width: t.width } : {}),
      ...(Number.isFinite(t.height) ? { height: t.height } : {}),
    });
  }
  return out;
}

/** Plain text of a parsed Text, or undefined (Text#toString() says "N/A" for an empty one). */
function textOf(text: { text?: string } | undefined | null): string | undefined {
  const value = text?.text?.trim();
  return value ? value : undefined;
}

/** A count text with its parsed number, both absent when there is none. */
function counted(text: string | undefined): { text?: string; count?: number } {
  if (!text) return {};
  const count = parseDisplayCount(text);
  return count === undefined ? { text } : { text, count };
}

function channelFromPage(id: string, page: YT.Channel): InnertubeChannel {
  const metadata = page.page.metadata?.item()?.as(YTNodes.ChannelMetadata);
  if (!metadata)
    throw new InnertubeError('parse', `The channel page of ${id} has no channel metadata.`, { endpoint: 'browse' });
  const header = page.header;
  let handle: string | undefined;
  let subscribers: string | undefined;
  let videos: string | undefined;
  const avatar: InnertubeThumbnail[] = [];
  const banner: InnertubeThumbnail[] = [];
  if (header?.is(YTNodes.PageHeader)) {
    // The current header: rows of parts, "@handle" on one, "1.2M subscribers" and "120 videos" on another.
    const view = header.content;
    for (const row of view?.metadata?.metadata_rows ?? []) {
      for (const part of row.metadata_parts ?? []) {
        const text = textOf(part.text ?? undefined);
        if (!text) continue;
        if (text.startsWith('@')) handle ??= text;
        else if (/subscriber/i.test(text)) subscribers ??= text;
        else if (/\bvideos?\b/i.test(text)) videos ??= text;
      }
    }
    const image = view?.image;
    if (image?.is(YTNodes.DecoratedAvatarView)) avatar.push(...thumbnails(image.avatar?.image));
    else if (image?.is(YTNodes.ContentPreviewImageView)) avatar.push(...thumbnails(image.image));
    banner.push(...thumbnails(view?.banner?.image));
  } else if (header?.is(YTNodes.C4TabbedHeader)) {
    // The header channels had until 2024, still served in places.
    handle = textOf(header.channel_handle);
    subscribers = textOf(header.subscribers);
    videos = textOf(header.videos_count);
    avatar.push(...thumbnails(header.author?.thumbnails));
    banner.push(...thumbnails(header.banner));
  }
  // The vanity URL names the handle too (http://www.youtube.com/@name) when the header does not.
  handle ??= /\/(@[^/?#]+)$/.exec(metadata.vanity_channel_url ?? '')?.[1];
  const subscriberCount = counted(subscribers);
  const videoCount = counted(videos);
  const channel: InnertubeChannel = {
    id: metadata.external_id || id,
    avatar: thumbnails([...avatar, ...metadata.avatar]).sort((a, b) => (b.width ?? 0) - (a.width ?? 0)),
    banner: thumbnails(banner).sort((a, b) => (b.width ?? 0) - (a.width ?? 0)),
  };
  if (metadata.title) channel.title = metadata.title;
  // The metadata holds the whole description; page.metadata.description is the microformat's, cut at 160.
  if (metadata.description) channel.description = metadata.description;
  if (handle) channel.handle = handle;
  if (subscriberCount.text) channel.subscriberCountText = subscriberCount.text;
  if (subscriberCount.count !== undefined) channel.subscriberCount = subscriberCount.count;
  if (videoCount.text) channel.videoCountText = videoCount.text;
  if (videoCount.count !== undefined) channel.videoCount = videoCount.count;
  // Typed string[] by the library, but it passes YouTube's value through: one space-separated string
  // with multi-word keywords in quotes. Kept as YouTube wrote it (the Data API's brandingSettings form).
  const keywords: unknown = metadata.keywords;
  if (typeof keywords === 'string' && keywords.trim()) channel.keywords = keywords.trim();
  else if (Array.isArray(keywords) && keywords.length)
    channel.keywords = keywords.map((k) => (/\s/.test(String(k)) ? `"${k}"` : String(k))).join(' ');
  return channel;
}

/** Cover images of a Shorts-tab answer's lockup items, by video id (see lockupCovers). */
type Covers = ReadonlyMap<string, InnertubeThumbnail[]>;

/**
 * The cover YouTube lists for each current Shorts-tab item, read from the raw answer: youtubei.js
 * 18.1 reads a lockup's image from `thumbnail.sources`, which items no longer carry; since late
 * 2024 it sits in `thumbnailViewModel.thumbnailViewModel.image.sources` (oardefault.jpg, 405×720),
 * which the library does not parse. The image on the item's reelWatchEndpoint is the video's first
 * frame (frame0.jpg), not its cover: only the fallback (shortThumbnails). Remove once the library
 * reads the new shape.
 */
function lockupCovers(data: unknown): Covers {
  const covers = new Map<string, InnertubeThumbnail[]>();
  const visit = (node: unknown, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > 40) return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child, depth + 1);
      return;
    }
    const lockup = (node as { shortsLockupViewModel?: RawLockup }).shortsLockupViewModel;
    if (lockup && typeof lockup === 'object') {
      const id = lockup.onTap?.innertubeCommand?.reelWatchEndpoint?.videoId;
      const sources = lockup.thumbnailViewModel?.thumbnailViewModel?.image?.sources;
      if (typeof id === 'string' && Array.isArray(sources)) covers.set(id, thumbnails(sources));
      return;
    }
    for (const value of Object.values(node)) visit(value, depth + 1);
  };
  visit(data, 0);
  return covers;
}

/** The raw fields of a shortsLockupViewModel that lockupCovers reads. */
interface RawLockup {
  onTap?: { innertubeCommand?: { reelWatchEndpoint?: { videoId?: unknown } } };
  thumbnailViewModel?: {
    thumbnailViewModel?: { image?: { sources?: Array<{ url: string; width?: number; height?: number }> } };
  };
}

/**
 * A lockup item's images: what the library read (older lockups), else the cover from the raw answer,
 * else the first frame on the item's reelWatchEndpoint (read through the library's own Thumbnail
 * parser), for an item that lists no cover.
 */
function shortThumbnails(
  item: YTNodes.ShortsLockupView,
  cover: InnertubeThumbnail[] | undefined,
): InnertubeThumbnail[] {
  const own = thumbnails(item.thumbnail);
  if (own.length > 0) return own;
  if (cover?.length) return cover;
  const payload = item.on_tap_endpoint?.payload as { thumbnail?: unknown } | undefined;
  return thumbnails(
    Misc.Thumbnail.fromResponse(payload?.thumbnail as Parameters<typeof Misc.Thumbnail.fromResponse>[0]),
  );
}

function shortItem(node: YTNodes.ShortsLockupView | YTNodes.ReelItem, covers: Covers): InnertubeShortItem | undefined {
  let item: InnertubeShortItem;
  if (node.is(YTNodes.ReelItem)) {
    item = { id: node.id, thumbnails: thumbnails(node.thumbnails) };
    const title = textOf(node.title);
    if (title) item.title = title;
    const views = counted(textOf(node.views));
    if (views.text) item.viewCountText = views.text;
    if (views.count !== undefined) item.viewCount = views.count;
  } else {
    const videoId = (node.on_tap_endpoint?.payload as { videoId?: unknown } | undefined)?.videoId;
    if (typeof videoId !== 'string') return undefined;
    item = { id: videoId, thumbnails: shortThumbnails(node, covers.get(videoId)) };
    const title = textOf(node.overlay_metadata?.primary_text);
    if (title) item.title = title;
    const views = counted(textOf(node.overlay_metadata?.secondary_text));
    if (views.text) item.viewCountText = views.text;
    if (views.count !== undefined) item.viewCount = views.count;
  }
  return /^[A-Za-z0-9_-]{11}$/.test(item.id) ? item : undefined;
}

/** A Shorts-tab page or continuation as youtubei.js parsed it. */
type ShortsFeed = YT.Channel | YT.ChannelListContinuation;

function shortsItems(
  feed: ShortsFeed,
  context: OperationContext,
  channelId: string,
  covers: Covers,
): InnertubeShortItem[] {
  // Strict on purpose: a grid cell the library could not read, or did not recognise as a Short, means
  // YouTube changed the layout. Returning the rest would silently drop Shorts; a 'parse' failure lets
  // the caller fall back to another source.
  const cells = feed.memo.getType(YTNodes.RichItem);
  const items: InnertubeShortItem[] = [];
  for (const cell of cells) {
    const content = cell.content;
    const item = content?.is(YTNodes.ShortsLockupView, YTNodes.ReelItem) ? shortItem(content, covers) : undefined;
    if (!item) {
      const what = content
        ? content.type
        : `unparsed content${context.parserErrors.length ? ` (${context.parserErrors.slice(0, 3).join(', ')})` : ''}`;
      throw new InnertubeError(
        'parse',
        `The Shorts tab of ${channelId} holds an item youtubei.js does not read as a Short: ${what}.`,
        { endpoint: 'browse' },
      );
    }
    items.push(item);
  }
  if (cells.length === 0 && context.parserErrors.length > 0) {
    throw new InnertubeError(
      'parse',
      `The Shorts tab of ${channelId} could not be parsed: ${context.parserErrors.slice(0, 3).join(', ')}.`,
      { endpoint: 'browse' },
    );
  }
  return items;
}

function lastPage(): InnertubeShortsPage {
  return { items: [], hasMore: false, next: async () => lastPage() };
}

// Reading ahead. youtubei.js parses a page before it tells the next page's continuation, and
// parsing 48 Shorts took the service 8-15 ms per page: with the request for the following page
// waiting on it, every step of a cold hybrid read cost that on top of YouTube's latency (4.1-4.4 s
// for 3,000 shorts against a 3.3 s sequential bound). So a continuation page is fetched unparsed;
// when its caller reads on (next({ readAhead: true })), the continuation its raw answer names is
// requested at once, then the page is parsed. The parsed page still decides: its own continuation
// (the library's choice) must be the one requested ahead, otherwise that answer is dropped and the
// page's continuation is fetched as before.

/** The continuation the library follows from a page: the first one outside the header (Feed#getContinuationData). */
function continuationOf(feed: ShortsFeed): YTNodes.NavigationEndpoint | undefined {
  const header: unknown[] =
    feed.page.header_memo?.getType(YTNodes.ContinuationItem, YTNodes.ContinuationItemView) ?? [];
  return feed.memo
    .getType(YTNodes.ContinuationItem, YTNodes.ContinuationItemView)
    .find((item) => !header.includes(item))?.endpoint;
}

const tokenOf = (endpoint: YTNodes.NavigationEndpoint | undefined) =>
  (endpoint?.payload as { token?: unknown } | undefined)?.token;

/** The first continuation endpoint named by a raw continuation answer (appended or reloaded items), unparsed. */
function rawContinuation(data: unknown): Record<string, unknown> | undefined {
  const actions = (data as { onResponseReceivedActions?: unknown[] } | null)?.onResponseReceivedActions;
  for (const action of Array.isArray(actions) ? actions : []) {
    const holder = (action as Record<string, { continuationItems?: unknown[] } | undefined>) ?? {};
    const items =
      holder.appendContinuationItemsAction?.continuationItems ??
      holder.reloadContinuationItemsCommand?.continuationItems;
    for (const item of Array.isArray(items) ? items : []) {
      const endpoint = (item as { continuationItemRenderer?: { continuationEndpoint?: Record<string, unknown> } })
        .continuationItemRenderer?.continuationEndpoint;
      if (endpoint) return endpoint;
    }
  }
  return undefined;
}

/** A continuation's answer, unparsed; requested ahead of the page that names it. */
interface Ahead {
  token: unknown;
  data: Promise<unknown>;
}

async function fetchRaw(endpoint: YTNodes.NavigationEndpoint, feed: ShortsFeed): Promise<unknown> {
  const response = (await endpoint.call(feed.actions, { parse: false })) as { data: unknown };
  return response.data;
}

function readAhead(data: unknown, feed: ShortsFeed): Ahead | undefined {
  const raw = rawContinuation(data);
  if (!raw) return undefined;
  const endpoint = new YTNodes.NavigationEndpoint(raw);
  const ahead = { token: tokenOf(endpoint), data: fetchRaw(endpoint, feed) };
  ahead.data.catch(() => {}); // its error surfaces when the page is asked for (or never)
  return ahead;
}

type Parsed = ReturnType<typeof Parser.parseResponse>;

/**
 * A raw browse answer parsed as the library parses it (Actions#execute, a redirect followed), with
 * the covers of its lockup items; a redirect's answer is parsed by the library, so its items fall
 * back to their first frames.
 */
async function parseBrowse(
  data: unknown,
  actions: ShortsFeed['actions'],
): Promise<{ parsed: Parsed; covers: Covers; redirected: boolean }> {
  const parsed = Parser.parseResponse(data as Parameters<typeof Parser.parseResponse>[0]);
  const navigate = parsed.on_response_received_actions?.firstOfType(NavigateAction);
  if (navigate)
    return { parsed: await navigate.endpoint.call(actions, { parse: true }), covers: new Map(), redirected: true };
  return { parsed, covers: lockupCovers(data), redirected: false };
}

/** A continuation page from its raw answer, inside its operation (parser errors are the operation's). */
async function continuationPage(
  data: unknown,
  feed: ShortsFeed,
  context: OperationContext,
  channelId: string,
  ahead: boolean,
  paging: Paging,
): Promise<InnertubeShortsPage> {
  const following = ahead ? readAhead(data, feed) : undefined;
  // Let the request leave before parsing holds the event loop for milliseconds.
  if (following) await new Promise((resolve) => setTimeout(resolve, 1));
  const { parsed, covers, redirected } = await parseBrowse(data, feed.actions);
  return shortsPage(
    new YT.ChannelListContinuation(feed.actions, parsed, true),
    context,
    channelId,
    paging,
    covers,
    redirected ? undefined : following,
  );
}

/** What every page of a Shorts tab is read with: the retry policy and the outcome observer. */
interface Paging {
  retry: RetryPolicy;
  onOutcome: OutcomeObserver;
}

/** How a continuation page that failed is asked for again. */
export interface RetryPolicy {
  /** Further attempts after the first (0: none). */
  retries: number;
  /** The pause before the first retry, doubled before each next one. */
  backoffMs: number;
}

/**
 * Failures a moment later may not repeat: no answer, a 5xx, a 429. A block (bot check, consent), a
 * 4xx or a page the library cannot read would be answered the same again.
 */
function isTransient(error: InnertubeError): boolean {
  if (error.kind === 'timeout' || error.kind === 'unavailable' || error.kind === 'rate-limited') return true;
  return error.kind === 'http-error' && (error.status ?? 0) >= 500;
}

/**
 * A continuation's raw answer: the one asked ahead when there is one, else a call; a transient
 * failure is asked again after a pause (jittered, doubling), at most `retries` times.
 */
async function continuationData(
  endpoint: YTNodes.NavigationEndpoint,
  feed: ShortsFeed,
  ahead: Promise<unknown> | undefined,
  retry: RetryPolicy,
  what: string,
): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await (attempt === 0 && ahead ? ahead : fetchRaw(endpoint, feed));
    } catch (error) {
      const failure = classify(error, what);
      if (attempt >= retry.retries || !isTransient(failure)) throw failure;
      const pause = retry.backoffMs * 2 ** attempt;
      await sleep(pause / 2 + Math.random() * (pause / 2));
    }
  }
}

function shortsPage(
  feed: ShortsFeed,
  context: OperationContext,
  channelId: string,
  paging: Paging,
  covers: Covers,
  ahead?: Ahead,
): InnertubeShortsPage {
  const items = shortsItems(feed, context, channelId, covers);
  const hasMore = feed.has_continuation;
  let nextPage: Promise<InnertubeShortsPage> | undefined;
  // Asked ahead and not the page's own continuation: never used (its failure was already caught).
  const endpoint = continuationOf(feed);
  const usable = ahead && ahead.token !== undefined && ahead.token === tokenOf(endpoint) ? ahead : undefined;
  return {
    items,
    hasMore,
    // One request per page however often next() is called; after a failure, the next call retries.
    next(options) {
      if (!hasMore || !endpoint) return Promise.resolve(lastPage());
      const what = `the Shorts of ${channelId}`;
      nextPage ??= operation(
        what,
        async (ctx) => {
          const data = await continuationData(endpoint, feed, usable?.data, paging.retry, what);
          return continuationPage(data, feed, ctx, channelId, options?.readAhead === true, paging);
        },
        { endpoint: 'browse', onOutcome: paging.onOutcome },
      ).catch((error: unknown) => {
        nextPage = undefined;
        throw error;
      });
      return nextPage;
    },
  };
}

/** "2026-06-01T05:00:00-07:00" → "2026-06-01T12:00:00Z"; a bare date stays as it is. */
function isoTimestamp(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

// ---------------------------------------------------------------------------------------------

/**
 * A channel's page, or undefined for an ERROR alert instead of a page ("This channel does not exist.", a terminated
 * account).
 */
async function channelPage(yt: Innertube, id: string): Promise<YT.Channel | undefined> {
  try {
    return await yt.getChannel(id);
  } catch (error) {
    if (error instanceof Utils.ChannelError) return undefined;
    throw error;
  }
}

/**
 * The channel id an address stands for. An address YouTube knows under another URL answers a
 * urlEndpoint: it is followed (NewPipe does up to three hops), but only to youtube.com. A video, a
 * playlist or a search page is not a channel: undefined.
 */
async function resolveChannelId(yt: Innertube, url: string): Promise<string | undefined> {
  let current = url;
  for (let hop = 0; hop < 3; hop++) {
    let endpoint: YTNodes.NavigationEndpoint;
    try {
      endpoint = await yt.resolveURL(current);
    } catch (error) {
      // An address YouTube does not know answers 404.
      if (findInChain(error, CallFailure)?.status === 404) return undefined;
      throw error;
    }
    const payload = endpoint.payload as { browseId?: unknown; url?: unknown };
    if (endpoint.name === 'browseEndpoint' && typeof payload.browseId === 'string') {
      return /^UC[A-Za-z0-9_-]{22}$/.test(payload.browseId) ? payload.browseId : undefined;
    }
    if (endpoint.name !== 'urlEndpoint' || typeof payload.url !== 'string') return undefined;
    const next = new URL(payload.url, YOUTUBE_ORIGIN);
    if (!/(^|\.)youtube\.com$/i.test(next.hostname) || next.href === current) return undefined;
    current = next.href;
  }
  return undefined;
}

async function fetchRawPage(endpoint: YTNodes.NavigationEndpoint, actions: ShortsFeed['actions']): Promise<unknown> {
  return ((await endpoint.call(actions, { parse: false })) as { data: unknown }).data;
}

/** The Shorts tab from a channel page on another tab (its params were not honoured): its own endpoint. */
async function shortsTab(yt: Innertube, page: YT.Channel): Promise<{ page: YT.Channel; covers: Covers }> {
  const tab = page.page.contents_memo
    ?.getType(YTNodes.Tab)
    .find((t) => t.endpoint.metadata.url?.split('/').pop() === 'shorts');
  if (!tab) return { page: await page.getShorts(), covers: new Map() };
  const browsed = await parseBrowse(await fetchRawPage(tab.endpoint, yt.actions), yt.actions);
  return { page: new YT.Channel(yt.actions, browsed.parsed, true), covers: browsed.covers };
}

/** The channel and the first page of its Shorts tab; a channel that never posted a Short has no tab. */
async function readShorts(
  yt: Innertube,
  id: string,
  context: OperationContext,
  paging: Paging,
): Promise<InnertubeShortsPage & { channel: InnertubeChannel }> {
  let page: YT.Channel;
  let covers: Covers;
  try {
    const endpoint = new YTNodes.NavigationEndpoint({
      browseEndpoint: { browseId: id, params: SHORTS_TAB_PARAMS },
    });
    const browsed = await parseBrowse(await fetchRawPage(endpoint, yt.actions), yt.actions);
    covers = browsed.covers;
    page = new YT.Channel(yt.actions, browsed.parsed, true);
  } catch (error) {
    if (error instanceof Utils.ChannelError)
      throw new InnertubeError('http-error', `YouTube has no channel ${id} (it does not exist or was terminated).`, {
        endpoint: 'browse',
        cause: error,
      });
    throw error;
  }
  const channel = channelFromPage(id, page);
  const onShortsTab =
    page.current_tab?.is(YTNodes.Tab) && page.current_tab.endpoint.metadata.url?.split('/').pop() === 'shorts';
  if (!onShortsTab && !page.has_shorts) return { ...lastPage(), channel };
  const first = onShortsTab ? { page, covers } : await shortsTab(yt, page);
  return { ...shortsPage(first.page, context, id, paging, first.covers), channel };
}

/** One video's player data; undefined when YouTube says it is unavailable, private or removed. */
async function readVideo(yt: Innertube, id: string): Promise<InnertubeVideo | undefined> {
  let info: YT.VideoInfo;
  try {
    info = await yt.getBasicInfo(id);
  } catch (error) {
    // playabilityStatus ERROR ("This video is unavailable") is thrown by the library itself.
    const status = (error as { info?: { status?: unknown } }).info?.status;
    if (!findInChain(error, CallFailure) && status === 'ERROR') return undefined;
    throw error;
  }
  const playability = info.playability_status;
  const reason = playability?.reason ?? '';
  if (/not a bot/i.test(reason))
    throw new InnertubeError('bot-check', `YouTube asks to sign in to confirm this is not a bot (player, ${id}).`, {
      endpoint: 'player',
    });
  if (playability?.status !== 'OK' && !info.basic_info.id) {
    // Private or removed videos say so; any other sign-in demand without data is YouTube's
    // suspicion of the session, which retrying elsewhere will not cure either.
    if (playability?.status === 'LOGIN_REQUIRED' && !/private/i.test(reason)) {
      throw new InnertubeError(
        'bot-check',
        `YouTube asks to sign in for video ${id}: ${reason || playability.status}.`,
        {
          endpoint: 'player',
        },
      );
    }
    return undefined;
  }
  return videoFromInfo(id, info);
}

function videoFromInfo(id: string, info: YT.VideoInfo): InnertubeVideo {
  const details = info.basic_info;
  if (!details.id)
    throw new InnertubeError('parse', `The player answer for ${id} has no video details.`, {
      endpoint: 'player',
    });
  const microformat = info.page[0].microformat?.is(YTNodes.PlayerMicroformat) ? info.page[0].microformat : undefined;
  const video: InnertubeVideo = {
    id: details.id,
    thumbnails: thumbnails(details.thumbnail).sort((a, b) => (b.width ?? 0) - (a.width ?? 0)),
  };
  if (details.title) video.title = details.title;
  if (details.short_description) video.description = details.short_description;
  const publishedAt = isoTimestamp(microformat?.publish_date ?? microformat?.upload_date);
  if (publishedAt) video.publishedAt = publishedAt;
  if (Number.isSafeInteger(details.view_count)) video.viewCount = String(details.view_count);
  if (Number.isFinite(details.duration)) video.durationSeconds = details.duration!;
  if (details.keywords?.length) video.keywords = [...details.keywords];
  if (details.channel_id) video.channelId = details.channel_id;
  return video;
}

/**
 * A session that makes no network call but the config one, whose failure the library tolerates.
 * The session's time zone is given: the library's default asks ICU for the system's
 * (Intl.DateTimeFormat), which maps ~8 MiB of ICU data into the process for good; the dates read
 * here carry their own offsets.
 */
async function createSession(target: FetchTarget): Promise<Innertube> {
  try {
    return await Innertube.create({
      retrieve_player: false,
      generate_session_locally: true,
      lang: 'en',
      location: 'US',
      timezone: 'UTC',
      fetch: ((input: Parameters<typeof fetchThrough>[1], init?: Parameters<typeof fetchThrough>[2]) =>
        fetchThrough(target, input, init)) as unknown as typeof globalThis.fetch,
    });
  } catch (error) {
    await target.agent.close();
    throw classify(error, 'a new InnerTube session');
  }
}

export async function createInnertubeClient(options: InnertubeClientOptions): Promise<InnertubeClient> {
  const base = new URL(options.baseUrl);
  const onOutcome = options.onOutcome;
  const paging: Paging = { retry: options.pageRetry ?? { retries: 2, backoffMs: 500 }, onOutcome };
  const pool = {
    keepAliveTimeout: 30_000,
    connections: 32,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  };
  // Tunnelled for http:// origins too (the fake platform): the proxy is used as it is with youtube.com.
  const agent: Dispatcher = options.proxyUrl
    ? new ProxyAgent({ ...pool, uri: options.proxyUrl, proxyTunnel: true })
    : new Agent(pool);
  const yt = await createSession({
    base,
    agent,
    timeoutMs: options.timeoutMs,
    onCall: options.onCall,
  });
  return {
    resolve: (url) =>
      operation(`the address ${url}`, () => resolveChannelId(yt, url), { endpoint: 'resolve_url', onOutcome }),
    channel: (id) =>
      operation(
        `the channel ${id}`,
        async () => {
          const page = await channelPage(yt, id);
          return page && channelFromPage(id, page);
        },
        { endpoint: 'browse', onOutcome },
      ),
    shorts: (id) =>
      operation(`the Shorts of ${id}`, (context) => readShorts(yt, id, context, paging), {
        endpoint: 'browse',
        onOutcome,
      }),
    video: (id) => operation(`the video ${id}`, () => readVideo(yt, id), { endpoint: 'player', onOutcome }),
    close: () => agent.close(),
  };
}
