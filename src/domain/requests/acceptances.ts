// Accepting webhook requests in groups.
//
// Accepting one webhook request writes the request, reserves the minimum price on the account row
// and queues its fetch job. Done one by one, 1,000 requests of one account took 14 s on embedded
// PGlite (3.6 ms each: the job insert alone ~2.4 ms whatever its size) and 12 s on PostgreSQL, where
// every acceptance held the account's row lock through its own commit.
//
// Requests that arrive while a group is being written form the next group, accepted by one
// statement and one job insert in one transaction: per account, in arrival order, as many as the
// available credits cover (a running sum, re-checked by the UPDATE on the account's newest row: the
// same rule as reserveCredits). The requests it cannot cover go through the one-by-one path
// (submitWebhookRequest), which releases expired reservations in the way and answers with the exact
// 402 — so a group decides exactly what the one-by-one path would have. The UPDATE is the account
// row's only access in the statement; on PostgreSQL a group of several accounts has them locked in
// id order first (credits/ledger.ts withAccountsLocked).
import type { Transaction } from '../../infra/db/database.ts';
import { groupCommit, type Member } from '../../infra/db/group-commit.ts';
import { recordedOptions, type NewRequest } from './request-store.ts';
import { lockAccounts, PREFIX_SQL, runningSql } from '../credits/ledger.ts';
import {
  checkRequest,
  minimumReservation,
  submitWebhookRequest,
  webhookReservationExpiry,
  type ShortsRequestDeps,
} from './shorts-requests.ts';

export interface AcceptanceBatcher {
  /**
   * Records the webhook request, reserves its minimum price and queues its fetch; throws an AppError (402, 400…) when
   * it cannot.
   */
  accept(request: NewRequest): Promise<void>;
}

export interface AcceptanceOptions {
  /** Queues the fetch jobs of the accepted requests, in the accepting transaction. */
  enqueueFetches: (tx: Transaction, requestIds: string[]) => Promise<void>;
  maxGroup?: number;
  /** The group's statement failed and its requests were accepted one by one (it should not happen). */
  onGroupError?: (error: unknown, size: number) => void;
}

// The columns are those of insertRequest (request-store.ts) for a request in progress; `amount` is
// the credits to reserve. The running total per account is credits/ledger.ts's, against the
// snapshot's balance; the UPDATE re-checks it on the row's newest version (why, and why the row is
// touched once: CHARGE_GROUP_SQL there).
const ACCEPT_GROUP_SQL = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(
    i int, id text, account_id uuid, api_key_id uuid, channel_url text, oldest_date bigint, webhook_url text,
    item_limit int, freshness text, options jsonb, batch_id text, amount int)
), ${runningSql('0')}, totals AS (${PREFIX_SQL}
), reserved AS (
  UPDATE accounts SET credits_reserved = accounts.credits_reserved + t.total
  FROM totals t
  WHERE accounts.id = t.account_id AND t.total > 0 AND accounts.credit_balance - accounts.credits_reserved >= t.total
  RETURNING accounts.id, t.total
), accepted AS (
  SELECT running.* FROM running JOIN reserved ON reserved.id = running.account_id WHERE running.run <= reserved.total
), held AS (
  INSERT INTO credit_reservations (request_id, account_id, credits, expires_at)
  SELECT id, account_id, amount, $2::timestamptz FROM accepted
), recorded AS (
  INSERT INTO shorts_requests (id, account_id, api_key_id, channel_url, oldest_date, webhook_url, mode, status,
    item_limit, freshness, options, batch_id)
  SELECT id, account_id, api_key_id, channel_url, oldest_date, webhook_url, 'webhook', 'processing', item_limit,
    freshness, options, batch_id FROM accepted
)
SELECT i FROM accepted`;

type Pending = Member<NewRequest, void>;

export function createAcceptanceBatcher(
  deps: ShortsRequestDeps,
  { enqueueFetches, maxGroup = 100, onGroupError }: AcceptanceOptions,
): AcceptanceBatcher {
  async function oneByOne(members: Pending[]): Promise<void> {
    for (const member of members) {
      await submitWebhookRequest(deps, member.item, (tx) => enqueueFetches(tx, [member.item.id])).then(
        member.resolve,
        member.reject,
      );
    }
  }

  async function acceptGroup(members: Pending[]): Promise<void> {
    if (members.length === 1) return oneByOne(members);
    const credits = minimumReservation(deps);
    let accepted: Set<number>;
    try {
      accepted = await deps.db.transaction(async (tx) => {
        // Several accounts, on PostgreSQL: locked in id order first (ledger.ts withAccountsLocked).
        await lockAccounts(
          deps.db,
          tx,
          members.map(({ item }) => item.accountId),
        );
        const rows = await tx.query<{ i: number }>(ACCEPT_GROUP_SQL, [
          JSON.stringify(
            members.map(({ item: request }, i) => ({
              i,
              id: request.id,
              account_id: request.accountId,
              api_key_id: request.apiKeyId,
              channel_url: request.channelUrl,
              oldest_date: request.oldestDate,
              webhook_url: request.webhookUrl,
              item_limit: request.limit,
              freshness: request.freshness ?? null,
              options: recordedOptions(request.options),
              batch_id: request.batchId ?? null,
              amount: credits,
            })),
          ),
          webhookReservationExpiry(deps),
        ]);
        const ids = new Set(rows.map((row) => Number(row.i)));
        if (ids.size > 0)
          await enqueueFetches(
            tx,
            members.filter((_, i) => ids.has(i)).map((member) => member.item.id),
          );
        return ids;
      });
    } catch (error) {
      onGroupError?.(error, members.length);
      return oneByOne(members);
    }
    const refused: Pending[] = [];
    members.forEach((member, i) => {
      if (accepted.has(i)) member.resolve();
      else refused.push(member);
    });
    await oneByOne(refused);
  }

  const submit = groupCommit(maxGroup, acceptGroup);
  return {
    async accept(request) {
      // Invalid requests are refused at once (a rejected promise), before they can join (and fail) a group.
      checkRequest(deps, request);
      return submit(request);
    },
  };
}
