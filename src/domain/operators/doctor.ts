// `doctor`: checks the invariants the service promises, on one consistent snapshot of the database.
//   balance = ledger sum per account · every charged request has its charge entry (same amount) and
//   every charge entry its completed request · every ledger entry and request names an account ·
//   no request stuck in `processing` without a live job · no settled webhook request without a
//   delivery attempt or a live fetch or delivery job · the snapshots' month partitions are there ·
//   queue health · who holds the DATA_DIR lock.
// A `breach` means data disagree (exit ≠ 0); a `warn` is worth a look but not wrong.
import type { Database, Transaction } from '../../infra/db/database.ts';
import { dirname } from 'node:path';
import { QUEUES } from '../../infra/queue.ts';
import { changedMigrations } from '../../infra/db/migrate.ts';
import { describeHolder, readLockHolder } from '../../infra/db/data-dir-lock.ts';
import type { DoctorFinding, DoctorReport } from '../../contract/operator.ts';

export type Severity = DoctorFinding['severity'];

/** The API's DoctorFinding shape (contract/operator.ts). */
export type Finding = DoctorFinding;

export type { DoctorReport };

export interface DoctorOptions {
  /** How the data directory's lock looks to the caller (who holds it), or why there is none. */
  lock: { severity: Severity; summary: string };
  /** A queued job older than this is reported (warn). */
  backlogWarnSeconds?: number;
}

const DETAIL_LIMIT = 20;
const LIVE_JOB_STATES = `('created', 'retry', 'active')`;

function finding(
  check: string,
  rows: string[],
  okSummary: string,
  badSummary: (n: number) => string,
  severity: Severity = 'breach',
): Finding {
  return rows.length === 0
    ? { check, severity: 'ok', summary: okSummary, details: [] }
    : { check, severity, summary: badSummary(rows.length), details: rows.slice(0, DETAIL_LIMIT) };
}

async function queueTablesExist(tx: Pick<Transaction, 'query'>): Promise<boolean> {
  const [row] = await tx.query<{ exists: boolean }>("SELECT to_regclass('pgboss.job') IS NOT NULL AS exists");
  return row?.exists === true;
}

/**
 * Webhook requests in `processing` that no fetch job will settle: none queued, retrying or running
 * in the fetch queue or its dead-letter queue. Doctor reports them; a worker starting up hands them
 * to the dead-letter queue (start-workers.ts), e.g. those whose fetch job used up its retries before
 * the queue had a dead-letter queue. A request and its first job are inserted by one transaction,
 * so an accepted request is never seen here before its job.
 */
export async function findStrandedRequests(
  tx: Pick<Transaction, 'query'>,
): Promise<Array<{ id: string; created_at: Date }>> {
  if (!(await queueTablesExist(tx)))
    return tx.query(
      `SELECT r.id, r.created_at FROM shorts_requests r WHERE r.status = 'processing' ORDER BY r.created_at`,
    );
  return tx.query(
    `SELECT r.id, r.created_at FROM shorts_requests r WHERE r.status = 'processing' AND NOT EXISTS (
       SELECT 1 FROM pgboss.job j WHERE j.name IN ($1, $2) AND j.data->>'requestId' = r.id
         AND j.state IN ${LIVE_JOB_STATES}) ORDER BY r.created_at`,
    [QUEUES.shortsFetch, QUEUES.shortsFetchGaveUp],
  );
}

/** What every check reads: the snapshot, the caller's options, and whether the job queue's tables exist. */
interface CheckContext {
  tx: Transaction;
  options: DoctorOptions;
  hasQueue: boolean;
}

type Check = (context: CheckContext) => Promise<Finding>;

async function balancesMatchLedger({ tx }: CheckContext): Promise<Finding> {
  const balances = await tx.query<{ email: string; credit_balance: number; ledger_sum: number }>(
    `SELECT a.email, a.credit_balance, coalesce(l.total, 0)::int AS ledger_sum
     FROM accounts a LEFT JOIN (SELECT account_id, sum(amount) AS total FROM credit_ledger GROUP BY account_id) l
       ON l.account_id = a.id
     WHERE a.credit_balance <> coalesce(l.total, 0) ORDER BY a.email`,
  );
  const [accounts] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM accounts');
  return finding(
    'balance = ledger sum',
    balances.map((r) => `${r.email}: balance ${r.credit_balance}, ledger sum ${r.ledger_sum}`),
    `${accounts?.n ?? 0} accounts, every balance equals its ledger sum`,
    (n) => `${n} account${n === 1 ? '' : 's'} whose balance differs from the ledger sum`,
  );
}

async function chargedRequestsLedgered({ tx }: CheckContext): Promise<Finding> {
  const unledgered = await tx.query<{ id: string; credits_charged: number; charged: number | null }>(
    `SELECT r.id, r.credits_charged, l.amount AS charged FROM shorts_requests r
     LEFT JOIN credit_ledger l ON l.request_id = r.id AND l.kind = 'charge'
     WHERE r.status = 'completed' AND coalesce(r.credits_charged, 0) > 0
       AND (l.id IS NULL OR -l.amount <> r.credits_charged)
     ORDER BY r.created_at`,
  );
  return finding(
    'charged request → ledger entry',
    unledgered.map(
      (r) =>
        `${r.id}: charged ${r.credits_charged}, ` +
        `${r.charged === null ? 'no ledger entry' : `ledger says ${-r.charged}`}`,
    ),
    'every charged request has its ledger entry',
    (n) => `${n} charged request${n === 1 ? '' : 's'} without a matching ledger entry`,
  );
}

async function chargesHaveRequests({ tx }: CheckContext): Promise<Finding> {
  const orphanCharges = await tx.query<{
    id: number | string;
    request_id: string | null;
    amount: number;
    status: string | null;
    credits_charged: number | null;
  }>(
    // A watch check is charged under its check id, recorded in watch_checks rather than shorts_requests.
    `SELECT l.id, l.request_id, l.amount, coalesce(r.status, CASE WHEN c.id IS NOT NULL THEN 'completed' END) AS status,
      coalesce(r.credits_charged, c.credits_charged) AS credits_charged FROM credit_ledger l
     LEFT JOIN shorts_requests r ON r.id = l.request_id
     LEFT JOIN watch_checks c ON c.id = l.request_id
     WHERE l.kind = 'charge' AND l.amount <> 0
       AND (r.id IS NULL OR r.status <> 'completed' OR coalesce(r.credits_charged, 0) <> -l.amount)
       AND (c.id IS NULL OR c.credits_charged <> -l.amount)
     ORDER BY l.id`,
  );
  return finding(
    'ledger entry → charged request',
    orphanCharges.map(
      (r) =>
        `ledger #${r.id} charge ${-r.amount} for ${r.request_id ?? '(no request id)'}: ` +
        `${r.status === null ? 'no such request' : `request is ${r.status}, charged ${r.credits_charged ?? 0}`}`,
    ),
    'every charge in the ledger belongs to a completed request charged the same amount',
    (n) => `${n} ledger charge${n === 1 ? '' : 's'} without a matching charged request`,
  );
}

/**
 * Reservations (credits held by requests in progress): the account's total is the sum of its
 * reservation rows, and never above its balance (migration 010 enforces the latter on every write).
 */
async function reservationsMatch({ tx }: CheckContext): Promise<Finding> {
  const misheld = await tx.query<{ email: string; credits_reserved: number; held: number; credit_balance: number }>(
    `SELECT a.email, a.credits_reserved, coalesce(r.total, 0)::int AS held, a.credit_balance
     FROM accounts a LEFT JOIN (SELECT account_id, sum(credits) AS total FROM credit_reservations GROUP BY account_id) r
       ON r.account_id = a.id
     WHERE a.credits_reserved <> coalesce(r.total, 0) OR a.credits_reserved > a.credit_balance ORDER BY a.email`,
  );
  return finding(
    'reserved credits = reservations',
    misheld.map(
      (r) => `${r.email}: reserved ${r.credits_reserved}, reservations hold ${r.held}, balance ${r.credit_balance}`,
    ),
    "every account's reserved credits are its reservations, within its balance",
    (n) =>
      `${n} account${n === 1 ? '' : 's'} whose reserved credits differ from their reservations or exceed the balance`,
  );
}

/** The ledger and requests carry no foreign key to accounts (migration 009): this is the check. */
async function rowsHaveAccounts({ tx }: CheckContext): Promise<Finding> {
  const unowned = await tx.query<{ what: string }>(
    `SELECT 'ledger #' || l.id || ' names account ' || l.account_id AS what FROM credit_ledger l
      WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = l.account_id)
     UNION ALL
     SELECT 'request ' || r.id || ' names account ' || r.account_id FROM shorts_requests r
       WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = r.account_id)
     ORDER BY 1 LIMIT 100`,
  );
  return finding(
    'ledger and requests → account',
    unowned.map((r) => `${r.what}, which does not exist`),
    'every ledger entry and request names an existing account',
    (n) =>
      `${n}${n === 100 ? ' or more' : ''} ledger ` +
      `entr${n === 1 ? 'y or request names' : 'ies or requests name'} a missing account`,
  );
}

async function migrationsUnchanged({ tx }: CheckContext): Promise<Finding> {
  const changed = await changedMigrations(tx);
  return finding(
    'migrations → files',
    changed.map(
      (name) =>
        `${name}: applied, but the file this release ships differs (or is gone); the database ` +
        'may lack what the change added',
    ),
    'every applied migration is the file this release ships',
    (n) => `${n} applied migration${n === 1 ? '' : 's'} changed since`,
    'warn',
  );
}

/** Snapshots outside every month partition mean no sweeper creates the months ahead (stats/partitions.ts). */
async function statsPartitionsAhead({ tx }: CheckContext): Promise<Finding> {
  const problems = await tx.query<{ what: string }>(
    `SELECT n || ' snapshot' || CASE WHEN n = 1 THEN '' ELSE 's' END || ' in the default partition: no month ' ||
         'partition covers them' AS what
       FROM (SELECT count(*)::int AS n FROM (SELECT 1 FROM stats_points_default LIMIT 1000) d) c WHERE n > 0
     UNION ALL
     SELECT 'no partition for ' || to_char(m, 'YYYY-MM') || ': its snapshots would wait in the default partition'
       FROM generate_series(0, 1) AS k,
         LATERAL (SELECT date_trunc('month', now() AT TIME ZONE 'UTC') + k * interval '1 month' AS m) months
       WHERE to_regclass('stats_points_' || to_char(m, 'YYYY_MM')) IS NULL`,
  );
  return finding(
    'statistics → month partitions',
    problems.map((r) => r.what),
    'this month and the next have their snapshot partitions, and none waits in the default one',
    () => 'the snapshot partitions lag behind: is a worker process (its sweeper creates them) running?',
    'warn',
  );
}

async function processingHasJob({ tx }: CheckContext): Promise<Finding> {
  const stuck = await findStrandedRequests(tx);
  return finding(
    'processing request → job',
    stuck.map((r) => `${r.id}: processing since ${r.created_at.toISOString()}, no queued or running fetch job`),
    'every request in processing has a live fetch job',
    (n) => `${n} request${n === 1 ? '' : 's'} stuck in processing without a job`,
  );
}

async function settledWebhooksAttempted({ tx, hasQueue }: CheckContext): Promise<Finding> {
  const undelivered = await tx.query<{ id: string; completed_at: Date | null }>(
    hasQueue
      ? `SELECT r.id, r.completed_at FROM shorts_requests r
         WHERE r.mode = 'webhook' AND r.status <> 'processing'
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.request_id = r.id)
           AND NOT EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name IN ($1, $2, $3) AND j.data->>'requestId' = r.id
             AND j.state IN ${LIVE_JOB_STATES})
         ORDER BY r.created_at`
      : `SELECT r.id, r.completed_at FROM shorts_requests r WHERE r.mode = 'webhook' AND r.status <> 'processing'
        AND $1::text IS NOT NULL AND $2::text IS NOT NULL AND $3::text IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.request_id = r.id) ORDER BY r.created_at`,
    // The first attempt is made by the request's fetch job (jobs/shorts-fetch-job.ts, or the gave-up queue's), the
    // others by delivery jobs.
    [QUEUES.webhookDelivery, QUEUES.shortsFetch, QUEUES.shortsFetchGaveUp],
  );
  return finding(
    'settled webhook request → delivery',
    undelivered.map(
      (r) =>
        `${r.id}: settled ${r.completed_at?.toISOString() ?? ''}, no delivery attempt and no fetch or delivery job`,
    ),
    'every settled webhook request was attempted or has a fetch or delivery job',
    (n) => `${n} settled webhook request${n === 1 ? '' : 's'} never attempted and without a fetch or delivery job`,
  );
}

async function queueHealth({ tx, options, hasQueue }: CheckContext): Promise<Finding> {
  const check = 'queue health';
  if (!hasQueue)
    return {
      check,
      severity: 'warn',
      summary: 'the job queue is not installed yet (the service has never started on this database)',
      details: [],
    };
  const stats = await tx.query<{ name: string; state: string; n: number; oldest: Date | null }>(
    `SELECT name, state::text AS state, count(*)::int AS n, min(created_on) AS oldest FROM pgboss.job
     WHERE name = ANY($1) AND state IN ('created', 'retry', 'active', 'failed') GROUP BY name, state
       ORDER BY name, state`,
    [Object.values(QUEUES)],
  );
  const failed = stats.filter((s) => s.state === 'failed');
  const backlogLimit = (options.backlogWarnSeconds ?? 600) * 1000;
  const now = Date.now();
  const oldWaiting = stats.filter(
    (s) => s.state !== 'failed' && s.state !== 'active' && s.oldest && now - s.oldest.getTime() > backlogLimit,
  );
  const counts =
    stats
      .filter((s) => s.state !== 'failed')
      .map((s) => `${s.name} ${s.state}=${s.n}`)
      .join(', ') || 'nothing queued';
  if (failed.length > 0)
    return {
      check,
      severity: 'breach',
      summary: `${failed.reduce((t, s) => t + s.n, 0)} job(s) failed for good (retries exhausted); ${counts}`,
      details: failed.map((s) => `${s.name}: ${s.n} failed`),
    };
  if (oldWaiting.length > 0)
    return {
      check,
      severity: 'warn',
      summary: `a backlog older than ${backlogLimit / 1000} s (is a worker running?); ${counts}`,
      details: oldWaiting.map((s) => `${s.name} ${s.state}: oldest from ${s.oldest!.toISOString()}`),
    };
  return { check, severity: 'ok', summary: counts, details: [] };
}

/** The checks in the order the report lists them. */
const CHECKS: Check[] = [
  balancesMatchLedger,
  chargedRequestsLedgered,
  chargesHaveRequests,
  reservationsMatch,
  rowsHaveAccounts,
  migrationsUnchanged,
  statsPartitionsAhead,
  processingHasJob,
  settledWebhooksAttempted,
  queueHealth,
];

export async function runDoctor(db: Database, options: DoctorOptions): Promise<DoctorReport> {
  const findings = await db.transaction(async (tx) => {
    // One snapshot for every check, so work committing meanwhile cannot look like a breach.
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    await tx.query('SET TRANSACTION READ ONLY');
    const context: CheckContext = { tx, options, hasQueue: await queueTablesExist(tx) };
    const out: Finding[] = [];
    // One after another: the checks share the transaction's one connection.
    for (const check of CHECKS) out.push(await check(context));
    return out;
  });
  findings.push({
    check: 'DATA_DIR lock',
    severity: options.lock.severity,
    summary: options.lock.summary,
    details: [],
  });
  return { ok: findings.every((f) => f.severity !== 'breach'), checkedAt: new Date().toISOString(), findings };
}

export function formatReport(report: DoctorReport): string {
  const mark = { ok: 'ok    ', warn: 'WARN  ', breach: 'BREACH' } as const;
  const lines = report.findings.flatMap((f) => [
    `${mark[f.severity]} ${f.check}: ${f.summary}`,
    ...f.details.map((d) => `         - ${d}`),
  ]);
  const breaches = report.findings.filter((f) => f.severity === 'breach').length;
  lines.push(
    breaches === 0 ? 'doctor: no breach found' : `doctor: ${breaches} breach${breaches === 1 ? '' : 'es'} found`,
  );
  return lines.join('\n');
}

/** The lock finding of a process that has the database open itself (the service, or the CLI). */
export function ownLockStatus(db: Database): DoctorOptions['lock'] {
  if (db.kind === 'postgres')
    return { severity: 'ok', summary: 'not applicable: PostgreSQL (DATABASE_URL) needs no DATA_DIR lock' };
  const lock = db.dataDirLock;
  if (!lock) return { severity: 'ok', summary: 'not applicable: in-memory database' };
  const current = readLockHolder(dirname(lock.path));
  if (!current || current.pid !== lock.holder.pid || current.hostname !== lock.holder.hostname) {
    return {
      severity: 'breach',
      summary:
        `${lock.path} no longer names this process (${current ? describeHolder(current) : 'missing'}): ` +
        'another process may open the data directory',
    };
  }
  return { severity: 'ok', summary: `held by ${describeHolder(current)} (this process)` };
}
