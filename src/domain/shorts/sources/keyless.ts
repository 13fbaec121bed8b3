// The keyless source (YOUTUBE_SOURCE=innertube, and the fallback when every Data API key is spent):
// InnerTube alone, 0 units. The Shorts tab lists the shorts and describes the channel; publish
// dates come from the player endpoint only where a window needs them (keyless-collector.ts). Its
// values are approximate (KEYLESS_APPROXIMATE_FIELDS), and an InnerTube failure has nothing to
// stand in for it: it is the answer.
import { keylessChannel, keylessVideo, KEYLESS_APPROXIMATE_FIELDS } from '../innertube-source.ts';
import { collectKeyless } from '../keyless-collector.ts';
import { toShort } from '../mapping.ts';
import type { ShortsResult } from '../shorts-result.ts';
import {
  cutShort,
  failureText,
  inFlight,
  listingFrame,
  noSuchChannel,
  OwnResult,
  type ShortsSource,
} from './source.ts';

export const keylessSource: ShortsSource = {
  async findChannel(ctx, read) {
    const { query } = read;
    // Nothing stands in for the Shorts tab here: with its breaker open, no call is worth making.
    ctx.innertube.assertUsable('browse');
    let channelId = read.channelId;
    if (!channelId) {
      const id = await ctx.innertube.resolve(query.ref);
      if (id === null) throw noSuchChannel(query.ref);
      if (typeof id === 'object') throw ctx.innertube.unavailable(id.failed);
      channelId = id;
    }
    const client = ctx.innertube.client!;
    const tab = inFlight(client.shorts(channelId));
    // The Shorts tab's first page describes the channel too; ask for the channel page only without it.
    const page = (await tab.then((first) => first.channel).catch(() => undefined)) ?? (await client.channel(channelId));
    if (!page) throw noSuchChannel(query.ref);
    return { channel: keylessChannel(page), tab, displayHandle: page.handle };
  },

  async readShorts(ctx, read, found) {
    const frame = listingFrame(ctx, read.query, found.channel, found.displayHandle);
    let collected;
    try {
      collected = await collectKeyless(await found.tab!, {
        cap: frame.cap,
        capIsServiceMax: frame.capIsServiceMax,
        video: ctx.innertube.video,
        oldestDate: read.query.oldestDate,
      });
      if (collected.failure === undefined) ctx.innertube.succeeded('browse');
      else ctx.innertube.failed(collected.failure, 'browse');
    } catch (error) {
      if (ctx.innertube.failed(error)) throw ctx.innertube.unavailable(error);
      throw error;
    }
    const result: ShortsResult = {
      channel: frame.channel,
      shorts: collected.items.map((item) =>
        toShort(keylessVideo(item, found.channel, collected.details.get(item.id)), frame.identity),
      ),
      truncated: collected.truncated,
      ...(collected.truncated ? { truncatedBy: 'max' as const } : {}),
      fetchedAt: frame.fetchedAt,
      source: 'innertube',
      approximateFields: [...KEYLESS_APPROXIMATE_FIELDS],
    };
    if (collected.failure === undefined) return result;
    throw new OwnResult({ ...result, ...cutShort(`YouTube's web API ${failureText(collected.failure)}`) });
  },
};
