// The hybrid source (the default with a key): the address resolved by InnerTube at 0 units where
// it can, the Shorts' ids from the Shorts tab (0 units), their details from videos.list (exact Data
// API fields). Whenever InnerTube fails or its breaker is open, the Data API stands in for it:
// the resolver's strategies for the address, the UUSH playlist for the listing.
import { resolveChannel } from '../channel-resolver.ts';
import { shortsPlaylistId } from '../shorts-collector.ts';
import { channelById, readDataApiShorts } from './data-api.ts';
import { inFlight, noSuchChannel, type ShortsSource } from './source.ts';

export const hybridSource: ShortsSource = {
  async findChannel(ctx, read) {
    const { calls, query, work } = read;
    let channelId = read.channelId;
    if (!channelId) {
      const id = await ctx.innertube.resolve(query.ref);
      if (id === null) throw noSuchChannel(query.ref);
      channelId = typeof id === 'string' ? id : undefined;
    }
    const client = ctx.innertube.client;
    if (channelId) {
      const known = channelId;
      return channelById(ctx, read, known, () =>
        client && ctx.innertube.usable('browse')
          ? { tab: inFlight(client.shorts(known)) }
          : { firstPage: inFlight(calls.playlistItems(shortsPlaylistId(known))) },
      );
    }
    const channel = await resolveChannel(query.ref, { calls, canSpendUnpaid: work.canSpendUnpaid });
    return client && ctx.innertube.usable('browse')
      ? { channel, tab: inFlight(client.shorts(channel.id)) }
      : { channel };
  },
  readShorts: readDataApiShorts,
};
