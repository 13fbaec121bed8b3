// The dashboard's calls for watches (#15): /api/youtube/watches. Types mirror the Watch,
// WatchCheck and WatchEvent schemas (src/http/schemas/watches.ts).
import { api } from './api.ts';

export interface Watch {
  id: string;
  channelUrl: string;
  channel: { id: string; title: string; customUrl: string | null };
  webhookUrl: string;
  intervalSeconds: number;
  status: 'active' | 'paused';
  pausedReason: 'user' | 'credits' | null;
  nextCheckAt: string | null;
  lastCheckAt: string | null;
  lastSeenShort: { id: string; shortUrl: string; publishedAt: string | null } | null;
  stats: { checks: number; unitsSpent: number; shortsReported: number; prepaidUnits: number };
  lastError: string | null;
  createdAt: string;
}

export interface WatchCheck {
  id: string;
  trigger: 'create' | 'schedule' | 'push' | 'manual';
  units: number;
  newShorts: number;
  creditsCharged: number;
  outcome: 'ok' | 'failed' | 'paused';
  error: string | null;
  createdAt: string;
}

export interface WatchEvent {
  id: string;
  type: string;
  createdAt: string;
  data: { shorts?: Array<{ id: string; shortUrl: string; snippet: { title?: string } }>; reason?: string };
  delivery: { attempts: number; outcome: string | null; statusCode: number | null };
}

const BASE = '/api/youtube/watches';
const one = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

export const listWatches = async () => (await api<{ watches: Watch[] }>(BASE)).watches;
export const getWatch = (id: string) => api<{ watch: Watch; checks: WatchCheck[]; events: WatchEvent[] }>(`${one(id)}?limit=10`);
export const createWatch = (body: { channelUrl: string; webhookUrl: string; intervalSeconds?: number }) => api<Watch>(BASE, { method: 'POST', body });
export const setWatchStatus = (id: string, status: 'active' | 'paused') => api<Watch>(one(id), { method: 'PATCH', body: { status } });
export const deleteWatch = (id: string) => api<Watch>(one(id), { method: 'DELETE' });
export const checkWatchNow = (id: string) => api<{ checkId: string }>(`${one(id)}/check`, { method: 'POST' });
