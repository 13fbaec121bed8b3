// The watches table and its companions (seen shorts, checks): rows in, resources out.
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../infra/db/database.ts';
import type { Watch, WatchCheck } from '../../contract/watches.ts';

export interface WatchRow {
  id: string;
  account_id: string;
  channel_url: string;
  channel_id: string;
  channel_title: string;
  channel_custom_url: string | null;
  webhook_url: string;
  interval_seconds: number;
  status: 'active' | 'paused';
  paused_reason: 'user' | 'credits' | 'channel' | null;
  next_check_at: Date;
  last_check_at: Date | null;
  last_seen_short_id: string | null;
  last_seen_published_at: Date | null;
  prepaid_units: number;
  checks: number;
  units_spent: number;
  shorts_reported: number;
  last_error: string | null;
  created_at: Date;
  track_days: number | null;
  alert_views: string | number | null;
  alert_hours: number | null;
}

/** The watch as the API shows it: the contract's shape (src/contract/watches.ts). */
export type { Watch };

export function newWatchId(now = Date.now()): string {
  return `wch_${now.toString(36)}${randomBytes(8).toString('hex')}`;
}

export function newCheckId(now = Date.now()): string {
  return `wck_${now.toString(36)}${randomBytes(10).toString('hex')}`;
}

export function toWatch(row: WatchRow): Watch {
  return {
    id: row.id,
    channelUrl: row.channel_url,
    channel: { id: row.channel_id, title: row.channel_title, customUrl: row.channel_custom_url },
    webhookUrl: row.webhook_url,
    intervalSeconds: row.interval_seconds,
    status: row.status,
    pausedReason: row.paused_reason,
    // A paused watch has no next check.
    nextCheckAt: row.status === 'active' ? row.next_check_at.toISOString() : null,
    lastCheckAt: row.last_check_at?.toISOString() ?? null,
    lastSeenShort: row.last_seen_short_id
      ? {
          id: row.last_seen_short_id,
          shortUrl: `https://www.youtube.com/shorts/${row.last_seen_short_id}`,
          publishedAt: row.last_seen_published_at?.toISOString() ?? null,
        }
      : null,
    stats: {
      checks: row.checks,
      unitsSpent: row.units_spent,
      shortsReported: row.shorts_reported,
      prepaidUnits: row.prepaid_units,
    },
    trackStats: row.track_days === null ? null : { days: row.track_days },
    alert:
      row.alert_views === null || row.alert_hours === null
        ? null
        : { viewsGained: Number(row.alert_views), withinHours: row.alert_hours },
    lastError: row.last_error,
    createdAt: row.created_at.toISOString(),
  };
}

export async function findWatch(db: Queryable, id: string): Promise<WatchRow | undefined> {
  const [row] = await db.query<WatchRow>('SELECT * FROM watches WHERE id = $1', [id]);
  return row;
}

export async function listWatches(db: Queryable, accountId: string): Promise<WatchRow[]> {
  return db.query<WatchRow>('SELECT * FROM watches WHERE account_id = $1 ORDER BY created_at, id', [accountId]);
}

export async function countWatches(db: Queryable, accountId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM watches WHERE account_id = $1', [
    accountId,
  ]);
  return row?.n ?? 0;
}

/** Marks ids as seen; returns those that were not seen before (the new ones), in the order given. */
export async function markSeen(db: Queryable, watchId: string, ids: string[], at: Date): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.query<{ video_id: string }>(
    'INSERT INTO watch_seen_shorts (watch_id, video_id, seen_at) SELECT $1, unnest($2::text[]), $3 ' +
      'ON CONFLICT DO NOTHING RETURNING video_id',
    [watchId, ids, at],
  );
  return new Set(rows.map((r) => r.video_id));
}

/** Which of `ids` this watch has already seen. */
export async function seenAmong(db: Queryable, watchId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.query<{ video_id: string }>(
    'SELECT video_id FROM watch_seen_shorts WHERE watch_id = $1 AND video_id = ANY($2::text[])',
    [watchId, ids],
  );
  return new Set(rows.map((r) => r.video_id));
}

/** One check as the API shows it. */
export type CheckSummary = WatchCheck;

export async function listChecks(db: Queryable, watchId: string, limit: number): Promise<CheckSummary[]> {
  const rows = await db.query<{
    id: string;
    trigger: CheckSummary['trigger'];
    units: number;
    new_shorts: number;
    credits_charged: number;
    outcome: CheckSummary['outcome'];
    error: string | null;
    created_at: Date;
  }>('SELECT * FROM watch_checks WHERE watch_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [watchId, limit]);
  return rows.map((r) => ({
    id: r.id,
    trigger: r.trigger,
    units: r.units,
    newShorts: r.new_shorts,
    creditsCharged: r.credits_charged,
    outcome: r.outcome,
    error: r.error,
    createdAt: r.created_at.toISOString(),
  }));
}
