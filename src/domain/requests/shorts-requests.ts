// The shorts use case, shared by the synchronous route and the background worker:
// fetch → price → charge and record the outcome in one transaction. Nothing is charged on failure.
import type { Database, Transaction } from '../../infra/db/database.ts';
import { AppError, isAppError } from '../../errors.ts';
import { chargeCredits, getBalance } from '../credits/ledger.ts';
import { parseChannelUrl } from '../shorts/channel-url.ts';
import { priceFor, type PriceSettings } from '../shorts/pricing.ts';
import type { ShortsService } from '../shorts/shorts-service.ts';
import { failureBody, renderSuccessJson, successBody, type FailureBody, type SuccessBody } from './response-bodies.ts';
import type { SettlementBatcher } from './charge-and-record.ts';
import { findRequest, insertRequest, settleRequest, type NewRequest, type Outcome } from './request-store.ts';

export interface ShortsRequestDeps {
  db: Database;
  shorts: ShortsService;
  pricing: PriceSettings;
  maxShorts: number;
  /** Group-committed charge + record of synchronous requests. */
  settlements: SettlementBatcher;
  onCharged?: (credits: number) => void;
}

export async function assertCanAffordMinimum(deps: ShortsRequestDeps, accountId: string): Promise<void> {
  const balance = await getBalance(deps.db, accountId);
  if (balance < deps.pricing.minimumCredits) {
    throw new AppError('INSUFFICIENT_CREDITS', `A request costs at least ${deps.pricing.minimumCredits} credit${deps.pricing.minimumCredits === 1 ? '' : 's'}; the balance is ${balance}.`);
  }
}

/** Synchronous request: returns the success body (and its JSON) or throws an AppError (already recorded). */
export async function runSyncRequest(deps: ShortsRequestDeps, request: NewRequest): Promise<{ body: SuccessBody; json: Buffer }> {
  try {
    const ref = parseChannelUrl(request.channelUrl);
    // The balance check guards upstream quota: a cached result costs none, and its charge below
    // refuses an empty balance all the same.
    const outcome = await deps.shorts.fetch(
      { ref, ...(request.oldestDate !== null ? { oldestDate: request.oldestDate } : {}) },
      { beforeUpstream: () => assertCanAffordMinimum(deps, request.accountId) },
    );
    const credits = priceFor(outcome.result.shorts.length, deps.pricing);
    const body = successBody(request.id, outcome.result, credits, deps.maxShorts);
    await deps.settlements.settle({ request, credits, outcome: successOutcome(body, outcome.quotaUnits, false) });
    deps.onCharged?.(credits);
    return { body, json: renderSuccessJson(body, outcome.result) };
  } catch (error) {
    if (isAppError(error)) await recordFailure(deps, request, error);
    throw error;
  }
}

async function recordFailure(deps: ShortsRequestDeps, request: NewRequest, error: AppError): Promise<void> {
  // Best effort: a failure to record must not hide the original error from the caller.
  await insertRequest(deps.db, request, failureOutcome(failureBody(request.id, error), error)).catch(() => {});
}

function successOutcome(body: SuccessBody, quotaUnits: number, keepBody: boolean): Outcome {
  const summary = { channel: { id: body.data.channel.id, title: body.data.channel.snippet.title, customUrl: body.data.channel.snippet.customUrl }, itemCount: body.itemCount, creditsCharged: body.creditsCharged, truncated: body.truncated, note: 'Synchronous results are returned once and not retained; this is a summary.' };
  return { status: 'completed', httpStatus: 200, itemCount: body.itemCount, creditsCharged: body.creditsCharged, errorCode: null, result: keepBody ? body : summary, quotaUnits };
}

function failureOutcome(body: FailureBody, error: AppError): Outcome {
  return { status: 'failed', httpStatus: error.status, itemCount: null, creditsCharged: 0, errorCode: error.code, result: body, quotaUnits: null };
}

/**
 * Worker side of a webhook request. Idempotent: a job retried after a crash finds the request
 * settled and only makes sure the delivery is queued. `afterSettle` runs in the settling
 * transaction (it enqueues the webhook delivery), so "settled" and "delivery queued" are one fact.
 */
export async function processQueuedRequest(deps: ShortsRequestDeps, requestId: string, afterSettle: (tx: Transaction) => Promise<void>): Promise<'settled' | 'already-settled' | 'missing'> {
  const row = await findRequest(deps.db, requestId);
  if (!row) return 'missing';
  if (row.status !== 'processing') return 'already-settled';
  const request: NewRequest = { id: row.id, accountId: row.account_id, apiKeyId: row.api_key_id, channelUrl: row.channel_url, oldestDate: row.oldest_date === null ? null : Number(row.oldest_date), webhookUrl: row.webhook_url };
  let outcome: Outcome;
  let credits = 0;
  try {
    const ref = parseChannelUrl(request.channelUrl);
    const fetched = await deps.shorts.fetch({ ref, ...(request.oldestDate !== null ? { oldestDate: request.oldestDate } : {}) });
    credits = priceFor(fetched.result.shorts.length, deps.pricing);
    outcome = successOutcome(successBody(request.id, fetched.result, credits, deps.maxShorts), fetched.quotaUnits, true);
  } catch (error) {
    if (!isAppError(error)) throw error; // infrastructure trouble: let the queue retry the job
    outcome = failureOutcome(failureBody(request.id, error), error);
  }
  const settled = await deps.db.transaction(async (tx) => {
    if (outcome.status === 'completed') {
      try {
        await chargeCredits(tx, request.accountId, credits, request.id);
      } catch (error) {
        if (!isAppError(error)) throw error;
        outcome = failureOutcome(failureBody(request.id, error), error);
      }
    }
    const changed = await settleRequest(tx, request.id, outcome);
    if (changed) await afterSettle(tx);
    return changed;
  });
  if (settled && outcome.status === 'completed') deps.onCharged?.(credits);
  return settled ? 'settled' : 'already-settled';
}
