// The dashboard's calls for statistics over time: a Short's series, a channel's movers. Types are
// generated from the OpenAPI document (api-types.ts; shapes in src/contract/stats.ts).
import { api } from './api.ts';
import type { components } from './api-types.ts';

type Schemas = components['schemas'];

export type VideoStats = Schemas['VideoStats'];
export type ChannelStats = Schemas['ChannelStats'];
export type StatsPoint = Schemas['StatsPoint'];
export type StatsWindow = ChannelStats['window'];

export const videoStats = (videoId: string) =>
  api<VideoStats>(`/api/youtube/videos/${encodeURIComponent(videoId)}/stats`);
export const channelStats = (channelId: string, window: StatsWindow = '24h', limit = 10) =>
  api<ChannelStats>(`/api/youtube/channels/${encodeURIComponent(channelId)}/stats?window=${window}&limit=${limit}`);

/** The channel a stored result names (webhook results carry data.channel; a summary may carry channel). */
export function channelIdOf(result: unknown): string | undefined {
  const r = result as { data?: { channel?: { id?: unknown } }; channel?: { id?: unknown } } | null | undefined;
  const id = r?.data?.channel?.id ?? r?.channel?.id;
  return typeof id === 'string' ? id : undefined;
}
