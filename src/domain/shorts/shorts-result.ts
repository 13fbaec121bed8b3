// What a source returns for one channel: the response resources (Channel, Short: src/contract/shorts.ts)
// and what the response bodies are made from (truncation, freshness, source). Not a response shape itself.
import type { Channel, Short } from '../../contract/shorts.ts';

export interface ShortsResult {
  channel: Channel;
  shorts: Short[];
  /** True when the channel has more matching shorts than one request returns. */
  truncated: boolean;
  /**
   * Why `truncated`: MAX_SHORTS_PER_REQUEST, the balance stopped the read, or an upstream failure
   * after some shorts were read (`truncatedWhy` names it).
   */
  truncatedBy?: 'max' | 'balance' | 'upstream';
  /** With truncatedBy 'upstream': which failure ended the read, as a sentence. */
  truncatedWhy?: string;
  /** Set when a sort or duration filter arranged a window of this many shorts (the window read). */
  arrangedFrom?: number;
  /** When the data was read from the platform (ISO 8601). */
  fetchedAt: string;
  /**
   * Where the shorts were listed and detailed: data-api (UUSH playlist), hybrid (Shorts tab + videos.list), innertube
   * (keyless).
   */
  source: 'data-api' | 'hybrid' | 'innertube';
  /** Fields whose values are approximate (parsed from display text): keyless results only. */
  approximateFields?: string[];
}
