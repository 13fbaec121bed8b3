// The price and webhook timings come from the server (GET /api/pricing): the dashboard keeps no
// copy of numbers an operator may configure. Loaded once per page, again after a failure.
import { api, type Pricing } from './api.ts';

let pending: Promise<Pricing> | null = null;

export function loadPricing(): Promise<Pricing> {
  pending ??= api<Pricing>('/api/pricing', { auth: false }).catch((error: unknown) => {
    pending = null;
    throw error;
  });
  return pending;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "1 credit per started block of 50 shorts, at least 1 per call" */
export function priceSentence({ credits }: Pricing): string {
  return `${plural(credits.creditsPerBlock, 'credit')} per started block of ${plural(credits.shortsPerBlock, 'short')}, at least ${credits.minimumPerRequest} per call`;
}

/** A duration in words: 45 s, 5 min, 3 hours, 1.2 days. */
export function humanDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86_400) return plural(Math.round(seconds / 3600), 'hour');
  const days = Math.round((seconds / 86_400) * 10) / 10;
  return days === 1 ? '1 day' : `${days} days`;
}
