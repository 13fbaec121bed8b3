// Channel address → channel resource. Handles and legacy usernames are one channels.list call
// (which also returns the full channel, so resolving costs no extra quota). Custom (/c/) and bare
// vanity names have no direct lookup in the Data API: we first try the name as a handle (YouTube
// turned most custom URLs into handles), then fall back to search.list (100 units) and keep the
// result whose snippet.customUrl equals the name.
import { AppError } from '../../errors.ts';
import type { ChannelRef } from './channel-url.ts';
import { QUOTA_COST, type YoutubeClient } from './youtube-client.ts';
import type { YtChannel } from './youtube-types.ts';

export interface Resolved {
  channel: YtChannel;
  units: number;
}

export async function resolveChannel(client: YoutubeClient, ref: ChannelRef): Promise<Resolved> {
  let units = 0;
  const lookup = async (params: Record<string, string>) => {
    units += QUOTA_COST.channels;
    return (await client.channels(params)).items ?? [];
  };
  let found: YtChannel | undefined;
  switch (ref.type) {
    case 'id':
      [found] = await lookup({ id: ref.value });
      break;
    case 'handle':
      [found] = await lookup({ forHandle: ref.value });
      break;
    case 'username':
      [found] = await lookup({ forUsername: ref.value });
      break;
    case 'custom': {
      [found] = await lookup({ forHandle: ref.value });
      if (!found) {
        units += QUOTA_COST.search;
        const ids = ((await client.searchChannels(ref.value)).items ?? []).map((i) => i.id?.channelId).filter((id): id is string => !!id);
        if (ids.length > 0) {
          const candidates = await lookup({ id: ids.join(',') });
          const wanted = ref.value.toLowerCase();
          found = candidates.find((c) => {
            const custom = c.snippet?.customUrl?.toLowerCase();
            return custom === wanted || custom === `@${wanted}`;
          });
        }
      }
      break;
    }
  }
  if (!found) throw new AppError('CHANNEL_NOT_FOUND', `No channel exists at that address (${describe(ref)}).`);
  return { channel: found, units };
}

export function describe(ref: ChannelRef): string {
  switch (ref.type) {
    case 'id':
      return `channel id ${ref.value}`;
    case 'handle':
      return `handle @${ref.value}`;
    case 'username':
      return `username ${ref.value}`;
    case 'custom':
      return `custom name ${ref.value}`;
  }
}
