// When watches are checked. The watches table is the schedule: next_check_at says when each
// active watch is due. Every worker sweeps every WATCH_SWEEP_SECONDS; a sweep claims due rows with
// FOR UPDATE SKIP LOCKED, moves their next_check_at one interval on, and queues one durable
// watch-check job per row — all in one transaction.
//
// Why a sweep rather than one delayed job per watch (singletonKey + startAfter): the row stays the
// single truth that PATCH (interval, pause, resume), a push notification and the credit-based resume
// all change with one UPDATE, without finding, cancelling and re-sending queued jobs; and nothing is
// lost if a job is: the row comes due again one interval later and the seen-set catches up.
// Exactly once: two sweepers never claim the same row (row lock + SKIP LOCKED, and the claim moves
// the row out of the due set before it commits); the queued job survives restarts and kill -9
// (pg-boss retries a job whose worker stopped sending heartbeats); a retried job whose check was
// recorded does nothing (watch_checks.id), and the watch-check queue's singleton policy keeps two
// checks of one watch from running at the same time.
import type { AccountRow } from '../accounts/accounts.ts';
import type { Database, Transaction } from '../../infra/db/database.ts';
import type { QuotaSettings } from '../quota/quota-meter.ts';
import type { PriceSettings } from '../shorts/pricing.ts';
import type { NewEvent, StoredEvent } from '../webhooks/events.ts';
import type { WatchResumedPayload } from '../../contract/watches.ts';
import { trackedCounts } from '../stats/tracking.ts';
import { type CheckTrigger, watchReservation } from './watch-check.ts';
import { newCheckId, type WatchRow } from './watch-store.ts';

export interface WatchCheckJob {
  watchId: string;
  checkId: string;
  trigger: CheckTrigger;
}

export interface SchedulerDeps {
  db: Database;
  now: () => number;
  quota: QuotaSettings;
  pricing: PriceSettings;
  /** Queues a check job inside the caller's transaction. */
  enqueueCheck(tx: Transaction, job: WatchCheckJob): Promise<void>;
  recordEvent(tx: Transaction, event: NewEvent): Promise<StoredEvent>;
  /** Wakes this process's check worker after checks were queued (set when it runs one). */
  wakeChecks?(): void;
}

/** Claims the watches that are due and queues their checks; returns the jobs queued. */
export async function sweepDueWatches(deps: SchedulerDeps, limit = 200): Promise<WatchCheckJob[]> {
  const now = new Date(deps.now());
  return deps.db.transaction(async (tx) => {
    const claimed = await tx.query<{ id: string }>(
      `WITH due AS (
         -- A disabled account's watches are not checked (they stay due, and are checked once it is enabled again).
         SELECT w.id FROM watches w JOIN accounts a ON a.id = w.account_id
         WHERE w.status = 'active' AND w.next_check_at <= $1 AND a.disabled_at IS NULL
         ORDER BY w.next_check_at LIMIT $2 FOR UPDATE OF w SKIP LOCKED
       )
       UPDATE watches w SET next_check_at = $1::timestamptz + make_interval(secs => w.interval_seconds)
       FROM due WHERE w.id = due.id RETURNING w.id`,
      [now, limit],
    );
    const jobs = claimed.map((row) => ({
      watchId: row.id,
      checkId: newCheckId(now.getTime()),
      trigger: 'schedule' as const,
    }));
    for (const job of jobs) await deps.enqueueCheck(tx, job);
    return jobs;
  });
}

/**
 * Watches paused for credits whose account can pay their next check again are resumed (and due at
 * once): each needs what its own check reserves (watchReservation: less for a watch holding prepaid
 * units, more for one tracking stats, whose check reads the channel's recent Shorts too). A disabled
 * account's watches stay paused.
 */
export async function resumePaidWatches(deps: SchedulerDeps): Promise<string[]> {
  const now = new Date(deps.now());
  return deps.db.transaction(async (tx) => {
    const paused = await tx.query<PausedWatch>(
      `SELECT w.id, w.account_id, w.channel_id, w.prepaid_units, w.track_days
         FROM watches w JOIN accounts a ON a.id = w.account_id
        WHERE w.status = 'paused' AND w.paused_reason = 'credits' AND a.disabled_at IS NULL`,
    );
    if (paused.length === 0) return [];
    const needed = await reservations(tx, paused, deps, now.getTime());
    // An account's watches are resumed, the cheapest to check first (then the oldest), as far as its
    // available credits cover their reservations together (each was compared with
    // the whole balance, so a balance for one check resumed them all, and all but one paused again).
    const resumed = await tx.query<WatchRow>(
      `WITH candidates AS (
         SELECT c.id, c.prepaid_units, c.track_days, a.credit_balance - a.credits_reserved AS available,
                sum(c.needed) OVER (PARTITION BY c.account_id ORDER BY c.needed, c.id) AS needed
         FROM unnest($2::text[], $3::uuid[], $4::int[], $5::int[], $6::int[])
                AS c(id, account_id, prepaid_units, track_days, needed)
           JOIN accounts a ON a.id = c.account_id
         WHERE a.disabled_at IS NULL
       )
       UPDATE watches w SET status = 'active', paused_reason = NULL, next_check_at = $1
       FROM candidates c
       WHERE c.id = w.id AND c.needed <= c.available
         -- Checked again here: a row another sweep resumed (or its owner paused or changed) while this
         -- waited for its lock is re-read by PostgreSQL against this condition; one whose reservation
         -- changed is left to the next sweep.
         AND w.status = 'paused' AND w.paused_reason = 'credits'
         AND w.prepaid_units = c.prepaid_units AND w.track_days IS NOT DISTINCT FROM c.track_days
       RETURNING w.*`,
      [
        now,
        paused.map((w) => w.id),
        paused.map((w) => w.account_id),
        paused.map((w) => w.prepaid_units),
        paused.map((w) => w.track_days),
        needed,
      ],
    );
    for (const w of resumed) {
      await deps.recordEvent(tx, {
        accountId: w.account_id,
        type: 'watch.resumed',
        webhookUrl: w.webhook_url,
        subjectId: w.id,
        at: now,
        data: {
          watchId: w.id,
          channel: { id: w.channel_id, title: w.channel_title },
          reason: 'credits',
        } satisfies WatchResumedPayload['data'],
      });
    }
    return resumed.map((w) => w.id);
  });
}

type PausedWatch = Pick<WatchRow, 'id' | 'account_id' | 'channel_id' | 'prepaid_units' | 'track_days'>;

/** What each watch's next check reserves, with the stored Shorts its tracking would refresh now. */
async function reservations(
  tx: Transaction,
  watches: PausedWatch[],
  deps: SchedulerDeps,
  now: number,
): Promise<number[]> {
  const trackedWatches = watches.filter((w) => w.track_days !== null);
  const counts = await trackedCounts(
    tx,
    trackedWatches.map((w) => ({ channelId: w.channel_id, days: w.track_days! })),
    now,
  );
  const tracked = new Map(trackedWatches.map((w, i) => [w.id, counts[i]!]));
  return watches.map((w) => watchReservation(w, tracked.get(w.id) ?? 0, deps));
}

/**
 * A push notification (WebSub) announced uploads on a channel: its active watches that have not
 * seen every announced video are checked now (an update to an old video costs nothing).
 */
/** The account a push-triggered check would be made for, as the metered windows need it. */
export type PushedAccount = Pick<
  AccountRow,
  'id' | 'rate_limit_per_minute' | 'rate_limit_per_hour' | 'rate_limit_per_day'
>;

/**
 * Queues a check of every active watch of `channelId` that has not seen all of `videoIds`. Each
 * check is a metered call of its account: `admit` counts it, and a watch whose account is past its
 * limits is left to its schedule.
 */
export async function checkChannelNow(
  deps: SchedulerDeps,
  channelId: string,
  videoIds: string[],
  admit: (account: PushedAccount) => Promise<boolean> = async () => true,
): Promise<WatchCheckJob[]> {
  if (videoIds.length === 0) return [];
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const rows = await tx.query<{ watch_id: string } & PushedAccount>(
      `SELECT w.id AS watch_id, a.id, a.rate_limit_per_minute, a.rate_limit_per_hour, a.rate_limit_per_day
         FROM watches w JOIN accounts a ON a.id = w.account_id
        WHERE w.channel_id = $1 AND w.status = 'active' AND a.disabled_at IS NULL
          AND (SELECT count(*) FROM watch_seen_shorts s WHERE s.watch_id = w.id AND s.video_id = ANY($2::text[])) <
            cardinality($2::text[])`,
      [channelId, videoIds],
    );
    const jobs: WatchCheckJob[] = [];
    for (const row of rows) {
      if (!(await admit(row))) continue;
      const job = { watchId: row.watch_id, checkId: newCheckId(now), trigger: 'push' as const };
      await deps.enqueueCheck(tx, job);
      jobs.push(job);
    }
    return jobs;
  });
}
