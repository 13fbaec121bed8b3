// Settling synchronous requests: take the credits, write the ledger entry and record the request.
//
// This is on the hot path of every successful call, and a database statement costs far more than
// the rest of the request (on embedded PGlite ~0.55 ms for the three writes, all on one thread).
// So settlements are group-committed: while one statement runs, the requests that finish meanwhile
// queue up and go together in the next one (measured on PGlite: 0.08 ms per request in batches of
// 25). Each statement is atomic by itself, so no BEGIN/COMMIT round trips either.
//
// Exactness: the charging SQL (both forms) lives in credits/ledger.ts; this module adds the request
// record to it. The batch charges each account, by one conditional UPDATE, the running total of its
// members the available credits cover, in order (on PostgreSQL, a batch of several accounts locks
// them in id order first, so two instances' batches cannot deadlock: withAccountsLocked). The
// members it does not charge are settled one by one, in order, with the single-request statement —
// so each gets its exact answer, a cheap request behind an unaffordable one included, and the
// CHECK (credit_balance >= 0) constraint stays the last line of defence against overdraw.
import type { Database, Queryable } from '../../infra/db/database.ts';
import {
  CHARGE_GROUP_SQL,
  chargeAccountGroupSql,
  chargeOneSql,
  chargeReleasingSql,
  insufficientCredits,
  withAccountsLocked,
} from '../credits/ledger.ts';
import { emitCreditsLow, mayBeLow } from '../credits/credit-alerts.ts';
import { optionsParam, recordedOptions, type NewRequest, type Outcome } from './request-store.ts';
import { groupCommit, type Member } from '../../infra/db/group-commit.ts';
import { addUnitsSql } from '../quota/account-quota.ts';
import type { PaidUnits } from '../quota/quota-meter.ts';

export interface Settlement {
  request: NewRequest;
  credits: number;
  outcome: Outcome;
}

/**
 * Settles one request; returns the balance after the charge, or throws INSUFFICIENT_CREDITS (nothing
 * written). `releasing`: the request holds a reservation, which ends in the same statement.
 * `paidUnits`: the upstream units the request spent, counted on the account's quota day by the same
 * statement (MeteredWork.succeeded; nothing is counted when the charge is refused).
 */
export async function chargeAndRecord(
  db: Queryable,
  { request, credits, outcome }: Settlement,
  { releasing = false, paidUnits }: { releasing?: boolean; paidUnits?: PaidUnits } = {},
): Promise<number> {
  const charge = (releasing ? chargeReleasingSql : chargeOneSql)({ account: '$1', amount: '$2', requestId: '$3' });
  const counted = paidUnits?.units ? paidUnits : undefined;
  const [row] = await db.query<{ credit_balance: number; low_balance_threshold: number | null }>(
    `WITH ${charge}, recorded AS (
       INSERT INTO shorts_requests (id, account_id, api_key_id, channel_url, oldest_date, item_limit, webhook_url, mode,
         status, http_status, item_count, credits_charged, error_code, result, quota_units, options, completed_at)
       SELECT $3, $1, $4, $5, $6, $14, NULL, 'sync', $7, $8, $9, $10, $11, $12, $13, $15, now() FROM charged
     )${counted ? `, counted AS (${addUnitsSql('SELECT $1::uuid, $16::text, $17::int, 0 FROM charged')})` : ''}
     SELECT credit_balance, low_balance_threshold FROM charged`,
    [
      request.accountId,
      credits,
      request.id,
      request.apiKeyId,
      request.channelUrl,
      request.oldestDate,
      outcome.status,
      outcome.httpStatus,
      outcome.itemCount,
      outcome.creditsCharged,
      outcome.errorCode,
      JSON.stringify(outcome.result),
      outcome.quotaUnits,
      request.limit,
      optionsParam(request.options),
      ...(counted ? [counted.day, counted.units] : []),
    ],
  );
  if (!row) throw await insufficientCredits(db, request.accountId, credits);
  // In the caller's transaction when there is one; otherwise right after (the claim is state-based, see
  // credit-alerts.ts). A failed claim does not undo the settlement: the account's next charge claims it.
  if (credits > 0 && mayBeLow(row.credit_balance, row.low_balance_threshold))
    await emitCreditsLow(db, request.accountId, request.id).catch(() => null);
  return row.credit_balance;
}

/** A group's members, one JSON parameter (`run`: the member's running total, for chargeAccountGroupSql only). */
const inputSql = (extra = '') => `input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(
    i int, account_id uuid, amount int, request_id text, api_key_id uuid, channel_url text, oldest_date bigint,
      item_limit int,
    status text, http_status int, item_count int, credits_charged int, error_code text, result jsonb, quota_units int,
      options jsonb${extra})
)`;
const RECORDED_SQL = `recorded AS (
  INSERT INTO shorts_requests (id, account_id, api_key_id, channel_url, oldest_date, item_limit, webhook_url, mode,
    status, http_status, item_count, credits_charged, error_code, result, quota_units, options, completed_at)
  SELECT request_id, account_id, api_key_id, channel_url, oldest_date, item_limit, NULL, 'sync', status, http_status,
    item_count, credits_charged, error_code, result, quota_units, options, now()
  FROM accepted
)`;
/** Any group: per account, the longest run of members its credits cover. */
const BATCH_SQL = `WITH ${inputSql()}, ${CHARGE_GROUP_SQL}, ${RECORDED_SQL}
SELECT i, balance_after, low_balance_threshold FROM accepted`;
/** A group of one account's members ($2), all or none ($3: their total). */
const ACCOUNT_BATCH_SQL = `WITH ${inputSql(', run int')}, ${chargeAccountGroupSql({ account: '$2', total: '$3' })},
  ${RECORDED_SQL}
SELECT i, balance_after, low_balance_threshold FROM accepted`;

export interface SettlementBatcher {
  settle(settlement: Settlement): Promise<number>;
}

export interface BatcherOptions {
  maxBatch?: number;
  /** A batch statement failed and its requests were settled one by one (logged: it should not happen). */
  onBatchError?: (error: unknown, size: number) => void;
}

export function createSettlementBatcher(
  db: Database,
  { maxBatch = 100, onBatchError }: BatcherOptions = {},
): SettlementBatcher {
  async function settleOneByOne(members: Array<Member<Settlement, number>>): Promise<void> {
    for (const member of members) {
      await chargeAndRecord(db, member.item).then(member.resolve, member.reject);
    }
  }

  async function runBatch(members: Array<Member<Settlement, number>>): Promise<void> {
    if (members.length === 1) return settleOneByOne(members);
    let accepted: Array<{ i: number; balance_after: number | string; low_balance_threshold: number | null }>;
    try {
      const accountId = members[0]!.item.request.accountId;
      const oneAccount = members.every(({ item }) => item.request.accountId === accountId);
      let total = 0;
      const input = JSON.stringify(
        members.map(({ item: { request, credits, outcome } }, i) => {
          total += credits;
          return {
            i,
            account_id: request.accountId,
            amount: credits,
            request_id: request.id,
            api_key_id: request.apiKeyId,
            channel_url: request.channelUrl,
            oldest_date: request.oldestDate,
            item_limit: request.limit,
            status: outcome.status,
            http_status: outcome.httpStatus,
            item_count: outcome.itemCount,
            credits_charged: outcome.creditsCharged,
            error_code: outcome.errorCode,
            result: outcome.result,
            quota_units: outcome.quotaUnits,
            options: recordedOptions(request.options),
            ...(oneAccount ? { run: total } : {}),
          };
        }),
      );
      // One account's group (the usual one) is charged whole by the cheaper statement; when its
      // credits do not cover the whole group, the general statement takes the run they cover.
      accepted = oneAccount ? await db.query(ACCOUNT_BATCH_SQL, [input, accountId, total]) : [];
      if (accepted.length === 0)
        accepted = await withAccountsLocked(
          db,
          members.map(({ item }) => item.request.accountId),
          (q) => q.query(BATCH_SQL, [input]),
        );
    } catch (error) {
      onBatchError?.(error, members.length);
      // The whole batch rolled back (e.g. a deadlock with a non-batched writer): settle each on its own,
      // so one request's trouble is reported to that request only.
      return settleOneByOne(members);
    }
    const done = new Map(accepted.map((row) => [Number(row.i), Number(row.balance_after)]));
    // The batch committed: claim credits.low once per account it took below its threshold (the claim
    // is its own statement and looks at the balance as it is now, so which request is named matters little).
    const low = new Map<string, string>();
    for (const row of accepted) {
      const { item } = members[Number(row.i)]!;
      if (item.credits > 0 && mayBeLow(Number(row.balance_after), row.low_balance_threshold))
        low.set(item.request.accountId, item.request.id);
    }
    // the account's next charge claims it
    for (const [accountId, requestId] of low) await emitCreditsLow(db, accountId, requestId).catch(() => null);
    const refused: Array<Member<Settlement, number>> = [];
    members.forEach((member, i) => {
      const balance = done.get(i);
      if (balance === undefined) refused.push(member);
      else member.resolve(balance);
    });
    await settleOneByOne(refused);
  }

  // Requests finishing while a batch is written go together in the next one.
  return { settle: groupCommit(maxBatch, runBatch) };
}
