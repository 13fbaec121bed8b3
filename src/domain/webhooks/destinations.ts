// The health of the URLs an account's webhooks go to (webhook_destinations, migration 025): per
// destination, its run of failures and when it began, its last error and last success, and its
// attempts per hour. Kept by the statement that records the attempts (delivery-log.ts), so reading
// it never scans the delivery log. A destination whose every attempt has failed for
// WEBHOOK_DISABLE_AFTER_DAYS is paused: its new attempts are held (recorded, not sent) and one
// webhook.destination.paused account event is recorded, as credits.low is (the account's events,
// and the outbox to its eventsWebhookUrl). It resumes when the customer says so, or when a test
// event to it succeeds.
import { AppError } from '../../errors.ts';
import type { Queryable } from '../../infra/db/database.ts';
import type { WebhookDestination } from '../../contract/requests-log.ts';
import { newEventId } from './events.ts';

export const DESTINATION_PAUSED = 'webhook.destination.paused';
/** The recent success rate counts the attempts of the last this many hours. */
export const HEALTH_WINDOW_HOURS = 24;

/** A sent attempt, as it counts for its destination's health. */
export interface DestinationAttempt {
  accountId: string;
  url: string;
  outcome: 'delivered' | 'failed' | 'gone';
  statusCode: number | null;
  error: string | null;
  /** When it was made (the service's clock). */
  at: Date;
  /**
   * A destination failing since this time or earlier is paused by this attempt's failure; null: never
   * (WEBHOOK_DISABLE_AFTER_DAYS is 0).
   */
  pauseIfFailingSince: Date | null;
}

/** What a group of attempts to one destination changes, in the columns of DESTINATIONS_SQL's input. */
interface DestinationChange {
  account_id: string;
  url: string;
  /** Failures after the group's last success (all of them without one), the first of them at first_failure_after. */
  failures_after: number;
  first_failure_after: Date | null;
  last_error: string | null;
  last_status_code: number | null;
  last_failure_at: Date | null;
  last_success_at: Date | null;
  last_attempt_at: Date;
  hour: Date;
  delivered: number;
  failed: number;
  pause_if_failing_since: Date | null;
}

const destinationKey = (accountId: string, url: string) => `${accountId} ${url}`;

/** Folds attempts, in the order they were made, into one change per destination. */
export function destinationChanges(attempts: DestinationAttempt[]): DestinationChange[] {
  const changes = new Map<string, DestinationChange>();
  for (const a of attempts) {
    const key = destinationKey(a.accountId, a.url);
    const hour = new Date(Math.floor(a.at.getTime() / 3_600_000) * 3_600_000);
    const c = changes.get(key) ?? {
      account_id: a.accountId,
      url: a.url,
      failures_after: 0,
      first_failure_after: null,
      last_error: null,
      last_status_code: null,
      last_failure_at: null,
      last_success_at: null,
      last_attempt_at: a.at,
      hour,
      delivered: 0,
      failed: 0,
      pause_if_failing_since: a.pauseIfFailingSince,
    };
    c.last_attempt_at = a.at;
    c.hour = hour;
    c.pause_if_failing_since = a.pauseIfFailingSince;
    if (a.outcome === 'delivered') {
      Object.assign(c, { failures_after: 0, first_failure_after: null, last_success_at: a.at });
      c.delivered += 1;
    } else {
      c.first_failure_after ??= a.at;
      c.failures_after += 1;
      Object.assign(c, { last_error: a.error, last_status_code: a.statusCode, last_failure_at: a.at });
      c.failed += 1;
    }
    changes.set(key, c);
  }
  // Destinations in one order in every statement: two groups upserting the same ones cannot deadlock.
  return [...changes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
}

/**
 * The CTEs that apply DestinationChanges (json parameter `$param`) after the attempts' INSERT:
 * upsert each destination, add to its hour, and select the ids whose failure run is now long enough
 * to pause (the caller pauses them: pauseDestination). Part of the attempts' one statement.
 */
export function destinationsSql(param: string): { ctes: string; select: string } {
  return {
    ctes: `changes AS (
  SELECT * FROM json_to_recordset(${param}::json) AS c(account_id uuid, url text, failures_after int,
    first_failure_after timestamptz, last_error text, last_status_code int,
    last_failure_at timestamptz, last_success_at timestamptz, last_attempt_at timestamptz, hour timestamptz,
    delivered int, failed int, pause_if_failing_since timestamptz)
), destinations AS (
  INSERT INTO webhook_destinations AS d (account_id, url, consecutive_failures, failing_since, last_error,
    last_status_code, last_failure_at, last_success_at, last_attempt_at)
  SELECT account_id, url, failures_after, first_failure_after, last_error, last_status_code, last_failure_at,
    last_success_at, last_attempt_at FROM changes
  ON CONFLICT (account_id, md5(url)) DO UPDATE SET
    consecutive_failures = CASE WHEN excluded.last_success_at IS NOT NULL THEN excluded.consecutive_failures
      ELSE d.consecutive_failures + excluded.consecutive_failures END,
    failing_since = CASE WHEN excluded.last_success_at IS NOT NULL THEN excluded.failing_since
      ELSE coalesce(d.failing_since, excluded.failing_since) END,
    last_error = coalesce(excluded.last_error, d.last_error),
    last_status_code = CASE WHEN excluded.last_failure_at IS NOT NULL THEN excluded.last_status_code
      ELSE d.last_status_code END,
    last_failure_at = coalesce(excluded.last_failure_at, d.last_failure_at),
    last_success_at = coalesce(excluded.last_success_at, d.last_success_at),
    last_attempt_at = greatest(d.last_attempt_at, excluded.last_attempt_at)
  RETURNING d.id, d.account_id, d.url, d.consecutive_failures, d.failing_since, d.paused_at
), hours AS (
  INSERT INTO webhook_destination_hours AS h (destination_id, hour, delivered, failed)
  SELECT d.id, c.hour, c.delivered, c.failed FROM destinations d
    JOIN changes c ON c.account_id = d.account_id AND c.url = d.url
  ON CONFLICT (destination_id, hour) DO UPDATE SET delivered = h.delivered + excluded.delivered,
    failed = h.failed + excluded.failed
)`,
    select: `SELECT d.id FROM destinations d JOIN changes c ON c.account_id = d.account_id AND c.url = d.url
  WHERE d.paused_at IS NULL AND d.consecutive_failures > 0 AND d.failing_since <= c.pause_if_failing_since`,
  };
}

/**
 * Pauses a destination (once: a destination already paused is left alone) and records its
 * webhook.destination.paused event in the account's events and, when the account has an
 * eventsWebhookUrl, in the webhook outbox (dispatched by the workers' sweep), in one statement.
 * Returns whether this call paused it.
 */
export async function pauseDestination(db: Queryable, destinationId: number, at: Date): Promise<boolean> {
  const rows = await db.query(
    `WITH claimed AS (
       UPDATE webhook_destinations SET paused_at = $2 WHERE id = $1 AND paused_at IS NULL
       RETURNING id, account_id, url, consecutive_failures, failing_since, last_error
     ), body AS (
       SELECT c.account_id, a.events_webhook_url, jsonb_build_object('type', $3::text,
         'timestamp', to_char($2::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'data', jsonb_build_object('destinationId', c.id, 'url', c.url,
           'failingSince', to_char(c.failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'consecutiveFailures', c.consecutive_failures, 'lastError', c.last_error)) AS payload
       FROM claimed c JOIN accounts a ON a.id = c.account_id
     ), outbox AS (
       INSERT INTO webhook_events (id, account_id, type, webhook_url, payload, created_at)
       SELECT $4, account_id, $3, events_webhook_url, payload::text, $2 FROM body WHERE events_webhook_url IS NOT NULL
     )
     INSERT INTO credit_events (account_id, type, payload, created_at)
     SELECT account_id, $3, payload, $2 FROM body RETURNING id`,
    [destinationId, at, DESTINATION_PAUSED, newEventId(at.getTime())],
  );
  return rows.length > 0;
}

/**
 * Whether the account's destination at `url` is paused, as an SQL expression: the reads that fetch what
 * an attempt sends include it (the settling statement, the request's delivery read), so checking costs
 * no statement of its own. The partial index holds paused destinations only.
 */
export function destinationPausedSql(account: string, url: string): string {
  return `EXISTS (SELECT 1 FROM webhook_destinations p WHERE p.paused_at IS NOT NULL AND p.account_id = ${account}
    AND md5(p.url) = md5(${url}) AND p.url = ${url})`;
}

/** destinationPausedSql on its own: for a batch summary's or an account event's attempt. */
export async function isDestinationPaused(db: Queryable, accountId: string, url: string): Promise<boolean> {
  const [row] = await db.query<{ paused: boolean }>(
    `SELECT ${destinationPausedSql('$1::uuid', '$2::text')} AS paused`,
    [accountId, url],
  );
  return row?.paused === true;
}

interface DestinationRow {
  id: number | string;
  url: string;
  consecutive_failures: number;
  failing_since: Date | null;
  last_error: string | null;
  last_status_code: number | null;
  last_failure_at: Date | null;
  last_success_at: Date | null;
  last_attempt_at: Date;
  paused_at: Date | null;
  delivered: number | string;
  failed: number | string;
}

function destinationOf(row: DestinationRow): WebhookDestination {
  const delivered = Number(row.delivered);
  const attempts = delivered + Number(row.failed);
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    id: Number(row.id),
    url: row.url,
    state: row.paused_at ? 'paused' : row.consecutive_failures > 0 ? 'failing' : 'healthy',
    successRate: attempts === 0 ? null : Math.round((delivered / attempts) * 1000) / 1000,
    recentAttempts: attempts,
    consecutiveFailures: row.consecutive_failures,
    failingSince: iso(row.failing_since),
    lastError: row.last_error,
    lastStatusCode: row.last_status_code,
    lastFailureAt: iso(row.last_failure_at),
    lastSuccessAt: iso(row.last_success_at),
    lastAttemptAt: row.last_attempt_at.toISOString(),
    pausedAt: iso(row.paused_at),
  };
}

const DESTINATION_SELECT = `SELECT d.*, coalesce(sum(h.delivered), 0) AS delivered, coalesce(sum(h.failed), 0) AS failed
  FROM webhook_destinations d
  LEFT JOIN webhook_destination_hours h ON h.destination_id = d.id AND h.hour >= $2`;

/** The account's destinations, the most recently used first, with their last day's success rate. */
export async function listDestinations(
  db: Queryable,
  accountId: string,
  now: Date,
  limit = 100,
): Promise<WebhookDestination[]> {
  const rows = await db.query<DestinationRow>(
    `${DESTINATION_SELECT} WHERE d.account_id = $1 GROUP BY d.id ORDER BY d.last_attempt_at DESC, d.id DESC LIMIT $3`,
    [accountId, windowStart(now), limit],
  );
  return rows.map(destinationOf);
}

function windowStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000 - (HEALTH_WINDOW_HOURS - 1) * 3_600_000);
}

/**
 * Resumes a destination by id (the customer said so): its new attempts are sent again, and its run of
 * failures starts afresh, so one more failure does not pause it again at once. 404 when the account
 * has no such destination.
 */
export async function resumeDestination(
  db: Queryable,
  accountId: string,
  destinationId: number,
  now: Date,
): Promise<WebhookDestination> {
  const [row] = await db.query<{ id: number }>(
    `UPDATE webhook_destinations SET paused_at = NULL, consecutive_failures = 0, failing_since = NULL
     WHERE id = $1 AND account_id = $2 RETURNING id`,
    [destinationId, accountId],
  );
  if (!row) throw new AppError('NOT_FOUND', 'No webhook destination with this id for this account.');
  const [found] = await db.query<DestinationRow>(`${DESTINATION_SELECT} WHERE d.id = $1 GROUP BY d.id`, [
    row.id,
    windowStart(now),
  ]);
  return destinationOf(found!);
}

/**
 * A test event to `url` succeeded: the destination (if the account has one there) counts it as a
 * success and, if it was paused, resumes. A failed test changes nothing: it was not a delivery.
 */
export async function testSucceeded(db: Queryable, accountId: string, url: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE webhook_destinations SET paused_at = NULL, consecutive_failures = 0, failing_since = NULL,
       last_success_at = $3 WHERE account_id = $1 AND md5(url) = md5($2) AND url = $2`,
    [accountId, url, at],
  );
}

/** Drops the hourly counts older than the health window (with the hourly purge of stored results). */
export async function purgeDestinationHours(db: Queryable, now: Date): Promise<number> {
  const rows = await db.query('DELETE FROM webhook_destination_hours WHERE hour < $1 RETURNING 1', [windowStart(now)]);
  return rows.length;
}
