// Settling queued (webhook) requests in groups.
//
// One settlement releases the request's reservation, charges its price, records its outcome and,
// for a batch item, does what the batch needs (queue its summary when the batch is complete). Done
// one by one, each held the account's row lock from the release to its commit: with PostgreSQL, two
// worker processes settling one account's requests waited on each other for most of the time
// (pg_stat_activity), and on embedded PGlite each cost five statements.
//
// Settlements that become ready together are written by ONE statement, whatever their number: it
// charges the completed ones, per account in order, as long as the available credits cover them (a
// member may spend its own reservation, never that of a member to charge after it), ends the
// reservations of the members it settles (credits/ledger.ts CHARGE_GROUP_RELEASING_SQL) and records
// every outcome it may. Atomic by itself, it needs no BEGIN/COMMIT, and each account row is touched
// once, by its UPDATE; on PostgreSQL a group of several accounts has them locked in id order first,
// in the same transaction (ledger.ts withAccountsLocked), so two instances' groups cannot take them
// in opposite orders. Members with an `afterSettle` (batch items) go in a transaction: the same
// statement, then their afterSettle, then the jobs they queued by one insert. A member the credits
// do not cover, and the later members to charge of its account, take the one-by-one path afterwards
// (`alone`), which turns a refused charge into the request's failure with the exact message — so a
// group decides exactly what the one-by-one path would have. If a group's statement or transaction
// fails, every member runs alone.
import type { Database, DeferredJob, Queryable, Transaction } from '../../infra/db/database.ts';
import { groupCommit, type Member } from '../../infra/db/group-commit.ts';
import { CHARGE_GROUP_RELEASING_SQL, lockAccounts, withAccountsLocked } from '../credits/ledger.ts';
import { emitCreditsLow, mayBeLow } from '../credits/credit-alerts.ts';
import { signingSecretsSql } from '../webhooks/webhook-secrets.ts';
import { destinationPausedSql } from '../webhooks/destinations.ts';
import {
  OUTCOME_COLUMNS,
  outcomeFields,
  outcomeSetSql,
  type NewRequest,
  type Outcome,
  type RequestRow,
} from './request-store.ts';

export interface QueuedSettlement {
  request: NewRequest;
  /** The price, charged when the outcome is `completed`. */
  credits: number;
  outcome: Outcome;
  /**
   * What settling this request must also do, in the settling transaction, when it changed the
   * request (a batch item: queue the batch's summary once the batch is complete). Without it the
   * request settles in its group's one statement.
   */
  afterSettle?: ((tx: Transaction, request: NewRequest) => Promise<void>) | undefined;
  /** The same settlement alone, in its own transaction (release, charge or fail, record, afterSettle). */
  alone: () => Promise<SettledAs>;
}

export interface SettledAs {
  /** False when the request was settled already (a retried job). */
  changed: boolean;
  /** The outcome recorded: the given one, or the failure a refused charge turned it into. */
  final: Outcome;
  /**
   * What the webhook's first attempt needs, as the settling statement wrote it (a group settled it
   * and it changed the request): the stored row's fields the body is built from, and the account's
   * signing secrets. The attempt then needs no read of its own; without it, it reads them.
   */
  settledRow?: SettledRow;
}

/** The fields of a settled request its webhook is built from, plus the secrets that sign it. */
export type SettledRow = Pick<
  RequestRow,
  'id' | 'account_id' | 'webhook_url' | 'status' | 'result' | 'created_at' | 'completed_at' | 'options'
> & {
  secrets: string[];
  /** The account's destination at webhook_url is paused: the attempt is recorded unsent (destinations.ts). */
  destination_paused: boolean;
};

export interface QueuedSettlementBatcher {
  settle(settlement: QueuedSettlement): Promise<SettledAs>;
}

export interface QueuedSettlementOptions {
  /** Inserts the jobs the members queued (their deliveries), in the group's transaction. */
  insertJobs: (tx: Transaction, jobs: DeferredJob[]) => Promise<void>;
  maxGroup?: number;
  /** A group's statement or transaction failed and its members were settled one by one (it should be rare). */
  onGroupError?: (error: unknown, size: number) => void;
}

// A group's statement. `amount` is the price of a member to charge (completed at a price) and 0 for
// the others. The reservation of every member the statement settles ends; a request settled
// meanwhile (a retried job) is neither charged nor recorded; a member the credits do not cover, and
// every later member to charge of its account, is not recorded either and keeps its reservation
// (they are settled alone afterwards, in order; ledger.ts CHARGE_GROUP_RELEASING_SQL says why), nor
// is any member of an account whose charge the UPDATE's re-check refused (`blocked`: its credits
// were spent meanwhile; its reservations are kept and its members settled alone). For each request
// it settled it returns what the webhook's first
// attempt sends and the secrets that sign it ($2: now), as the delivery's own read would
// (webhook-delivery-job.ts readRequestAttempts): one statement less per group on the fetch jobs'
// path.
// Rows are found by `id = ANY(ARRAY(SELECT … FROM given))`, not `id IN (SELECT … FROM given)`: the
// planner takes a set-returning function for 100 rows, and against tables of a few thousand rows it
// then chose to scan them whole and hash-join, so each group's cost grew with the history (EXPLAIN
// ANALYZE on PGlite: two scans of shorts_requests and two of credit_reservations, 8.7 ms of a group's
// execution). An array's length is estimated at 10, and the rows are looked up by primary key.
const SETTLE_SQL = `
WITH given AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS
    x(i int, account_id uuid, amount int, request_id text, ${OUTCOME_COLUMNS})
), held AS (
  SELECT request_id, account_id, credits FROM credit_reservations
    WHERE request_id = ANY(ARRAY(SELECT request_id FROM given)) FOR UPDATE
), open_requests AS (
  -- The requests to charge, locked: one a concurrent settlement (a retried job) settled while this
  -- statement waited is seen as settled, so it is not charged (the statement's snapshot would still
  -- show it in progress, and the group would charge a request the other had failed).
  SELECT s.id FROM shorts_requests s
  WHERE s.id = ANY(ARRAY(SELECT request_id FROM given WHERE amount > 0)) AND s.status = 'processing' ORDER BY s.id
    FOR NO KEY UPDATE
), input AS (
  SELECT given.i, given.account_id, given.amount, given.request_id FROM given JOIN open_requests o
    ON o.id = given.request_id WHERE given.amount > 0
), ${CHARGE_GROUP_RELEASING_SQL}, settled AS (
  UPDATE shorts_requests s SET ${outcomeSetSql('g')}
  FROM given g WHERE s.id = ANY(ARRAY(SELECT request_id FROM given)) AND s.id = g.request_id AND s.status = 'processing'
    AND (g.i IN (SELECT i FROM accepted) OR (g.amount = 0 AND g.account_id NOT IN (SELECT account_id FROM blocked)))
  RETURNING s.id, s.account_id, s.webhook_url, s.status, s.result, s.created_at, s.completed_at
)
SELECT given.i, given.account_id IN (SELECT account_id FROM blocked) AS blocked, input.i IS NOT NULL AS pending,
  accepted.i IS NOT NULL AS charged, accepted.balance_after, accepted.low_balance_threshold,
  settled.id IS NOT NULL AS changed,
       settled.account_id, settled.webhook_url, settled.status, settled.result, settled.created_at,
         settled.completed_at,
       CASE WHEN settled.webhook_url IS NOT NULL THEN ${signingSecretsSql('settled.account_id', '$2::timestamptz')} END
         AS secrets,
       settled.webhook_url IS NOT NULL AND ${destinationPausedSql('settled.account_id', 'settled.webhook_url')}
         AS destination_paused
FROM given LEFT JOIN input ON input.i = given.i LEFT JOIN accepted ON accepted.i = given.i LEFT JOIN settled
  ON settled.id = given.request_id`;

type Pending = Member<QueuedSettlement, SettledAs>;

const accountsOf = (items: Pending[]) => items.map(({ item }) => item.request.accountId);

const charges = ({ item }: Pending) => item.outcome.status === 'completed' && item.credits > 0;

interface Written {
  /** Each member the statement settled or found settled: whether it changed the request, and the row it wrote. */
  settled: Map<Pending, { changed: boolean; settledRow?: SettledRow }>;
  /**
   * Members to charge from the first one of their account the credits did not cover on, and those of
   * an account whose UPDATE's re-check refused the group's charge: nothing written for them,
   * reservations kept; each is settled alone afterwards, in order.
   */
  refused: Pending[];
  /** Accounts a charge took below their low-balance threshold (→ a request that did it). */
  low: Map<string, string>;
}

type GroupRow = Omit<SettledRow, 'id' | 'secrets' | 'options' | 'destination_paused'> & {
  destination_paused: boolean | null;
  i: number;
  blocked: boolean;
  pending: boolean;
  charged: boolean;
  balance_after: number | string | null;
  low_balance_threshold: number | null;
  changed: boolean;
  secrets: string[] | null;
};

async function writeGroup(db: Queryable, items: Pending[]): Promise<Written> {
  const rows = await db.query<GroupRow>(SETTLE_SQL, [
    JSON.stringify(
      items.map((member, i) => {
        const { request, credits, outcome } = member.item;
        return {
          i,
          account_id: request.accountId,
          amount: charges(member) ? credits : 0,
          request_id: request.id,
          ...outcomeFields(outcome),
        };
      }),
    ),
    new Date(),
  ]);
  const written: Written = { settled: new Map(), refused: [], low: new Map() };
  // By the member's place: the rows' order is the plan's, not guaranteed (the refused go alone in it).
  rows.sort((a, b) => Number(a.i) - Number(b.i));
  for (const row of rows) {
    const member = items[Number(row.i)]!;
    if (row.blocked || (charges(member) && row.pending && !row.charged)) written.refused.push(member);
    else if (!row.changed) written.settled.set(member, { changed: false });
    else {
      const { account_id, webhook_url, status, result, created_at, completed_at } = row;
      written.settled.set(member, {
        changed: true,
        settledRow: {
          id: member.item.request.id,
          account_id,
          webhook_url,
          status,
          result,
          created_at,
          completed_at,
          options: member.item.request.options ?? null,
          secrets: row.secrets ?? [],
          destination_paused: row.destination_paused === true,
        },
      });
    }
    if (row.charged && mayBeLow(Number(row.balance_after), row.low_balance_threshold))
      written.low.set(member.item.request.accountId, member.item.request.id);
  }
  return written;
}

export function createQueuedSettlementBatcher(
  db: Database,
  { insertJobs, maxGroup = 50, onGroupError }: QueuedSettlementOptions,
): QueuedSettlementBatcher {
  // Members left to the one-by-one path settle in the order the group decides in (ledger.ts
  // CHARGE_GROUP_RELEASING_SQL): those not charged first, then the rest, each in arrival order. So a
  // blocked account (or a failed group) ends a failed member's reservation before the members to
  // charge are tried, as the statement would have (they went in arrival order).
  async function oneByOne(members: Pending[]): Promise<void> {
    const order = members
      .map((member, i) => ({ member, i, charging: charges(member) }))
      .sort((a, b) => Number(a.charging) - Number(b.charging) || a.i - b.i);
    for (const { member } of order) await member.item.alone().then(member.resolve, member.reject);
  }

  async function settleGroup(items: Pending[]): Promise<void> {
    // A request twice in one group (two runs of its job at once) would be charged by one member and
    // recorded by the other: the second goes alone, after the group, and finds it settled.
    const seen = new Set<string>();
    const again = items.filter(({ item }) => seen.size === seen.add(item.request.id).size);
    const unique = items.filter((member) => !again.includes(member));
    const plain = unique.filter(({ item }) => !item.afterSettle);
    if (plain.length > 0) await settleInOneStatement(plain);
    const withHooks = unique.filter(({ item }) => item.afterSettle);
    if (withHooks.length > 0) await settleInTransaction(withHooks);
    await oneByOne(again);
  }

  async function settleInOneStatement(items: Pending[]): Promise<void> {
    let written: Written;
    try {
      written = await withAccountsLocked(db, accountsOf(items), (q) => writeGroup(q, items));
    } catch (error) {
      onGroupError?.(error, items.length);
      return oneByOne(items);
    }
    // The statement committed: claim credits.low once per account it took below its threshold (its
    // own statement; the claim looks at the balance as it is, and a lost one is made up by the
    // account's next charge: credit-alerts.ts).
    for (const [accountId, requestId] of written.low) await emitCreditsLow(db, accountId, requestId).catch(() => null);
    for (const [member, settled] of written.settled) member.resolve({ ...settled, final: member.item.outcome });
    // Alone, each charges what the balance covers now or records the refusal.
    await oneByOne(written.refused);
  }

  async function settleInTransaction(items: Pending[]): Promise<void> {
    let written: Written;
    try {
      written = await db.transaction(async (tx) => {
        await lockAccounts(db, tx, accountsOf(items));
        const group = await writeGroup(tx, items);
        // Claimed as a single charge claims it (credit-alerts.ts): once per crossing, in this transaction.
        for (const [accountId, requestId] of group.low) await emitCreditsLow(tx, accountId, requestId);
        const jobs: DeferredJob[] = [];
        const deferring: Transaction = {
          query: (sql, params) => tx.query(sql, params),
          jobDb: tx.jobDb,
          deferJob: (job) => jobs.push(job),
        };
        for (const [member, { changed }] of group.settled)
          if (changed) await member.item.afterSettle?.(deferring, member.item.request);
        if (jobs.length > 0) await insertJobs(tx, jobs);
        return group;
      });
    } catch (error) {
      onGroupError?.(error, items.length);
      return oneByOne(items);
    }
    // Committed: what the statement returned is what is stored.
    for (const [member, settled] of written.settled) member.resolve({ ...settled, final: member.item.outcome });
    await oneByOne(written.refused);
  }

  // Settlements ready while a group is written go together in the next one.
  return { settle: groupCommit(maxGroup, settleGroup) };
}
