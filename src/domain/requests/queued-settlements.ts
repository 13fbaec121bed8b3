// Settling queued (webhook) requests in groups (#13).
//
// One settlement releases the request's reservation, charges its price, records its outcome and
// queues its delivery. Done one by one, each held the account's row lock from the release to its
// commit: with PostgreSQL, two worker processes settling one account's requests waited on each other
// for most of the time (pg_stat_activity), and on embedded PGlite each cost five statements.
//
// Settlements that become ready together go in one transaction of three statements, whatever their
// number: release every member's reservation; charge the completed ones, per account in order, what
// the available credits cover (the charging SQL of credits/ledger.ts, the same as synchronous
// settlements use); record every outcome. Then the deliveries are queued by one insert. A member
// the credits do not cover takes the one-by-one path afterwards (`alone`), which turns a refused
// charge into the request's failure with the exact message — so a group decides exactly what the
// one-by-one path would have. If the group's transaction fails, every member runs alone.
import type { Database, DeferredJob, Transaction } from '../../infra/db/database.ts';
import { groupCommit, type Member } from '../../infra/db/group-commit.ts';
import { CHARGE_GROUP_SQL } from '../credits/ledger.ts';
import { releaseReservations } from '../credits/reservations.ts';
import { emitCreditsLow, mayBeLow } from '../credits/credit-alerts.ts';
import { settleRequests, type NewRequest, type Outcome } from './request-store.ts';

export interface QueuedSettlement {
  request: NewRequest;
  /** The price, charged when the outcome is `completed`. */
  credits: number;
  outcome: Outcome;
  /** Runs in the settling transaction for a request this settlement changed (queues its delivery). */
  afterSettle: (tx: Transaction, request: NewRequest) => Promise<void>;
  /** The same settlement alone, in its own transaction (release, charge or fail, record, afterSettle). */
  alone: () => Promise<SettledAs>;
}

export interface SettledAs {
  /** False when the request was settled already (a retried job). */
  changed: boolean;
  /** The outcome recorded: the given one, or the failure a refused charge turned it into. */
  final: Outcome;
}

export interface QueuedSettlementBatcher {
  settle(settlement: QueuedSettlement): Promise<SettledAs>;
}

export interface QueuedSettlementOptions {
  /** Inserts the jobs the members queued (their deliveries), in the group's transaction. */
  insertJobs: (tx: Transaction, jobs: DeferredJob[]) => Promise<void>;
  maxGroup?: number;
  /** The group's transaction failed and its members were settled one by one (it should be rare). */
  onGroupError?: (error: unknown, size: number) => void;
}

// Only requests still in progress are charged: one settled meanwhile (a retried job) is left as it is.
const CHARGE_SQL = `
WITH given AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(i int, account_id uuid, amount int, request_id text)
), input AS (
  SELECT given.* FROM given JOIN shorts_requests s ON s.id = given.request_id AND s.status = 'processing'
), ${CHARGE_GROUP_SQL}
SELECT given.i, input.i IS NOT NULL AS pending, accepted.i IS NOT NULL AS charged, accepted.balance_after, accepted.low_balance_threshold
FROM given LEFT JOIN input ON input.i = given.i LEFT JOIN accepted ON accepted.i = given.i`;

type Pending = Member<QueuedSettlement, SettledAs>;

const charges = ({ item }: Pending) => item.outcome.status === 'completed' && item.credits > 0;

export function createQueuedSettlementBatcher(db: Database, { insertJobs, maxGroup = 50, onGroupError }: QueuedSettlementOptions): QueuedSettlementBatcher {
  async function oneByOne(members: Pending[]): Promise<void> {
    for (const member of members) await member.item.alone().then(member.resolve, member.reject);
  }

  async function settleGroup(items: Pending[]): Promise<void> {
    if (items.length === 1) return oneByOne(items);
    let result: { settled: Map<Pending, boolean>; refused: Pending[] };
    try {
      result = await db.transaction(async (tx) => {
        await releaseReservations(tx, items.map(({ item }) => item.request.id));
        const payable = items.filter(charges);
        const rows = payable.length === 0 ? [] : await tx.query<{ i: number; pending: boolean; charged: boolean; balance_after: number | string | null; low_balance_threshold: number | null }>(
          CHARGE_SQL,
          [JSON.stringify(payable.map(({ item }, i) => ({ i, account_id: item.request.accountId, amount: item.credits, request_id: item.request.id })))],
        );
        const gone = new Set<Pending>();
        const refused: Pending[] = [];
        const low = new Map<string, string>();
        for (const row of rows) {
          const member = payable[Number(row.i)]!;
          if (!row.pending) gone.add(member);
          else if (!row.charged) refused.push(member);
          else if (mayBeLow(Number(row.balance_after), row.low_balance_threshold)) low.set(member.item.request.accountId, member.item.request.id);
        }
        // Claimed as a single charge claims it (credit-alerts.ts): once per crossing, in this transaction.
        for (const [accountId, requestId] of low) await emitCreditsLow(tx, accountId, requestId);
        const recorded = items.filter((member) => !gone.has(member) && !refused.includes(member));
        const changedIds = await settleRequests(tx, recorded.map(({ item: { request, outcome } }) => ({ id: request.id, outcome })));
        const jobs: DeferredJob[] = [];
        const deferring: Transaction = { query: (sql, params) => tx.query(sql, params), jobDb: tx.jobDb, deferJob: (job) => jobs.push(job) };
        const settled = new Map<Pending, boolean>();
        for (const settling of recorded) {
          const changed = changedIds.has(settling.item.request.id);
          if (changed) await settling.item.afterSettle(deferring, settling.item.request);
          settled.set(settling, changed);
        }
        for (const settling of gone) settled.set(settling, false);
        if (jobs.length > 0) await insertJobs(tx, jobs);
        return { settled, refused };
      });
    } catch (error) {
      onGroupError?.(error, items.length);
      return oneByOne(items);
    }
    for (const [settling, changed] of result.settled) settling.resolve({ changed, final: settling.item.outcome });
    // Their reservations are released; alone, each charges what the balance covers now or records the refusal.
    await oneByOne(result.refused);
  }

  // Settlements ready while a group is written go together in the next one.
  return { settle: groupCommit(maxGroup, settleGroup) };
}
