// One check of a watch: read only the newest listing page of the channel's Shorts, fetch
// details only for ids this watch has not seen, report them as one shorts.created event (oldest
// first), and charge for it — all recorded in one transaction.
//
// Cost: the UUSH playlist's first page (1 unit) plus, when something is new, one videos.list call
// for up to 50 ids (1 unit): 1 unit when nothing is new, 2 when something is. With the InnerTube
// Shorts tab (hybrid) the listing is free: 0 or 1 unit; keyless (innertube) checks spend no units.
//
// Price (docs/watches.md): units are paid in advance in whole credits (1 credit buys
// QUOTA_UNITS_PER_CREDIT units, kept on the watch as prepaid_units), and reported shorts cost what the
// shorts endpoint charges for them (CREDITS_PER_BLOCK per started block of SHORTS_PER_CREDIT_BLOCK).
// Before any upstream call the check reserves what it may cost (src/domain/credits/reservations.ts);
// every call goes through its quota meter (src/domain/quota/quota-meter.ts), so no unit is spent
// that credits do not pay for. An account that cannot reserve gets its watch paused (watch.paused).
import type { Database, Queryable, Transaction } from '../../infra/db/database.ts';
import { isAppError, type AppError } from '../../errors.ts';
import { chargeCredits } from '../credits/ledger.ts';
import { releaseReservation, reserveCredits } from '../credits/reservations.ts';
import { BudgetExhausted, type QuotaSettings } from '../quota/quota-meter.ts';
import { MeteredWork } from '../quota/metered-work.ts';
import type { PriceSettings } from '../shorts/pricing.ts';
import { shortsPlaylistId } from '../shorts/shorts-collector.ts';
import { PlaylistNotFound, type YoutubeCalls, type YoutubeClient } from '../shorts/youtube-client.ts';
import {
  innertubeFailureKind,
  keylessChannel,
  keylessVideo,
  KEYLESS_APPROXIMATE_FIELDS,
  type InnertubeClient,
  type InnertubeShortItem,
} from '../shorts/innertube-source.ts';
import type { SourceMode } from '../shorts/shorts-query.ts';
import { unavailableError } from '../shorts/sources/innertube-access.ts';
import { channelIdentity, parseTimestamp, toShort } from '../shorts/mapping.ts';
import type { Channel, Short } from '../../contract/shorts.ts';
import type {
  ShortsCreatedPayload,
  ShortsGrowthPayload,
  WatchCheck,
  WatchPausedPayload,
} from '../../contract/watches.ts';
import {
  claimAlerts,
  type GrowthAlertHit,
  growthAlerts,
  readCounts,
  trackedIds,
  trackingUnits,
} from '../stats/tracking.ts';
import type { YtChannel } from '../shorts/youtube-types.ts';
import type { NewEvent, StoredEvent } from '../webhooks/events.ts';
import { findWatch, markSeen, seenAmong, type WatchRow } from './watch-store.ts';
import { snapshotOf, type SnapshotRecorder } from '../stats/snapshots.ts';

/** The most units one check can spend: a listing page and one details batch. */
export const MAX_CHECK_UNITS = 2;
/** A check's reservation lapses after this if its process died (the next check reserves anew). */
const CHECK_RESERVATION_MS = 15 * 60_000;
/** One listing page holds at most this many ids (playlistItems maxResults; a tab page holds 48). */
const PAGE_SIZE = 50;

export type CheckTrigger = WatchCheck['trigger'];

export interface WatchCheckDeps {
  db: Database;
  youtube: YoutubeClient;
  innertube: InnertubeClient | undefined;
  source: SourceMode;
  quota: QuotaSettings;
  pricing: PriceSettings;
  now: () => number;
  /** Stores the counts of the shorts a check read in detail (domain/stats); never fails the check. */
  snapshots?: SnapshotRecorder;
  /** Records an event and queues its delivery in the caller's transaction (events.ts + the delivery job). */
  recordEvent(tx: Transaction, event: NewEvent): Promise<StoredEvent>;
  /** Metrics: a finished check; lagMs = from the newest new short's publication to its event. */
  onCheck?(check: {
    trigger: CheckTrigger;
    outcome: 'ok' | 'failed' | 'paused';
    units: number;
    newShorts: number;
    lagMs?: number;
  }): void;
}

/** What one listing read: ids newest first, with publish times when the listing has them. */
export interface Listing {
  ids: string[];
  publishedAt: Map<string, string>;
  source: 'data-api' | 'hybrid' | 'innertube';
  /** Keyless mode: the tab's items (the only details there are) and the channel they belong to. */
  tabItems?: Map<string, InnertubeShortItem>;
  tabChannel?: YtChannel;
  /** The Shorts tab's header (hybrid and keyless): the channel's title and handle as they are now. */
  header?: YtChannel;
}

/** Credits a check reserves before it starts: the units its prepaid units do not cover, and one new page of shorts. */
export function checkReservation(
  prepaidUnits: number,
  quota: QuotaSettings,
  pricing: PriceSettings,
  trackingUnits = 0,
): number {
  const unitCredits = Math.ceil(Math.max(0, MAX_CHECK_UNITS + trackingUnits - prepaidUnits) / quota.unitsPerCredit);
  return unitCredits + Math.ceil(PAGE_SIZE / pricing.shortsPerBlock) * pricing.creditsPerBlock;
}

/**
 * Credits the next check of `watch` reserves, `tracked` being how many stored Shorts its tracking
 * refreshes (trackedIds): the check reserves this, and the sweep resumes a watch paused for credits
 * only when this is available, else the check would pause it again at once.
 */
export function watchReservation(
  watch: Pick<WatchRow, 'prepaid_units' | 'track_days'>,
  tracked: number,
  deps: Pick<WatchCheckDeps, 'quota' | 'pricing'>,
): number {
  // Tracking reads the stored recent Shorts and the listing page's (up to one more call).
  const extra = watch.track_days === null ? 0 : trackingUnits(tracked + PAGE_SIZE);
  return checkReservation(watch.prepaid_units, deps.quota, deps.pricing, extra);
}

/** What a check that spent `units` and reported `reported` shorts costs, and the watch's prepaid units after it. */
export function checkPrice(
  prepaidUnits: number,
  units: number,
  reported: number,
  quota: QuotaSettings,
  pricing: PriceSettings,
): { credits: number; prepaidAfter: number } {
  const unitCredits = Math.ceil(Math.max(0, units - prepaidUnits) / quota.unitsPerCredit);
  const shortCredits = reported > 0 ? Math.ceil(reported / pricing.shortsPerBlock) * pricing.creditsPerBlock : 0;
  return {
    credits: unitCredits + shortCredits,
    prepaidAfter: prepaidUnits + unitCredits * quota.unitsPerCredit - units,
  };
}

/** The newest listing page: the Shorts tab where InnerTube is the source, else the UUSH playlist. */
export async function listNewest(
  deps: Pick<WatchCheckDeps, 'innertube' | 'source'>,
  calls: YoutubeCalls,
  channelId: string,
): Promise<Listing> {
  if (deps.innertube && deps.source !== 'data-api') {
    try {
      const page = await deps.innertube.shorts(channelId);
      const items = page.items.slice(0, PAGE_SIZE);
      return {
        ids: items.map((i) => i.id),
        publishedAt: new Map(),
        source: deps.source,
        // The tab's header names the channel as it is now (its title and handle), for free.
        header: page.channel ? keylessChannel(page.channel) : undefined,
        ...(deps.source === 'innertube'
          ? {
              tabItems: new Map(items.map((i) => [i.id, i])),
              tabChannel: page.channel
                ? keylessChannel(page.channel)
                : ({ kind: 'youtube#channel', id: channelId } as YtChannel),
            }
          : {}),
      };
    } catch (error) {
      // hybrid falls back to the playlist, as the shorts endpoint does; keyless has nothing else.
      if (deps.source === 'innertube' || !innertubeFailureKind(error)) throw error;
    }
  }
  try {
    const page = await calls.playlistItems(shortsPlaylistId(channelId));
    const ids: string[] = [];
    const publishedAt = new Map<string, string>();
    for (const item of page.items ?? []) {
      const id = item.contentDetails?.videoId;
      if (!id) continue;
      ids.push(id);
      if (item.contentDetails?.videoPublishedAt) publishedAt.set(id, item.contentDetails.videoPublishedAt);
    }
    return { ids, publishedAt, source: 'data-api' };
  } catch (error) {
    // A channel that has never posted a Short has no Shorts playlist.
    if (error instanceof PlaylistNotFound) return { ids: [], publishedAt: new Map(), source: 'data-api' };
    throw error;
  }
}

/**
 * Which unseen ids of a newest-first listing are new. Only those listed above (newer than) the
 * oldest-listed id the watch has already seen: an unseen id below it is older than shorts already
 * seen — back-catalogue that moved into the page because a short above it was deleted, or a longer
 * page than the baseline's. With no seen id in the page (a burst longer than a page, or a channel
 * that had no shorts), every unseen id is new.
 */
export function splitUnseen(ids: string[], seen: Set<string>): { fresh: string[]; older: string[] } {
  let lastSeen = -1;
  ids.forEach((id, i) => {
    if (seen.has(id)) lastSeen = i;
  });
  const fresh: string[] = [];
  const older: string[] = [];
  ids.forEach((id, i) => {
    if (seen.has(id)) return;
    (lastSeen < 0 || i < lastSeen ? fresh : older).push(id);
  });
  return { fresh, older };
}

interface ChannelNow {
  title: string;
  customUrl: string | null;
}

/**
 * The channel's title and handle now, for a check that found new shorts: the Shorts tab's header
 * when the listing came from it (free); on the Data API path, one channels.list call (1 unit) when
 * the new shorts name another title than the stored one (`titleNow`; a rename that keeps the title
 * goes unseen there). Best effort: should that call fail (the platform, or a balance that cannot
 * pay one more unit) the stored identity is kept.
 */
async function currentIdentity(
  calls: YoutubeCalls,
  listing: Listing,
  watch: Pick<WatchRow, 'channel_id' | 'channel_title' | 'channel_custom_url'>,
  titleNow: string | undefined,
): Promise<ChannelNow> {
  const stored = { title: watch.channel_title, customUrl: watch.channel_custom_url };
  try {
    const channel =
      listing.header ??
      (titleNow !== undefined && titleNow !== stored.title
        ? (await calls.channels({ part: 'snippet', id: watch.channel_id })).items?.[0]
        : undefined);
    if (!channel?.snippet) return stored;
    return { title: channel.snippet.title ?? stored.title, customUrl: channel.snippet.customUrl ?? stored.customUrl };
  } catch (error) {
    if (isAppError(error) || error instanceof BudgetExhausted || innertubeFailureKind(error)) return stored;
    throw error;
  }
}

/** The new shorts as the shorts endpoint shows them, oldest first. */
async function detailsOf(
  calls: YoutubeCalls,
  listing: Listing,
  ids: string[],
  watch: Pick<WatchRow, 'channel_id'>,
  identityNow: (titleNow: string | undefined) => Promise<ChannelNow>,
): Promise<Short[]> {
  if (ids.length === 0) return [];
  const identityOf = (now: ChannelNow) =>
    channelIdentity({ snippet: { ...(now.customUrl ? { customUrl: now.customUrl } : {}) } } as Channel);
  let shorts: Short[];
  if (listing.tabItems) {
    const identity = identityOf(await identityNow(undefined));
    shorts = ids.map((id) => toShort(keylessVideo(listing.tabItems!.get(id)!, listing.tabChannel!), identity));
  } else {
    // A listed id videos.list does not return (private, processing, removed) is not reported yet.
    const found = ((await calls.videos(ids)).items ?? []).filter(
      (v) => v.snippet?.channelId === undefined || v.snippet.channelId === watch.channel_id,
    );
    const identity = identityOf(await identityNow(found.find((v) => v.snippet?.channelTitle)?.snippet?.channelTitle));
    shorts = found.map((v) => toShort(v, identity));
  }
  // Oldest first: by publish time where known, else the listing's order reversed (it is newest first).
  const position = new Map(ids.map((id, i) => [id, i]));
  return shorts.sort((a, b) => {
    const ta = parseTimestamp(a.snippet.publishedAt);
    const tb = parseTimestamp(b.snippet.publishedAt);
    if (ta !== undefined && tb !== undefined && ta !== tb) return ta - tb;
    return position.get(b.id)! - position.get(a.id)!;
  });
}

export type CheckResult =
  | { outcome: 'ok'; newShorts: number; units: number; credits: number }
  | { outcome: 'failed'; error: string; units: number }
  | { outcome: 'paused' }
  | { outcome: 'skipped'; why: string };

/** One run of a check: which check, why, and when it counts as made. */
interface CheckRun {
  checkId: string;
  trigger: CheckTrigger;
  now: Date;
}

/** What a check read: the listing, the new shorts it reports, the older ones it only marks seen. */
interface CheckRead {
  listing: Listing;
  reported: Short[];
  backCatalogue: string[];
  identity: ChannelNow;
  /** Tracked Shorts that gained the alert's views within its hours. */
  alerts: GrowthAlertHit[];
}

/**
 * Runs check `checkId` of a watch. Idempotent: a retried job (the process died) whose check was
 * recorded does nothing; one that died before recording runs again, and the seen-set makes sure
 * nothing is reported twice. Throws only for infrastructure trouble (the queue retries the job).
 */
export async function runWatchCheck(
  deps: WatchCheckDeps,
  watchId: string,
  checkId: string,
  trigger: CheckTrigger,
): Promise<CheckResult> {
  const watch = await checkableWatch(deps.db, watchId, checkId);
  if ('outcome' in watch) return watch;
  const run: CheckRun = { checkId, trigger, now: new Date(deps.now()) };
  const tracked =
    watch.track_days === null ? [] : await trackedIds(deps.db, watch.channel_id, watch.track_days, deps.now());
  const work = await openCheck(deps, watch, run, tracked);
  if (!(work instanceof MeteredWork)) return work;
  let read: CheckRead;
  try {
    read = await readNewShorts(deps, watch, work, tracked);
  } catch (error) {
    // YouTube answered that the channel is gone: a check like any other for what it cost (paid from
    // the check's reservation, never the allowance: each such check counted as unpaid would take a
    // watched account past its allowance), paused after GONE_CHECKS of them in a row.
    if (isAppError(error) && error.code === 'CHANNEL_NOT_FOUND')
      return settleGoneChannel(deps, watch, work, run, error);
    return settleFailedCheck(deps, watch, work, run, error);
  }
  return settleCheck(deps, watch, work, run, read);
}

/** The watch, when check `checkId` of it is to run; else why it is skipped. */
async function checkableWatch(db: Queryable, watchId: string, checkId: string): Promise<WatchRow | CheckResult> {
  if ((await db.query('SELECT 1 FROM watch_checks WHERE id = $1', [checkId])).length > 0)
    return { outcome: 'skipped', why: 'already recorded' };
  const watch = await findWatch(db, watchId);
  if (!watch) return { outcome: 'skipped', why: 'deleted' };
  if (watch.status !== 'active') return { outcome: 'skipped', why: 'paused' };
  // Queued before its account was disabled: not run (the sweep claims no more of its watches).
  const [account] = await db.query<{ disabled: boolean }>(
    'SELECT disabled_at IS NOT NULL AS disabled FROM accounts WHERE id = $1',
    [watch.account_id],
  );
  if (!account || account.disabled) return { outcome: 'skipped', why: 'account disabled' };
  return watch;
}

/**
 * Reserves what the check may cost and opens its metered work, already paid from that hold (the
 * price is known before the first call); an account that cannot reserve gets its watch paused.
 */
async function openCheck(
  deps: WatchCheckDeps,
  watch: WatchRow,
  run: CheckRun,
  tracked: string[],
): Promise<MeteredWork | CheckResult> {
  const { db } = deps;
  const { checkId, trigger, now } = run;
  const reserve = watchReservation(watch, tracked.length, deps);
  const expiresAt = new Date(deps.now() + CHECK_RESERVATION_MS);
  // A run of this check that died (kill -9) after reserving left its hold under the same id: this
  // run's reservation replaces it. Added to it, the two could exceed the available credits and pause
  // the watch for credits the account has (nothing was charged for the dead run).
  await releaseReservation(db, checkId);
  if (
    !(await reserveCredits(db, { accountId: watch.account_id, requestId: checkId, credits: reserve, expiresAt, now }))
  ) {
    await pauseForCredits(deps, watch, checkId, trigger, reserve);
    deps.onCheck?.({ trigger, outcome: 'paused', units: 0, newShorts: 0 });
    return { outcome: 'paused' };
  }
  const input = {
    db,
    accountId: watch.account_id,
    requestId: checkId,
    settings: deps.quota,
    now: deps.now,
    reservationExpiresAt: expiresAt,
    releaseOnFailure: true,
  };
  return MeteredWork.open(input, { held: () => reserve, paidFrom: 'A watch check costs up to' });
}

/** Reads the newest listing page and the details of the shorts in it this watch has not seen. */
async function readNewShorts(
  deps: WatchCheckDeps,
  watch: WatchRow,
  work: MeteredWork,
  tracked: string[],
): Promise<CheckRead> {
  const calls = deps.youtube.metered(work.take);
  const listing = await listNewest(deps, calls, watch.channel_id);
  const seen = await seenAmong(deps.db, watch.id, listing.ids);
  const { fresh, older } = splitUnseen(listing.ids, seen);
  const backCatalogue = older;
  let identity: ChannelNow = { title: watch.channel_title, customUrl: watch.channel_custom_url };
  // New shorts are reported with the channel as it is now: a renamed handle or title, not the one
  // the channel had when the watch was made.
  let reported = await detailsOf(
    calls,
    listing,
    fresh,
    watch,
    async (titleNow) => (identity = await currentIdentity(calls, listing, watch, titleNow)),
  );
  deps.snapshots?.record(
    snapshotOf(
      {
        shorts: reported,
        fetchedAt: new Date(deps.now()).toISOString(),
        ...(listing.tabItems ? { approximateFields: [...KEYLESS_APPROXIMATE_FIELDS] } : {}),
      },
      watch.channel_id,
    ),
  );
  // No seen id left in the page (they were all taken down, say): shorts published before the newest
  // one the watch has seen are back-catalogue too, where their dates tell (else older shorts would
  // be reported, and charged, as new).
  const newestSeen = watch.last_seen_published_at?.getTime();
  if (newestSeen !== undefined && fresh.length > 0 && older.length === 0 && !listing.ids.some((id) => seen.has(id))) {
    const backdated = new Set(
      reported.filter((s) => (parseTimestamp(s.snippet.publishedAt) ?? Infinity) < newestSeen).map((s) => s.id),
    );
    backCatalogue.push(...backdated);
    reported = reported.filter((s) => !backdated.has(s.id));
  }
  const alerts = await refreshTracked(deps, watch, calls, { listing, tracked, detailed: new Set(fresh) });
  return { listing, reported, backCatalogue, identity, alerts };
}

/**
 * A tracked watch's refresh: the counts of its channel's recent Shorts (the stored ones published
 * within track_days and the listing page's, less those just read in detail), stored as snapshots;
 * with an alert, the Shorts that gained its views within its hours.
 */
async function refreshTracked(
  deps: WatchCheckDeps,
  watch: WatchRow,
  calls: YoutubeCalls,
  read: { listing: Listing; tracked: string[]; detailed: Set<string> },
): Promise<GrowthAlertHit[]> {
  if (watch.track_days === null || read.listing.tabItems) return [];
  const cutoff = deps.now() - watch.track_days * 86_400_000;
  const recent = read.listing.ids.filter((id) => {
    const at = parseTimestamp(read.listing.publishedAt.get(id));
    return at === undefined || at >= cutoff;
  });
  const ids = [...new Set([...read.tracked, ...recent])].filter((id) => !read.detailed.has(id));
  const at = new Date(deps.now());
  const points = await readCounts(calls, ids, watch.channel_id, at);
  const alerts =
    watch.alert_views !== null && watch.alert_hours !== null
      ? await growthAlerts(
          deps.db,
          points,
          { viewsGained: Number(watch.alert_views), withinHours: watch.alert_hours },
          at,
        )
      : [];
  deps.snapshots?.record({ shorts: points });
  return alerts;
}

/**
 * A check that failed: its work settles as failed (hold released, units unpaid) and the failure is
 * recorded on the watch. Infrastructure trouble is thrown instead: the queue retries the job.
 */
async function settleFailedCheck(
  deps: WatchCheckDeps,
  watch: WatchRow,
  work: MeteredWork,
  run: CheckRun,
  error: unknown,
): Promise<CheckResult> {
  const { checkId, trigger, now } = run;
  await work.failed(error);
  const budget = error instanceof BudgetExhausted;
  if (!isAppError(error) && !innertubeFailureKind(error) && !budget) throw error;
  const named = isAppError(error) ? error : budget ? undefined : unavailableError(error);
  const message = named
    ? `${named.code}: ${named.message}`
    : 'The check needed more upstream calls than its reservation paid for (platform retries) and the balance ' +
      'could not grow it; the next check tries again.';
  const units = work.spent;
  await deps.db.transaction(async (tx) => {
    if (!(await recordCheck(tx, watch, { id: checkId, trigger, units, outcome: 'failed', error: message, at: now })))
      return;
    await tx.query(
      'UPDATE watches SET last_check_at = $2, checks = checks + 1, units_spent = units_spent + $3, ' +
        'last_error = $4 WHERE id = $1',
      [watch.id, now, units, message],
    );
  });
  deps.onCheck?.({ trigger, outcome: 'failed', units, newShorts: 0 });
  return { outcome: 'failed', error: message, units };
}

/**
 * A check that read: recorded, charged and its new shorts reported in one transaction, its work
 * settled as paid. Recorded by another run meanwhile, or its watch deleted: its units were spent for
 * nothing recorded, and settle as a failed check's.
 */
async function settleCheck(
  deps: WatchCheckDeps,
  watch: WatchRow,
  work: MeteredWork,
  run: CheckRun,
  read: CheckRead,
): Promise<CheckResult> {
  const { trigger } = run;
  const units = work.spent;
  const outcome = await deps.db.transaction((tx) => recordRead(deps, tx, watch, work, run, read));
  if (!outcome || outcome === 'deleted') {
    await work.failed();
    return { outcome: 'skipped', why: outcome === 'deleted' ? 'deleted' : 'already recorded' };
  }
  await work.succeeded();
  deps.onCheck?.({
    trigger,
    outcome: 'ok',
    units,
    newShorts: outcome.shorts,
    ...(outcome.lagMs !== undefined ? { lagMs: outcome.lagMs } : {}),
  });
  return { outcome: 'ok', newShorts: outcome.shorts, units, credits: outcome.credits };
}

/** settleCheck's transaction: undefined when a run of this check was recorded already. */
async function recordRead(
  deps: WatchCheckDeps,
  tx: Transaction,
  watch: WatchRow,
  work: MeteredWork,
  run: CheckRun,
  read: CheckRead,
): Promise<{ shorts: number; credits: number; lagMs: number | undefined } | 'deleted' | undefined> {
  const { checkId, trigger, now } = run;
  const { listing, reported, identity } = read;
  const units = work.spent;
  if (!(await recordCheck(tx, watch, { id: checkId, trigger, units, outcome: 'ok', at: now }))) return undefined;
  // The row lock orders concurrent checks of one watch (a push and the schedule): what one
  // reported, the other finds seen. Prepaid units are read under the lock too.
  const [locked] = await tx.query<{ prepaid_units: number; status: string }>(
    'SELECT prepaid_units, status FROM watches WHERE id = $1 FOR UPDATE',
    [watch.id],
  );
  if (!locked) {
    // Deleted during the check: no check of it is recorded.
    await tx.query('DELETE FROM watch_checks WHERE id = $1', [checkId]);
    return 'deleted';
  }
  // The baseline (the check made when the watch is created) reports nothing: it records what exists.
  const isNew = await markSeen(tx, watch.id, trigger === 'create' ? listing.ids : reported.map((s) => s.id), now);
  // Older shorts the page shows for the first time (it shifted: a short above them was deleted,
  // or the listing changed between tab and playlist) are back-catalogue: seen, never reported.
  await markSeen(tx, watch.id, read.backCatalogue, now);
  const shorts = trigger === 'create' ? [] : reported.filter((s) => isNew.has(s.id));
  const price = cappedPrice(deps, locked.prepaid_units, units, shorts.length, work.reservedCredits);
  await releaseReservation(tx, checkId);
  await chargeCredits(tx, watch.account_id, price.credits, checkId);
  if (shorts.length > 0) await reportShorts(deps, tx, watch, run, identity, shorts);
  if (read.alerts.length > 0) await reportGrowth(deps, tx, watch, run, identity, read.alerts);
  const newestReported = shorts.reduce<number | undefined>((max, s) => {
    const t = parseTimestamp(s.snippet.publishedAt);
    return t !== undefined && (max === undefined || t > max) ? t : max;
  }, undefined);
  await tx.query(
    'UPDATE watch_checks SET new_shorts = $2, credits_charged = $3, newest_published_at = $4 WHERE id = $1',
    [checkId, shorts.length, price.credits, newestReported === undefined ? null : new Date(newestReported)],
  );
  await updateWatchAfterCheck(tx, watch, run, read, {
    units,
    reported: shorts.length,
    prepaidAfter: price.prepaidAfter,
  });
  return {
    shorts: shorts.length,
    credits: price.credits,
    lagMs: newestReported === undefined ? undefined : now.getTime() - newestReported,
  };
}

/** The new shorts a check found, as one shorts.created event to the watch's webhook. */
async function reportShorts(
  deps: WatchCheckDeps,
  tx: Transaction,
  watch: WatchRow,
  run: CheckRun,
  identity: ChannelNow,
  shorts: Short[],
): Promise<void> {
  const { checkId, now } = run;
  await deps.recordEvent(tx, {
    accountId: watch.account_id,
    type: 'shorts.created',
    webhookUrl: watch.webhook_url,
    subjectId: watch.id,
    at: now,
    data: {
      watchId: watch.id,
      checkId,
      channel: { id: watch.channel_id, title: identity.title },
      shorts,
    } satisfies ShortsCreatedPayload['data'],
  });
}

/** Tracked Shorts taking off, one shorts.growth event each, at most once per Short per alert window. */
async function reportGrowth(
  deps: WatchCheckDeps,
  tx: Transaction,
  watch: WatchRow,
  run: CheckRun,
  identity: ChannelNow,
  alerts: GrowthAlertHit[],
): Promise<void> {
  const hours = watch.alert_hours ?? 0;
  const claimed = await claimAlerts(
    tx,
    watch.id,
    alerts.map((a) => a.videoId),
    hours,
    run.now,
  );
  for (const alert of alerts.filter((a) => claimed.has(a.videoId))) {
    await deps.recordEvent(tx, {
      accountId: watch.account_id,
      type: 'shorts.growth',
      webhookUrl: watch.webhook_url,
      subjectId: watch.id,
      at: run.now,
      data: {
        watchId: watch.id,
        checkId: run.checkId,
        channel: { id: watch.channel_id, title: identity.title },
        videoId: alert.videoId,
        shortUrl: `https://www.youtube.com/shorts/${alert.videoId}`,
        viewCount: alert.viewCount,
        viewsGained: alert.viewsGained,
        since: new Date(alert.since).toISOString(),
        withinHours: hours,
      } satisfies ShortsGrowthPayload['data'],
    });
  }
}

/**
 * A check's price, never more than its reservation: retried platform calls (5xx) can take a check
 * past the units it reserved for; those units go unpaid, like every platform failure's (docs/quota.md).
 */
function cappedPrice(
  deps: Pick<WatchCheckDeps, 'quota' | 'pricing'>,
  prepaidUnits: number,
  units: number,
  reported: number,
  reserved: number,
): { credits: number; prepaidAfter: number } {
  const full = checkPrice(prepaidUnits, units, reported, deps.quota, deps.pricing);
  const credits = Math.min(full.credits, reserved);
  return {
    credits,
    prepaidAfter: Math.max(0, full.prepaidAfter - (full.credits - credits) * deps.quota.unitsPerCredit),
  };
}

/** The watch after a successful check: counters, prepaid units, the newest short seen, the channel's identity now. */
async function updateWatchAfterCheck(
  tx: Transaction,
  watch: WatchRow,
  run: CheckRun,
  read: CheckRead,
  counts: { units: number; reported: number; prepaidAfter: number },
): Promise<void> {
  const { listing, reported, identity } = read;
  const newest = listing.ids[0];
  const newestPublished = newest
    ? (listing.publishedAt.get(newest) ?? reported.find((s) => s.id === newest)?.snippet.publishedAt)
    : undefined;
  await tx.query(
    `UPDATE watches SET last_check_at = $2, checks = checks + 1, units_spent = units_spent + $3, prepaid_units = $4,
      shorts_reported = shorts_reported + $5, last_error = NULL,
       last_seen_short_id = coalesce($6, last_seen_short_id), last_seen_published_at = CASE
         WHEN $6::text IS NULL THEN last_seen_published_at ELSE coalesce($7::timestamptz, last_seen_published_at) END,
       channel_title = $8, channel_custom_url = $9
     WHERE id = $1`,
    [
      watch.id,
      run.now,
      counts.units,
      counts.prepaidAfter,
      counts.reported,
      newest ?? null,
      newestPublished ? new Date(parseTimestamp(newestPublished)!) : null,
      identity.title,
      identity.customUrl,
    ],
  );
}

/**
 * Records check `id` of `watch`, naming its channel (new shorts and credits 0 until it is settled);
 * false when a run of this check was recorded already.
 */
async function recordCheck(
  tx: Queryable,
  watch: WatchRow,
  check: {
    id: string;
    trigger: CheckTrigger;
    units: number;
    outcome: 'ok' | 'failed' | 'paused';
    error?: string;
    at: Date;
  },
): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO watch_checks (id, watch_id, account_id, trigger, units, new_shorts, credits_charged, outcome, error,
      created_at, channel_url, channel_title)
     VALUES ($1, $2, $3, $4, $5, 0, 0, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [
      check.id,
      watch.id,
      watch.account_id,
      check.trigger,
      check.units,
      check.outcome,
      check.error ?? null,
      check.at,
      watch.channel_url,
      watch.channel_title,
    ],
  );
  return rows.length > 0;
}

/** Checks in a row that find the channel gone before the watch is paused (reason "channel"). */
export const GONE_CHECKS = 3;

/**
 * A check YouTube answered with "no such channel": charged for its units like a quiet check, recorded
 * as failed; the GONE_CHECKS-th in a row pauses the watch and tells its webhook.
 */
async function settleGoneChannel(
  deps: WatchCheckDeps,
  watch: WatchRow,
  work: MeteredWork,
  run: CheckRun,
  error: AppError,
): Promise<CheckResult> {
  const { checkId, trigger, now } = run;
  const message = `${error.code}: ${error.message}`;
  const units = work.spent;
  const recorded = await deps.db.transaction(async (tx) => {
    if (!(await recordCheck(tx, watch, { id: checkId, trigger, units, outcome: 'failed', error: message, at: now })))
      return false;
    const [locked] = await tx.query<{ prepaid_units: number; status: string }>(
      'SELECT prepaid_units, status FROM watches WHERE id = $1 FOR UPDATE',
      [watch.id],
    );
    await releaseReservation(tx, checkId);
    if (!locked) {
      // Deleted meanwhile: no check of it is recorded, as on the ok path.
      await tx.query('DELETE FROM watch_checks WHERE id = $1', [checkId]);
      return 'deleted' as const;
    }
    const price = cappedPrice(deps, locked.prepaid_units, units, 0, work.reservedCredits);
    await chargeCredits(tx, watch.account_id, price.credits, checkId);
    await tx.query('UPDATE watch_checks SET credits_charged = $2 WHERE id = $1', [checkId, price.credits]);
    await tx.query(
      'UPDATE watches SET last_check_at = $2, checks = checks + 1, units_spent = units_spent + $3, ' +
        'prepaid_units = $4, last_error = $5 WHERE id = $1',
      [watch.id, now, units, price.prepaidAfter, message],
    );
    if (locked.status === 'active') await pauseIfGone(deps, tx, watch, now, error);
    return true;
  });
  if (recorded !== true) {
    await work.failed(error);
    return { outcome: 'skipped', why: recorded === 'deleted' ? 'deleted' : 'already recorded' };
  }
  await work.succeeded();
  deps.onCheck?.({ trigger, outcome: 'failed', units, newShorts: 0 });
  return { outcome: 'failed', error: message, units };
}

/** The GONE_CHECKS-th check in a row that found the channel gone pauses the watch and tells its webhook. */
async function pauseIfGone(
  deps: WatchCheckDeps,
  tx: Transaction,
  watch: WatchRow,
  now: Date,
  error: AppError,
): Promise<void> {
  const recent = await tx.query<{ gone: boolean }>(
    `SELECT outcome = 'failed' AND starts_with(coalesce(error, ''), 'CHANNEL_NOT_FOUND') AS gone FROM watch_checks
      WHERE watch_id = $1 AND outcome <> 'paused' ORDER BY created_at DESC, id DESC LIMIT $2`,
    [watch.id, GONE_CHECKS],
  );
  if (recent.length !== GONE_CHECKS || !recent.every((r) => r.gone)) return;
  const why =
    `YouTube has not had this channel for ${GONE_CHECKS} checks in a row (${error.message}); checks ` +
    'are paused. Resume the watch (PATCH status active) should the channel come back.';
  await tx.query("UPDATE watches SET status = 'paused', paused_reason = 'channel' WHERE id = $1", [watch.id]);
  await deps.recordEvent(tx, {
    accountId: watch.account_id,
    type: 'watch.paused',
    webhookUrl: watch.webhook_url,
    subjectId: watch.id,
    at: now,
    data: {
      watchId: watch.id,
      channel: { id: watch.channel_id, title: watch.channel_title },
      reason: 'channel',
      message: why,
    } satisfies WatchPausedPayload['data'],
  });
}

/** The account cannot pay for the next check: pause the watch and tell its webhook (once). */
async function pauseForCredits(
  deps: WatchCheckDeps,
  watch: WatchRow,
  checkId: string,
  trigger: CheckTrigger,
  needed: number,
): Promise<void> {
  const now = new Date(deps.now());
  await deps.db.transaction(async (tx) => {
    const paused = await tx.query(
      'UPDATE watches SET status = $2, paused_reason = $3 WHERE id = $1 AND status = $4 RETURNING id',
      [watch.id, 'paused', 'credits', 'active'],
    );
    if (paused.length === 0) return;
    const message =
      `The account's available credits cannot pay for the next check (up to ${needed} ` +
      `credit${needed === 1 ? '' : 's'}); the watch resumes when credits are available again.`;
    await recordCheck(tx, watch, { id: checkId, trigger, units: 0, outcome: 'paused', error: message, at: now });
    await deps.recordEvent(tx, {
      accountId: watch.account_id,
      type: 'watch.paused',
      webhookUrl: watch.webhook_url,
      subjectId: watch.id,
      at: now,
      data: {
        watchId: watch.id,
        channel: { id: watch.channel_id, title: watch.channel_title },
        reason: 'credits',
        message,
      } satisfies WatchPausedPayload['data'],
    });
  });
}
