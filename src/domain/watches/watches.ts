// The watch use cases behind /api/youtube/watches: create (resolve the channel and take the
// baseline: what exists now is never reported), change, pause/resume, delete.
import type { Transaction } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import { chargeCredits } from '../credits/ledger.ts';
import { releaseReservation } from '../credits/reservations.ts';
import { MeteredWork } from '../quota/metered-work.ts';
import { parseChannelUrl, type ChannelRef } from '../shorts/channel-url.ts';
import { resolveChannel } from '../shorts/channel-resolver.ts';
import { innertubeFailureKind } from '../shorts/innertube-source.ts';
import { unavailableError } from '../shorts/sources/innertube-access.ts';
import { assertAcceptableWebhookUrl } from '../webhooks/webhook-url.ts';
import { resolveAddress } from '../shorts/sources/innertube-access.ts';
import { checkPrice, listNewest, MAX_CHECK_UNITS, type WatchCheckDeps } from './watch-check.ts';
import {
  countWatches,
  findWatch,
  markSeen,
  newCheckId,
  newWatchId,
  toWatch,
  type Watch,
  type WatchRow,
} from './watch-store.ts';

export interface WatchSettings {
  maxPerAccount: number;
  minIntervalSeconds: number;
  allowPrivateWebhooks: boolean;
}

export interface WatchDeps extends WatchCheckDeps {
  settings: WatchSettings;
  /** A new watch's channel feed is subscribed at the WebSub hub (when PUBLIC_BASE_URL is set). */
  onChannelWatched?(channelId: string): void;
}

export interface CreateWatchInput {
  accountId: string;
  channelUrl: string;
  webhookUrl: string;
  intervalSeconds?: number;
  trackStats?: { days: number };
  alert?: { viewsGained: number; withinHours: number };
}

/** An alert reads the tracked counts: a watch without tracking has none to read. */
function checkTracking(trackStats: { days: number } | null | undefined, alert: unknown): void {
  if (alert && !trackStats)
    throw new AppError('VALIDATION_FAILED', 'alert needs trackStats: it is computed from the tracked counts.');
}

/** The longest check interval (GET /api/pricing publishes it with the shortest). */
export const MAX_WATCH_INTERVAL_SECONDS = 30 * 86_400;

function checkInterval(settings: WatchSettings, seconds: number): void {
  if (!Number.isSafeInteger(seconds) || seconds < settings.minIntervalSeconds) {
    throw new AppError(
      'VALIDATION_FAILED',
      `intervalSeconds must be an integer of at least ${settings.minIntervalSeconds} ` +
        `(WATCH_MIN_INTERVAL_SECONDS); got ${seconds}.`,
    );
  }
  if (seconds > MAX_WATCH_INTERVAL_SECONDS)
    throw new AppError(
      'VALIDATION_FAILED',
      `intervalSeconds must be at most ${MAX_WATCH_INTERVAL_SECONDS} (30 days); got ${seconds}.`,
    );
}

function tooMany(settings: WatchSettings): AppError {
  return new AppError(
    'CONFLICT',
    `This account has its maximum of ${settings.maxPerAccount} watches (WATCHES_PER_ACCOUNT); delete one first.`,
  );
}

/** The id prefix of a watch creation's credit hold: the creations in flight are counted by it. */
const CREATION_HOLD = 'wcn_';

/** The account's watches and its creations in flight (holds that have not lapsed). */
async function countWatchesAndCreations(tx: Transaction, accountId: string, now: Date): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM watches WHERE account_id = $1)::int
          + (SELECT count(*) FROM credit_reservations WHERE account_id = $1 AND starts_with(request_id, $2)
            AND expires_at > $3)::int AS n`,
    [accountId, CREATION_HOLD, now],
  );
  return row?.n ?? 0;
}

/** Serialises an account's watch creations, so the maximum holds under concurrency. */
async function lockAccountWatches(tx: Transaction, accountId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`watches:${accountId}`]);
}

export async function createWatch(deps: WatchDeps, input: CreateWatchInput): Promise<Watch> {
  const ref = parseChannelUrl(input.channelUrl);
  assertAcceptableWebhookUrl(input.webhookUrl, deps.settings.allowPrivateWebhooks);
  const interval = input.intervalSeconds ?? deps.settings.minIntervalSeconds;
  checkInterval(deps.settings, interval);
  checkTracking(input.trackStats, input.alert);

  const nowMs = deps.now();
  const now = new Date(nowMs);
  const id = newWatchId(nowMs);
  const checkId = newCheckId(nowMs);
  // Like a shorts request: reserve the minimum, resolve as a probe (unpaid until it succeeds), then
  // commit to the baseline's price. The hold is the creation's place: taken under the account's
  // lock after counting the watches and the creations in flight (their holds), so concurrent
  // creations past the maximum are refused before any upstream work (refused after reading the
  // channel, their paid reads would count as unpaid).
  const holdId = `${CREATION_HOLD}${checkId.slice(4)}`;
  const work = await deps.db.transaction(async (tx) => {
    await lockAccountWatches(tx, input.accountId);
    if ((await countWatchesAndCreations(tx, input.accountId, now)) >= deps.settings.maxPerAccount)
      throw tooMany(deps.settings);
    return MeteredWork.open(
      {
        db: deps.db,
        accountId: input.accountId,
        requestId: holdId,
        settings: deps.quota,
        now: deps.now,
        reservationExpiresAt: new Date(nowMs + 5 * 60_000),
        releaseOnFailure: true,
      },
      { reserve: 'minimum', reserveWith: tx },
    );
  });
  let watch: WatchRow;
  try {
    watch = await work.run((opened) => takeBaseline(deps, input, opened, { ref, id, checkId, holdId, interval, now }));
  } catch (error) {
    if (innertubeFailureKind(error)) throw unavailableError(error);
    throw error;
  }
  deps.onCheck?.({ trigger: 'create', outcome: 'ok', units: work.spent, newShorts: 0 });
  deps.onChannelWatched?.(watch.channel_id);
  return toWatch(watch);
}

/**
 * A new watch's first read, paid like a shorts request: resolve as a probe (unpaid until it
 * succeeds), commit to the baseline's price, list the newest shorts, and record the watch, its
 * baseline and its charge in one transaction.
 */
async function takeBaseline(
  deps: WatchDeps,
  input: CreateWatchInput,
  work: MeteredWork,
  at: { ref: ChannelRef; id: string; checkId: string; holdId: string; interval: number; now: Date },
): Promise<WatchRow> {
  const { id, checkId, holdId, now } = at;
  const calls = deps.youtube.metered(work.take);
  const channel = await resolve(deps, at.ref, calls, work);
  await work.commit(
    Math.ceil(MAX_CHECK_UNITS / deps.quota.unitsPerCredit),
    'Creating a watch reads the channel and its newest shorts, which costs',
  );
  const listing = await listNewest(deps, calls, channel.id);
  // The baseline's newest date, which tells the back-catalogue apart later (watch-check.ts): the
  // Shorts tab lists no dates, so hybrid reads it (1 unit), or it would stay unknown.
  let newestPublished = listing.ids[0] ? listing.publishedAt.get(listing.ids[0]) : undefined;
  if (listing.ids[0] && newestPublished === undefined && listing.source === 'hybrid') {
    newestPublished = (await calls.videos([listing.ids[0]])).items?.[0]?.snippet?.publishedAt;
  }
  const units = work.spent;
  const baseline = { channel, ids: listing.ids, newestPublished, units };
  return deps.db.transaction(async (tx) => {
    await lockAccountWatches(tx, input.accountId);
    if ((await countWatches(tx, input.accountId)) >= deps.settings.maxPerAccount) throw tooMany(deps.settings);
    const price = checkPrice(0, units, 0, deps.quota, deps.pricing);
    const row = await insertWatch(tx, input, at, baseline, price.prepaidAfter);
    // The baseline: everything listed now counts as seen and is never reported.
    await markSeen(tx, id, listing.ids, now);
    await tx.query(
      'INSERT INTO watch_checks (id, watch_id, account_id, trigger, units, new_shorts, credits_charged, outcome, ' +
        'created_at, channel_url, channel_title) VALUES ($1, $2, $3, $4, $5, 0, $6, $7, $8, $9, $10)',
      [checkId, id, input.accountId, 'create', units, price.credits, 'ok', now, input.channelUrl, channel.title],
    );
    await releaseReservation(tx, holdId);
    await chargeCredits(tx, input.accountId, price.credits, checkId);
    return row;
  });
}

async function insertWatch(
  tx: Transaction,
  input: CreateWatchInput,
  at: { id: string; interval: number; now: Date },
  baseline: {
    channel: { id: string; title: string; customUrl?: string };
    ids: string[];
    newestPublished: string | undefined;
    units: number;
  },
  prepaidUnits: number,
): Promise<WatchRow> {
  const { channel, newestPublished } = baseline;
  const [row] = await tx.query<WatchRow>(
    `INSERT INTO watches (id, account_id, channel_url, channel_id, channel_title, channel_custom_url, webhook_url,
      interval_seconds, status, next_check_at, last_check_at,
       last_seen_short_id, last_seen_published_at, prepaid_units, checks, units_spent, created_at,
       track_days, alert_views, alert_hours)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'active', $9, $10, $11, $12, $13, 1, $14, $10, $15, $16, $17)
     RETURNING *`,
    [
      at.id,
      input.accountId,
      input.channelUrl,
      channel.id,
      channel.title,
      channel.customUrl ?? null,
      input.webhookUrl,
      at.interval,
      new Date(at.now.getTime() + at.interval * 1000),
      at.now,
      baseline.ids[0] ?? null,
      newestPublished ? new Date(newestPublished) : null,
      prepaidUnits,
      baseline.units,
      input.trackStats?.days ?? null,
      input.alert?.viewsGained ?? null,
      input.alert?.withinHours ?? null,
    ],
  );
  return row!;
}

async function resolve(
  deps: WatchDeps,
  ref: ChannelRef,
  calls: ReturnType<WatchDeps['youtube']['metered']>,
  work: MeteredWork,
): Promise<{ id: string; title: string; customUrl?: string }> {
  if (deps.innertube && deps.source === 'innertube') {
    // Keyless: InnerTube resolves and describes the channel at 0 units.
    const channelId = ref.type === 'id' ? ref.value : await resolveAddress(deps.innertube, ref);
    const channel = channelId ? await deps.innertube.channel(channelId) : undefined;
    if (!channel) throw new AppError('CHANNEL_NOT_FOUND', 'No channel exists at that address.');
    return {
      id: channel.id,
      title: channel.title ?? channel.id,
      ...(channel.handle ? { customUrl: channel.handle.toLowerCase() } : {}),
    };
  }
  const channel = await resolveChannel(ref, { calls, canSpendUnpaid: work.canSpendUnpaid });
  return {
    id: channel.id,
    title: channel.snippet?.title ?? channel.id,
    ...(channel.snippet?.customUrl ? { customUrl: channel.snippet.customUrl } : {}),
  };
}

export async function ownWatch(deps: Pick<WatchDeps, 'db'>, accountId: string, id: string): Promise<WatchRow> {
  const row = await findWatch(deps.db, id);
  // Someone else's watch is indistinguishable from one that does not exist.
  if (!row || row.account_id !== accountId) throw new AppError('NOT_FOUND', `No watch ${id}.`);
  return row;
}

export interface WatchChanges {
  webhookUrl?: string;
  intervalSeconds?: number;
  status?: 'active' | 'paused';
  /** null stops tracking (and its alert). */
  trackStats?: { days: number } | null;
  alert?: { viewsGained: number; withinHours: number } | null;
}

export async function updateWatch(
  deps: WatchDeps,
  accountId: string,
  id: string,
  changes: WatchChanges,
): Promise<Watch> {
  if (changes.webhookUrl !== undefined)
    assertAcceptableWebhookUrl(changes.webhookUrl, deps.settings.allowPrivateWebhooks);
  if (changes.intervalSeconds !== undefined) checkInterval(deps.settings, changes.intervalSeconds);
  const current = await ownWatch(deps, accountId, id);
  const days = changes.trackStats === undefined ? current.track_days : (changes.trackStats?.days ?? null);
  const alert =
    changes.alert !== undefined
      ? changes.alert
      : current.alert_views === null || current.alert_hours === null || days === null
        ? null
        : { viewsGained: Number(current.alert_views), withinHours: current.alert_hours };
  checkTracking(days === null ? null : { days }, changes.alert);
  const now = new Date(deps.now());
  const interval = changes.intervalSeconds ?? current.interval_seconds;
  const resuming = changes.status === 'active' && current.status === 'paused';
  // Resumed: checked at once. A shorter interval: the next check moves closer, never later.
  const next = resuming ? now : new Date(Math.min(current.next_check_at.getTime(), now.getTime() + interval * 1000));
  const [row] = await deps.db.query<WatchRow>(
    `UPDATE watches SET webhook_url = $3, interval_seconds = $4, status = $5, paused_reason = $6, next_check_at = $7,
       track_days = $8, alert_views = $9, alert_hours = $10
     WHERE id = $1 AND account_id = $2 RETURNING *`,
    [
      id,
      accountId,
      changes.webhookUrl ?? current.webhook_url,
      interval,
      changes.status ?? current.status,
      (changes.status ?? current.status) === 'active'
        ? null
        : changes.status === 'paused'
          ? 'user'
          : current.paused_reason,
      next,
      days,
      alert?.viewsGained ?? null,
      alert?.withinHours ?? null,
    ],
  );
  if (!row) throw new AppError('NOT_FOUND', `No watch ${id}.`);
  return toWatch(row);
}

export async function deleteWatch(deps: Pick<WatchDeps, 'db'>, accountId: string, id: string): Promise<Watch> {
  const [deleted] = await deps.db.query<WatchRow>('DELETE FROM watches WHERE id = $1 AND account_id = $2 RETURNING *', [
    id,
    accountId,
  ]);
  if (!deleted) throw new AppError('NOT_FOUND', `No watch ${id}.`);
  return toWatch(deleted);
}
