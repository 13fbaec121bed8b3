// The shorts use case, shared by the synchronous route and the background worker:
// reserve → fetch (metered) → price → charge, release and record in one transaction.
// Nothing is charged on failure; the upstream units a failure cost count against the account's
// daily allowance (docs/quota.md).
import type { Database, Transaction } from '../../infra/db/database.ts';
import type { QueuedSettlementBatcher, SettledAs, SettledRow } from './queued-settlements.ts';
import { AppError, isAppError } from '../../errors.ts';
import { chargeCredits } from '../credits/ledger.ts';
import { releaseReservation, reserveCredits } from '../credits/reservations.ts';
import { parseChannelUrl } from '../shorts/channel-url.ts';
import { priceFor, type PriceSettings } from '../shorts/pricing.ts';
import type { FetchOutcome, ShortsQuery, ShortsService } from '../shorts/shorts-query.ts';
import type { ShortsResult } from '../shorts/shorts-result.ts';
import { unwrapFailure } from '../shorts/shorts-flight.ts';
import type { QuotaSettings } from '../quota/quota-meter.ts';
import { MeteredWork, type Opening } from '../quota/metered-work.ts';
import {
  type CreditCap,
  failureBody,
  prerenderShorts,
  renderSuccessJson,
  successBody,
  type FailureBody,
  type RenderedJson,
  type SuccessBody,
} from './response-bodies.ts';
import { chargeAndRecord, type SettlementBatcher } from './charge-and-record.ts';
import { markRecorded } from './recorded-failures.ts';
import {
  findRequest,
  insertRequest,
  settleRequest,
  type NewRequest,
  type Outcome,
  type RequestRow,
} from './request-store.ts';
import { durationBoundsProblem, keylessDurations } from '../shorts/sorting.ts';

/** A synchronous request's reservation lapses this long after it was made (the request times out well before). */
const SYNC_RESERVATION_MS = 5 * 60_000;
/** A webhook request's reservation is held until its job settles; this bounds a lost job's hold. */
const WEBHOOK_RESERVATION_MS = 48 * 3600_000;

export interface ShortsRequestDeps {
  db: Database;
  shorts: ShortsService;
  pricing: PriceSettings;
  quota: QuotaSettings;
  maxShorts: number;
  now: () => number;
  /** Group-committed charge + record of synchronous requests served without upstream work. */
  settlements: SettlementBatcher;
  /** Reads a queued request without its result, grouped with concurrent reads; without it, findRequest. */
  findQueued?: (id: string) => Promise<RequestRow | undefined>;
  /** Group commit of queued (webhook) settlements; without it, each settles in its own transaction. */
  queuedSettlements?: QueuedSettlementBatcher;
  onCharged?: (credits: number) => void;
  /**
   * A webhook request failed with a server-side status (5xx): logged with its request id and cause,
   * as the HTTP error handler logs a synchronous one: a webhook request's failure has no HTTP response to log it.
   */
  onServerFailure?: (requestId: string, error: AppError) => void;
  /** The result with each short's growth from stored snapshots (include: ["growth"]; domain/stats). */
  withGrowth?: (result: ShortsResult) => Promise<ShortsResult>;
  /** The service reads YouTube keyless only (YOUTUBE_SOURCE innertube): duration filters are refused up front. */
  keylessOnly?: boolean;
}

function queryOf(deps: ShortsRequestDeps, request: NewRequest): ShortsQuery {
  const ref = parseChannelUrl(request.channelUrl);
  if (
    request.limit !== null &&
    (!Number.isSafeInteger(request.limit) || request.limit < 1 || request.limit > deps.maxShorts)
  ) {
    throw new AppError(
      'VALIDATION_FAILED',
      `limit must be an integer from 1 to ${deps.maxShorts} (MAX_SHORTS_PER_REQUEST); got ${request.limit}.`,
    );
  }
  // Sort and duration filters.
  const { sort, minDurationSeconds, maxDurationSeconds } = request.options ?? {};
  const problem = durationBoundsProblem(minDurationSeconds, maxDurationSeconds);
  if (problem) throw new AppError('VALIDATION_FAILED', problem);
  // Refused before a webhook request or a batch is accepted, not in its job: a job's failure costs a webhook.
  if (deps.keylessOnly && (minDurationSeconds !== undefined || maxDurationSeconds !== undefined))
    throw keylessDurations();
  const cap = shortsPaidFor(deps, request);
  return {
    ref,
    cap,
    // A record's null is a query's absent option.
    oldestDate: request.oldestDate ?? undefined,
    limit: request.limit ?? undefined,
    freshness: request.freshness ?? undefined,
    sort,
    minDurationSeconds,
    maxDurationSeconds,
  };
}

/**
 * The most shorts a request's maxCredits pays for reading (undefined: no cap below the service's
 * maximum); 402 when it cannot pay even the minimum price, or a single block.
 */
function shortsPaidFor(deps: ShortsRequestDeps, request: NewRequest): number | undefined {
  const maxCredits = request.options?.maxCredits;
  if (maxCredits === undefined) return undefined;
  const { minimumCredits, creditsPerBlock, shortsPerBlock } = deps.pricing;
  const shorts = Math.floor(maxCredits / creditsPerBlock) * shortsPerBlock;
  const least = Math.max(1, minimumCredits, creditsPerBlock);
  if (!Number.isSafeInteger(maxCredits) || maxCredits < least || shorts < 1)
    throw new AppError(
      'INSUFFICIENT_CREDITS',
      `maxCredits is ${maxCredits}, but a request costs at least ${least} credit${least === 1 ? '' : 's'} ` +
        `(${creditsPerBlock} per ${shortsPerBlock} shorts, at least ${minimumCredits} per request); nothing was read.`,
    );
  return shorts < deps.maxShorts ? shorts : undefined;
}

/** The outcome with what the request's include asked for added to its result (a new result: the cached one is shared). */
async function withIncluded(
  deps: ShortsRequestDeps,
  request: NewRequest,
  outcome: FetchOutcome,
): Promise<FetchOutcome> {
  if (!deps.withGrowth || !request.options?.include?.includes('growth')) return outcome;
  return { ...outcome, result: await deps.withGrowth(outcome.result) };
}

/**
 * The price follows what was read: sort and duration filters read more than they return. Never above
 * the request's maxCredits: its reads are capped at what that pays for, and this holds it should a
 * price come out higher all the same.
 */
function priceOf(deps: ShortsRequestDeps, request: NewRequest, outcome: FetchOutcome): number {
  const items = outcome.itemsPriced ?? outcome.result.shorts.length;
  const price = outcome.work ? outcome.work.price(items) : priceFor(items, deps.pricing);
  return Math.min(price, request.options?.maxCredits ?? price);
}

/** The cap the request's maxCredits set, for the response's message when it left shorts out. */
function capOf(deps: ShortsRequestDeps, request: NewRequest): CreditCap | undefined {
  const maxCredits = request.options?.maxCredits;
  const shorts = maxCredits === undefined ? undefined : shortsPaidFor(deps, request);
  return maxCredits === undefined || shorts === undefined ? undefined : { maxCredits, shorts };
}

/**
 * The metered work of a request, opened only if it goes upstream. A synchronous request's hold ends
 * with it; a webhook request's outlives a failed attempt (the retry resumes it, the settlement
 * releases it).
 */
function requestWork(deps: ShortsRequestDeps, request: NewRequest, webhook: boolean, opening: Opening): MeteredWork {
  return new MeteredWork(
    {
      db: deps.db,
      accountId: request.accountId,
      requestId: request.id,
      settings: deps.quota,
      now: deps.now,
      reservationExpiresAt: new Date(deps.now() + (webhook ? WEBHOOK_RESERVATION_MS : SYNC_RESERVATION_MS)),
      releaseOnFailure: !webhook,
      maxCredits: request.options?.maxCredits,
    },
    opening,
  );
}

/** The service's own failure: the units are its loss, nothing is charged. */
function cutByShutdown(): AppError {
  return new AppError(
    'SERVICE_UNAVAILABLE',
    "The service stopped before this request's answer was ready and closed its connection; " +
      'nothing was charged. Send it again.',
  );
}

/**
 * Synchronous request: returns the success body (and its JSON) or throws an AppError (already recorded).
 * `connectionsCut`: aborted when a stopping server cut its connections; a request whose work ends
 * after that is not charged: its client got a reset, not an answer.
 */
export async function runSyncRequest(
  deps: ShortsRequestDeps,
  request: NewRequest,
  options: { connectionsCut?: AbortSignal } = {},
): Promise<{ body: SuccessBody; json: RenderedJson }> {
  const work = requestWork(deps, request, false, { reserve: 'minimum' });
  try {
    const query = queryOf(deps, request);
    const outcome = await withIncluded(
      deps,
      request,
      await deps.shorts.fetch(query, {
        openMeter: () => work.open(),
        onShorts: prerenderShorts,
      }),
    );
    if (options.connectionsCut?.aborted) throw cutByShutdown();
    const credits = priceOf(deps, request, outcome);
    const body = successBody(request.id, outcome.result, credits, deps.maxShorts, outcome.stale, capOf(deps, request));
    // store: true keeps the whole body for GET …/items; otherwise only a summary is recorded.
    const settlement = {
      request,
      credits,
      outcome: successOutcome(body, outcome.work?.spent ?? 0, request.store === true),
    };
    // The body is rendered while the database writes the charge: a fresh result's JSON (~1 ms for 50
    // shorts) came after the charge, on the cold path's critical path. Refused, it is dropped.
    // Both are awaited before either's failure is handled, so the failure path below never runs while
    // the charge may still commit (it would count the units a second time).
    const [rendered, settled] = await Promise.allSettled([
      Promise.resolve().then(() => renderSuccessJson(body, outcome.result)),
      work.opened
        ? // This request held a reservation: it ends in the statement that charges (refused: the work
          // settles as failed, which releases it), which also counts the units it spent.
          work.succeeded((paidUnits) => chargeAndRecord(deps.db, settlement, { releasing: true, paidUnits }))
        : deps.settlements.settle(settlement),
    ]);
    if (settled.status === 'rejected') throw settled.reason;
    if (rendered.status === 'rejected') throw rendered.reason;
    const json = rendered.value;
    deps.onCharged?.(credits);
    return { body, json };
  } catch (failure) {
    // Whatever failed after the cut (the stopping service closes its upstream clients, so the next
    // call fails as the platform's error) failed because of it: the service's failure, not a 502
    // counted against the customer's allowance.
    const error = options.connectionsCut?.aborted ? cutByShutdown() : unwrapFailure(failure).error;
    await work.failed(error);
    if (isAppError(error)) await recordFailure(deps, request, error, work.opened ? work.spent : null);
    throw error;
  }
}

/**
 * Accepts a webhook request: records it, reserves the minimum price and enqueues its job in one
 * transaction, so a balance of N accepts only what N credits can pay (402 at once for the rest).
 */
export async function submitWebhookRequest(
  deps: ShortsRequestDeps,
  request: NewRequest,
  enqueue: (tx: Transaction) => Promise<void>,
): Promise<void> {
  queryOf(deps, request);
  await deps.db.transaction((tx) => acceptWebhookRequest(deps, tx, request, enqueue));
}

/** What accepting a webhook request reserves: the minimum price (the price is known only after the fetch). */
export function minimumReservation(deps: ShortsRequestDeps): number {
  return Math.max(1, deps.pricing.minimumCredits);
}

/** When a webhook request accepted now stops holding its reservation, should its job be lost. */
export function webhookReservationExpiry(deps: ShortsRequestDeps): Date {
  return new Date(deps.now() + WEBHOOK_RESERVATION_MS);
}

/** submitWebhookRequest inside a caller's transaction (a batch accepts all its items in one). */
export async function acceptWebhookRequest(
  deps: ShortsRequestDeps,
  tx: Transaction,
  request: NewRequest,
  enqueue: (tx: Transaction) => Promise<void>,
): Promise<void> {
  const minimum = minimumReservation(deps);
  await insertRequest(tx, request);
  await enqueue(tx);
  // The reservation comes last: it locks the account's row until the transaction commits, and all
  // of an account's concurrent acceptances queue on that lock (with PostgreSQL, 1,000 webhook
  // requests of one account were accepted at ~60/s while the lock was held across the job insert).
  // Refused, the transaction rolls back the request and its job with it.
  if (
    !(await reserveCredits(tx, {
      accountId: request.accountId,
      requestId: request.id,
      credits: minimum,
      expiresAt: webhookReservationExpiry(deps),
      now: new Date(deps.now()),
    }))
  ) {
    const [row] = await tx.query<{ credit_balance: number; credits_reserved: number }>(
      'SELECT credit_balance, credits_reserved FROM accounts WHERE id = $1',
      [request.accountId],
    );
    const held = row?.credits_reserved ?? 0;
    throw new AppError(
      'INSUFFICIENT_CREDITS',
      `A request costs at least ${minimum} credit${minimum === 1 ? '' : 's'}, reserved when it is ` +
        `accepted; ${Math.max(0, (row?.credit_balance ?? 0) - held)} ` +
        `available${held > 0 ? ` (${held} held by requests in progress)` : ''}.`,
    );
  }
}

/** Checks a request as submitWebhookRequest would, without recording anything. */
export function checkRequest(deps: ShortsRequestDeps, request: NewRequest): void {
  queryOf(deps, request);
}

async function recordFailure(
  deps: ShortsRequestDeps,
  request: NewRequest,
  error: AppError,
  quotaUnits: number | null,
): Promise<void> {
  // Best effort: a failure to record must not hide the original error from the caller.
  await insertRequest(deps.db, request, failureOutcome(failureBody(request.id, error), error, quotaUnits)).then(
    () => markRecorded(error),
    () => {},
  );
}

function successOutcome(body: SuccessBody, quotaUnits: number, keepBody: boolean): Outcome {
  const summary = {
    channel: {
      id: body.data.channel.id,
      title: body.data.channel.snippet.title,
      customUrl: body.data.channel.snippet.customUrl,
    },
    itemCount: body.itemCount,
    creditsCharged: body.creditsCharged,
    truncated: body.truncated,
    fetchedAt: body.fetchedAt,
    stale: body.stale,
    note: 'Synchronous results are returned once and not retained; this is a summary.',
  };
  return {
    status: 'completed',
    httpStatus: 200,
    itemCount: body.itemCount,
    creditsCharged: body.creditsCharged,
    errorCode: null,
    result: keepBody ? body : summary,
    quotaUnits,
  };
}

function failureOutcome(body: FailureBody, error: AppError, quotaUnits: number | null): Outcome {
  return {
    status: 'failed',
    httpStatus: error.status,
    itemCount: null,
    creditsCharged: 0,
    errorCode: error.code,
    result: body,
    quotaUnits,
  };
}

/**
 * Worker side of a webhook request (`giveUp`: its job used up its retries; the request fails with
 * that error, without reading upstream). Idempotent: a job retried after a crash finds the request
 * settled and changes nothing. `afterSettle` is what settling a batch item also does, in the
 * settling transaction (queue the batch's summary when the item completes the batch), so "the last
 * item settled" and "summary queued" are one fact; a request outside a batch settles without it, in
 * its group's one statement (queued-settlements.ts). `settledRow`: what the webhook's first attempt
 * needs, when the group's statement returned it (SettledAs).
 */
export async function processQueuedRequest(
  deps: ShortsRequestDeps,
  requestId: string,
  afterSettle: (tx: Transaction, request: NewRequest) => Promise<void>,
  giveUp?: AppError,
): Promise<{ state: 'settled' | 'already-settled' | 'missing'; settledRow?: SettledRow | undefined }> {
  const row = await (deps.findQueued
    ? deps.findQueued(requestId)
    : findRequest(deps.db, requestId, { withResult: false }));
  if (!row) return { state: 'missing' };
  if (row.status !== 'processing') return { state: 'already-settled' };
  const request = queuedRequest(row);
  const work = queuedWork(deps, request);
  // An attempt that ends without settling — infrastructure trouble reading upstream or settling —
  // is retried by the queue; the units it spent count now (a retry starts a new count), and its
  // probe leaves the gate.
  const abandon = async (error: unknown): Promise<never> => {
    await work.failed(error);
    throw error;
  };
  const fetched = await fetchQueued(deps, request, work, giveUp).catch(abandon);
  const hook = request.batchId ? afterSettle : undefined;
  const settlement = { request, credits: fetched.credits, outcome: fetched.outcome, afterSettle: hook };
  const alone = () => settleQueuedAlone(deps.db, { ...settlement, quotaUnits: work.opened ? work.spent : null });
  const settledAs = await (deps.queuedSettlements
    ? deps.queuedSettlements.settle({ ...settlement, alone })
    : alone()
  ).catch(abandon);
  const completed = settledAs.final.status === 'completed';
  await (completed ? work.succeeded() : work.failed(fetched.failedWith));
  if (!settledAs.changed) return { state: 'already-settled' };
  if (completed) deps.onCharged?.(fetched.credits);
  return { state: 'settled', settledRow: settledAs.settledRow };
}

function queuedRequest(row: RequestRow): NewRequest {
  return {
    id: row.id,
    accountId: row.account_id,
    apiKeyId: row.api_key_id,
    channelUrl: row.channel_url,
    oldestDate: row.oldest_date === null ? null : Number(row.oldest_date),
    limit: row.item_limit,
    freshness: row.freshness,
    webhookUrl: row.webhook_url,
    options: row.options,
    batchId: row.batch_id,
  };
}

/**
 * A queued request's metered work: it starts from the credits reserved at acceptance (more, if a
 * crashed attempt had grown them), and renews their hold as it opens: a job that runs late (a
 * backlog, an outage) must not have the hold lapse and be released mid-work while the work counts
 * it as held.
 */
function queuedWork(deps: ShortsRequestDeps, request: NewRequest): MeteredWork {
  return requestWork(deps, request, true, {
    held: async () => {
      const [held] = await deps.db.query<{ credits: number }>(
        'UPDATE credit_reservations SET expires_at = greatest(expires_at, $2) WHERE request_id = $1 RETURNING credits',
        [request.id, webhookReservationExpiry(deps)],
      );
      return held?.credits ?? 0;
    },
  });
}

/**
 * A queued request's fetch, as the outcome to settle: its result and price, or the catalog error it
 * failed with (`giveUp`: its job used up its retries, QUEUES.shortsFetchGaveUp: failed with that
 * error, unread). Anything else is thrown: infrastructure trouble, which the queue retries.
 */
async function fetchQueued(
  deps: ShortsRequestDeps,
  request: NewRequest,
  work: MeteredWork,
  giveUp: AppError | undefined,
): Promise<{ outcome: Outcome; credits: number; failedWith?: AppError }> {
  try {
    if (giveUp) throw giveUp;
    const fetched = await withIncluded(
      deps,
      request,
      await deps.shorts.fetch(queryOf(deps, request), { openMeter: () => work.open() }),
    );
    const credits = priceOf(deps, request, fetched);
    const body = successBody(request.id, fetched.result, credits, deps.maxShorts, fetched.stale, capOf(deps, request));
    return { outcome: successOutcome(body, fetched.work?.spent ?? 0, true), credits };
  } catch (failure) {
    const { error } = unwrapFailure(failure);
    if (!isAppError(error)) throw error;
    if (error.status >= 500) deps.onServerFailure?.(request.id, error);
    const quotaUnits = work.opened ? work.spent : null;
    return {
      outcome: failureOutcome(failureBody(request.id, error), error, quotaUnits),
      credits: 0,
      failedWith: error,
    };
  }
}

/**
 * One queued settlement in its own transaction: release the reservation, charge the price (a refused
 * charge records the request's failure instead, with the exact message), record the outcome and, if
 * this changed the request, run `afterSettle` (a batch item's). Also what a group
 * (queued-settlements.ts) falls back to, so it may run again after a failed group: it starts from
 * the given outcome each time.
 */
export function settleQueuedAlone(
  db: Database,
  settlement: {
    request: NewRequest;
    credits: number;
    outcome: Outcome;
    afterSettle?: ((tx: Transaction, request: NewRequest) => Promise<void>) | undefined;
    quotaUnits: number | null;
  },
): Promise<SettledAs> {
  const { request, credits, afterSettle } = settlement;
  return db.transaction(async (tx) => {
    let final = settlement.outcome;
    // Locked first, so a settlement that ran meanwhile (a retried job, a group) is seen: this one
    // then charges nothing, rather than charging and then finding the request settled.
    const [current] = await tx.query<{ status: string }>(
      'SELECT status FROM shorts_requests WHERE id = $1 FOR NO KEY UPDATE',
      [request.id],
    );
    await releaseReservation(tx, request.id);
    if (current?.status !== 'processing') return { changed: false, final };
    if (final.status === 'completed') {
      try {
        await chargeCredits(tx, request.accountId, credits, request.id);
      } catch (error) {
        if (!isAppError(error)) throw error;
        final = failureOutcome(failureBody(request.id, error), error, settlement.quotaUnits);
      }
    }
    const changed = await settleRequest(tx, request.id, final);
    if (changed) await afterSettle?.(tx, request);
    return { changed, final };
  });
}
