// Try it's price before running: known only for a channel whose size this page has seen (an earlier
// run that read it whole), computed as the service prices a read: the shorts read (all of them, up
// to the limit, fewer when maxCredits caps the read) at the configured price.
import { SvelteMap } from 'svelte/reactivity';
import type { Pricing } from './api.ts';

/** Shorts per channel address, from runs that read the whole channel (kept while the page is open); reactive. */
const sizes = new SvelteMap<string, number>();

const key = (channelUrl: string) => channelUrl.trim().toLowerCase();

/** Remembers a run's size when it read the whole channel: no window, nothing truncated, fewer than the limit. */
export function rememberSize(
  input: { channelUrl: string; oldestDate?: number; limit?: number },
  result: { itemCount: number; truncated: boolean },
): void {
  if (input.oldestDate !== undefined || result.truncated) return;
  if (input.limit !== undefined && result.itemCount >= input.limit) return;
  sizes.set(key(input.channelUrl), result.itemCount);
}

export interface ExpectedPrice {
  credits: number;
  shorts: number;
  total: number;
  /** maxCredits stops the read before the channel's (or the limit's) end. */
  capped: boolean;
}

/** The price of a run, when the channel's size is known; undefined otherwise. */
export function expectedPrice(
  input: { channelUrl: string; limit?: number | null; sort: string; maxCredits?: number | null },
  pricing: Pricing,
): ExpectedPrice | undefined {
  const total = sizes.get(key(input.channelUrl));
  if (total === undefined) return undefined;
  const { creditsPerBlock, shortsPerBlock, minimumPerRequest } = pricing.credits;
  // Newest first stops at the limit; another order reads the whole channel to rank it.
  const wanted = Math.min(
    total,
    pricing.limits.maxShortsPerRequest,
    input.limit && input.sort === 'newest' ? input.limit : Number.POSITIVE_INFINITY,
  );
  const paid = input.maxCredits ? Math.floor(input.maxCredits / creditsPerBlock) * shortsPerBlock : wanted;
  const shorts = Math.min(wanted, paid);
  const credits = Math.max(minimumPerRequest, Math.ceil(shorts / shortsPerBlock) * creditsPerBlock);
  return { credits, shorts, total, capped: paid < wanted };
}
