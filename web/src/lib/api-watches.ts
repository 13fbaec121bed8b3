// The dashboard's calls for watches: /api/youtube/watches. Types are generated from the
// OpenAPI document (api-types.ts; shapes in src/contract/watches.ts).
import { api } from './api.ts';
import type { components } from './api-types.ts';

type Schemas = components['schemas'];

export type Watch = Schemas['Watch'];
export type WatchCheck = Schemas['WatchCheck'];
/** data is typed by the event's type (the bodies of the three watch webhooks). */
export type WatchEvent = Omit<Schemas['WatchEvent'], 'data'> & {
  data:
    | Schemas['ShortsCreatedPayload']['data']
    | Schemas['WatchPausedPayload']['data']
    | Schemas['WatchResumedPayload']['data'];
};
type WatchDetail = Omit<Schemas['WatchDetail'], 'events'> & { events: WatchEvent[] };

const BASE = '/api/youtube/watches';
const one = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

export const listWatches = async () => (await api<Schemas['WatchList']>(BASE)).watches;
export const getWatch = (id: string) => api<WatchDetail>(`${one(id)}?limit=10`);
export const createWatch = (body: Schemas['CreateWatch']) => api<Watch>(BASE, { method: 'POST', body });
export const setWatchStatus = (id: string, status: 'active' | 'paused') =>
  api<Watch>(one(id), { method: 'PATCH', body: { status } });
export const updateWatch = (id: string, body: Schemas['UpdateWatch']) => api<Watch>(one(id), { method: 'PATCH', body });
export const deleteWatch = (id: string) => api<Watch>(one(id), { method: 'DELETE' });
export const checkWatchNow = (id: string) => api<Schemas['WatchCheckQueued']>(`${one(id)}/check`, { method: 'POST' });
