// What the shorts service remembers between requests, in the shared cache (Redis when scaled out):
// - address → channel id mappings, for a day (they practically never change), and addresses that
//   resolved to nothing, for NEGATIVE_CACHE_SECONDS, so a repeated bad address costs no quota;
// - results per (channel, oldestDate, limit), for CACHE_TTL; a full result also answers any
//   narrower window and limit (narrow()), so it costs no quota;
// - every result as a stale copy (STALE_RETENTION_SECONDS) in its own bounded cache, served,
//   marked stale, when no key has quota left.
import type { Cache } from '../../infra/cache/cache.ts';
import { isAppError } from '../../errors.ts';
import { SearchUnaffordable } from './channel-resolver.ts';
import type { ChannelRef } from './channel-url.ts';
import { parseTimestamp } from './mapping.ts';
import type { ShortsQuery } from './shorts-query.ts';
import type { ShortsResult } from './shorts-result.ts';

const MAPPING_TTL_MS = 24 * 3600 * 1000;

export interface ResultCacheOptions {
  cache: Cache;
  /** Expired results kept for stale serving (bounded by its own entry count). */
  staleCache: Cache;
  cacheTtlMs: number;
  negativeTtlMs: number;
  staleTtlMs: number;
  /** Part of every result key: a result read under another maximum answers nothing. */
  maxShorts: number;
}

interface StaleCopy {
  result: ShortsResult;
  oldestDate: number | null;
  limit: number | null;
}

// Handles, user names and custom URLs are case-insensitive; channel ids are not: an id with one
// letter's case flipped is another (non-existent) channel, and must not share its "not found".
const refKey = (ref: ChannelRef) => `${ref.type}:${ref.type === 'id' ? ref.value : ref.value.toLowerCase()}`;
export const mappingKey = (ref: ChannelRef) => `yt:ref:${refKey(ref)}`;
const negativeKey = (ref: ChannelRef) => `yt:none:${refKey(ref)}`;
const staleRefKey = (ref: ChannelRef) => `stale:ref:${refKey(ref)}`;

export function resultKey(
  options: Pick<ResultCacheOptions, 'maxShorts'>,
  channelId: string,
  query: Pick<ShortsQuery, 'oldestDate' | 'limit' | 'capped'>,
): string {
  return `yt:shorts:${channelId}:${options.maxShorts}:${query.oldestDate ?? 'all'}:${limitKey(query)}`;
}

/** The limit's part of a key: a cap set by maxCredits (truncated when it leaves shorts out) is not a caller's limit. */
export function limitKey(query: Pick<ShortsQuery, 'limit' | 'capped'>): string {
  return `${query.capped ? 'cap' : ''}${query.limit ?? 'all'}`;
}

/** The channel id an address is known to lead to (a channel-id address leads to itself). */
export async function knownChannelId(options: ResultCacheOptions, ref: ChannelRef): Promise<string | undefined> {
  return ref.type === 'id' ? ref.value : options.cache.get<string>(mappingKey(ref));
}

/** Publishes the id an address resolved to. */
export async function rememberAddress(options: ResultCacheOptions, ref: ChannelRef, channelId: string): Promise<void> {
  await options.cache.set(mappingKey(ref), channelId, MAPPING_TTL_MS);
}

export async function forgetAddress(options: ResultCacheOptions, ref: ChannelRef): Promise<void> {
  await options.cache.delete(mappingKey(ref));
}

/** Why an address resolved to nothing lately (the 404's message), if it did. */
export function missingMessage(options: ResultCacheOptions, ref: ChannelRef): Promise<string | undefined> {
  return options.cache.get<string>(negativeKey(ref));
}

/** An address YouTube has no channel at is remembered, unless only an unaffordable search could tell. */
export async function rememberMissing(options: ResultCacheOptions, ref: ChannelRef, error: unknown): Promise<void> {
  if (!isAppError(error) || error.code !== 'CHANNEL_NOT_FOUND' || error.cause instanceof SearchUnaffordable) return;
  await options.cache.set(negativeKey(ref), error.message, options.negativeTtlMs);
}

/** A cached result answering `query` for the channel: its own entry, or the full result narrowed. */
export async function cachedResult(
  options: ResultCacheOptions,
  channelId: string,
  query: ShortsQuery,
): Promise<ShortsResult | undefined> {
  const exact = await options.cache.get<ShortsResult>(resultKey(options, channelId, query));
  if (exact) return exact;
  if (query.oldestDate === undefined && query.limit === undefined) return undefined;
  return narrow(await options.cache.get<ShortsResult>(resultKey(options, channelId, {})), query);
}

/** Caches a fresh result read by address (a read by id is cached by the single-flight itself). */
export async function cacheResult(options: ResultCacheOptions, query: ShortsQuery, result: ShortsResult) {
  await options.cache.set(resultKey(options, result.channel.id, query), result, options.cacheTtlMs);
}

export async function keepStale(options: ResultCacheOptions, query: ShortsQuery, result: ShortsResult): Promise<void> {
  // A copy cut by maxCredits answers no other request as it should (staleResult compares limits only).
  if (options.staleTtlMs <= 0 || query.capped) return;
  const { staleCache, staleTtlMs } = options;
  if (query.ref.type !== 'id') await staleCache.set(staleRefKey(query.ref), result.channel.id, staleTtlMs);
  const copy: StaleCopy = { result, oldestDate: query.oldestDate ?? null, limit: query.limit ?? null };
  // The full copy answers every later window; a narrower one never replaces it.
  const full = query.oldestDate === undefined && query.limit === undefined;
  await staleCache.set(`stale:${result.channel.id}:${full ? 'full' : 'latest'}`, copy, staleTtlMs);
}

/** An earlier result answering `query`, kept for when no key has quota left. */
export async function staleResult(
  options: ResultCacheOptions,
  knownId: string | undefined,
  query: ShortsQuery,
): Promise<ShortsResult | undefined> {
  const channelId = knownId ?? (await options.staleCache.get<string>(staleRefKey(query.ref)));
  if (!channelId) return undefined;
  const full = await options.staleCache.get<StaleCopy>(`stale:${channelId}:full`);
  const fromFull = full && narrow(full.result, query);
  if (fromFull) return fromFull;
  // A narrower copy was read for a caller's own limit: it cannot tell a capped request what it left out.
  if (query.capped) return undefined;
  const latest = await options.staleCache.get<StaleCopy>(`stale:${channelId}:latest`);
  if (!latest) return undefined;
  // A narrower copy answers only a request it covers: one that asked for a wider window or more
  // shorts would get too many of them, or too few without being told (a copy of the 61 shorts of
  // a window must not answer limit 5 with 61, nor a copy of limit 5 the whole channel with 5).
  // The very request it was read for takes it as it is (narrow() refuses a cut window for any window).
  if (latest.oldestDate === (query.oldestDate ?? null) && latest.limit === (query.limit ?? null)) return latest.result;
  const covers =
    (latest.oldestDate === null || (query.oldestDate !== undefined && query.oldestDate >= latest.oldestDate)) &&
    (latest.limit === null || (query.limit !== undefined && query.limit <= latest.limit));
  return covers ? narrow(latest.result, query) : undefined;
}

/** A full result answers any narrower request: keep the window, then the newest `limit`. */
function narrow(full: ShortsResult | undefined, query: ShortsQuery): ShortsResult | undefined {
  if (!full) return undefined;
  let shorts = full.shorts;
  if (query.oldestDate !== undefined) {
    // A truncated full result is missing older shorts that may fall in the window.
    if (full.truncated) return undefined;
    const dates = shorts.map((s) => parseTimestamp(s.snippet.publishedAt));
    // A keyless listing read without a window has no publish dates: it cannot tell the window.
    if (dates.some((d) => d === undefined)) return undefined;
    shorts = shorts.filter((_, i) => dates[i]! >= query.oldestDate!);
  }
  let truncated = full.truncated;
  if (query.limit !== undefined) {
    if (full.truncated && query.limit > shorts.length) return undefined;
    const cut = shorts.length > query.limit;
    if (cut) shorts = shorts.slice(0, query.limit);
    // A caller's limit asked for no more; a cap set by maxCredits left the rest out.
    truncated = query.capped === true && (cut || full.truncated);
  }
  if (shorts === full.shorts) return full;
  const { truncatedBy: _dropped, ...rest } = full;
  return { ...rest, shorts, truncated };
}
