// A source reads one channel's details and Shorts upstream for the shorts service: the Data API
// alone (data-api.ts), the Shorts tab for ids with the Data API for details (hybrid.ts), or the
// Shorts tab alone, keyless (keyless.ts). A new source is a new file implementing ShortsSource and
// one entry in the service's table of sources (shorts-service.ts).
//
// A read has two steps, because their failures mean different things: finding the channel (an
// address that resolves to nothing is remembered, so repeating it costs no quota) and reading its
// shorts. Every unit either step spends goes through the request's metered work (`read.calls`).
import type { Channel } from '../../../contract/shorts.ts';
import { AppError } from '../../../errors.ts';
import type { MeteredWork } from '../../quota/metered-work.ts';
import { describe as describeRef } from '../channel-resolver.ts';
import type { ChannelRef } from '../channel-url.ts';
import type { InnertubeShortsPage } from '../innertube-source.ts';
import { channelIdentity, toChannel } from '../mapping.ts';
import type { FetchHooks, ShortsQuery } from '../shorts-query.ts';
import type { ShortsResult } from '../shorts-result.ts';
import type { YoutubeCalls } from '../youtube-client.ts';
import type { YtChannel, YtListResponse, YtPlaylistItem } from '../youtube-types.ts';
import type { InnertubeAccess } from './innertube-access.ts';

/** What every source may use, for the life of the service. */
export interface SourceContext {
  innertube: InnertubeAccess;
  maxShorts: number;
  now: () => number;
  /** The address → id mapping of `ref` turned out wrong (the channel is gone): it is dropped. */
  forgetAddress(ref: ChannelRef): Promise<void>;
  /** Units a Data API read spent, once it finished. */
  onUpstream?: ((units: number) => void) | undefined;
}

/** One read: what is asked, the channel id when known already, and the request's metered work. */
export interface SourceRead {
  query: ShortsQuery;
  channelId: string | undefined;
  work: MeteredWork;
  /** The Data API calls, each metered by `work`. */
  calls: YoutubeCalls;
  hooks: FetchHooks;
}

/** The channel found, with the first listing page already on its way when the source could ask early. */
export interface FoundChannel {
  channel: YtChannel;
  /** The Shorts tab's first page (InnerTube). */
  tab?: Promise<InnertubeShortsPage> | undefined;
  /** The UUSH playlist's first page (Data API). */
  firstPage?: Promise<YtListResponse<YtPlaylistItem>> | undefined;
  /** The handle as the channel page shows it ("@Doobydobap"), where the source read that page. */
  displayHandle?: string | undefined;
}

export interface ShortsSource {
  /** Finds the channel the query names (CHANNEL_NOT_FOUND when there is none). */
  findChannel(ctx: SourceContext, read: SourceRead): Promise<FoundChannel>;
  /** Reads the found channel's shorts. */
  readShorts(ctx: SourceContext, read: SourceRead, found: FoundChannel): Promise<ShortsResult>;
}

/**
 * A read cut short by the requesting account's own balance, or by an upstream failure after some
 * shorts were read: its result answers this request only, never cached or shared.
 */
export class OwnResult extends Error {
  readonly result: ShortsResult;
  constructor(result: ShortsResult) {
    super('result limited by the requesting account');
    this.result = result;
  }
}

/** A result's truncation by an upstream failure mid-way, `why` naming it ("YouTube's web API answered …"). */
export function cutShort(why: string): Pick<ShortsResult, 'truncated' | 'truncatedBy' | 'truncatedWhy'> {
  return { truncated: true, truncatedBy: 'upstream', truncatedWhy: why };
}

/** An upstream failure as the rest of a sentence: "failed: YouTube answered the browse call with HTTP 503." */
export function failureText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `failed: ${message.replace(/\.$/, '')}.`;
}

export function noSuchChannel(ref: ChannelRef): AppError {
  return new AppError('CHANNEL_NOT_FOUND', `No channel exists at that address (${describeRef(ref)}).`);
}

/** A promise the read may never await (a fallback path): its rejection is not an unhandled one. */
export function inFlight<P extends Promise<unknown>>(promise: P): P {
  promise.catch(() => {});
  return promise;
}

/** What every listing of a found channel starts from. */
export interface ListingFrame {
  /** At most this many shorts: min(limit, MAX_SHORTS_PER_REQUEST). */
  cap: number;
  /**
   * True when `cap` is not the caller's own limit (MAX_SHORTS_PER_REQUEST, or what its maxCredits
   * pays for): more left out = truncated.
   */
  capIsServiceMax: boolean;
  fetchedAt: string;
  channel: Channel;
  identity: ReturnType<typeof channelIdentity>;
}

export function listingFrame(
  ctx: SourceContext,
  query: ShortsQuery,
  channel: YtChannel,
  displayHandle?: string,
): ListingFrame {
  const cap = Math.min(query.limit ?? ctx.maxShorts, ctx.maxShorts);
  const mapped = toChannel(channel);
  return {
    cap,
    capIsServiceMax: cap === ctx.maxShorts || query.capped === true,
    fetchedAt: new Date(ctx.now()).toISOString(),
    channel: mapped,
    identity: channelIdentity(mapped, displayHandle),
  };
}
