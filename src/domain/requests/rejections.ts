// Calls refused before a request row was written: schema validation 400s, 402 at acceptance,
// 429 from the rate limiter. They are counted, not recorded one by one: under a flood of 429s each
// refusal costs one Map increment, and each process adds its counts to rejected_calls_daily in one
// statement every FLUSH_INTERVAL_MS (and on shutdown). Counts survive a failed flush (kept for the
// next one); a process killed with SIGKILL loses at most one interval's counts, which is the price of
// not writing per refusal. Reads add this process's unflushed counts, so one process sees its own
// refusals at once.
import type { RejectedCount, RejectionDay } from '../../contract/requests-log.ts';
import type { Queryable } from '../../infra/db/database.ts';

export const FLUSH_INTERVAL_MS = 5_000;
/** Distinct (account, day, key, status, code) counters held before a flush is forced. */
const MAX_PENDING = 10_000;

export interface Rejection {
  accountId: string;
  apiKeyId: string | null;
  httpStatus: number;
  errorCode: string;
  at: Date;
}

interface Pending {
  accountId: string;
  day: string;
  apiKeyId: string;
  httpStatus: number;
  errorCode: string;
  count: number;
  lastAt: Date;
}

// The shapes the API sends are the contract's (src/contract/requests-log.ts).
export type { RejectedCount, RejectionDay };

export class RejectionCounter {
  #pending = new Map<string, Pending>();
  #flushing: Promise<void> | null = null;
  readonly #db: Queryable;
  readonly #onError: (error: unknown) => void;

  constructor(db: Queryable, onError: (error: unknown) => void) {
    this.#db = db;
    this.#onError = onError;
  }

  count(rejection: Rejection): void {
    const day = rejection.at.toISOString().slice(0, 10);
    const apiKeyId = rejection.apiKeyId ?? '';
    const key = `${rejection.accountId}|${day}|${apiKeyId}|${rejection.httpStatus}|${rejection.errorCode}`;
    const entry = this.#pending.get(key);
    if (entry) {
      entry.count += 1;
      if (rejection.at > entry.lastAt) entry.lastAt = rejection.at;
      return;
    }
    this.#pending.set(key, {
      accountId: rejection.accountId,
      day,
      apiKeyId,
      httpStatus: rejection.httpStatus,
      errorCode: rejection.errorCode,
      count: 1,
      lastAt: rejection.at,
    });
    // Memory stays bounded whatever the variety of refusals: many distinct counters flush early.
    if (this.#pending.size >= MAX_PENDING) void this.flush();
  }

  /** Adds the pending counts to the table in one statement; on failure they wait for the next flush. */
  async flush(): Promise<void> {
    // One flush at a time: a second caller waits for the running one, then flushes what is left.
    while (this.#flushing) await this.#flushing;
    if (this.#pending.size === 0) return;
    const batch = [...this.#pending.values()];
    this.#pending = new Map();
    this.#flushing = this.#write(batch).finally(() => {
      this.#flushing = null;
    });
    await this.#flushing;
  }

  async #write(batch: Pending[]): Promise<void> {
    try {
      await this.#db.query(
        `INSERT INTO rejected_calls_daily (account_id, day, api_key_id, http_status, error_code, count, last_at)
         SELECT x.account_id, x.day, x.api_key_id, x.http_status, x.error_code, x.count, x.last_at
         FROM jsonb_to_recordset($1::jsonb) AS
           x(account_id uuid, day date, api_key_id text, http_status integer, error_code text, count integer,
           last_at timestamptz)
         ON CONFLICT (account_id, day, api_key_id, http_status, error_code)
         DO UPDATE SET count = rejected_calls_daily.count + EXCLUDED.count,
           last_at = greatest(rejected_calls_daily.last_at, EXCLUDED.last_at)`,
        [
          JSON.stringify(
            batch.map((p) => ({
              account_id: p.accountId,
              day: p.day,
              api_key_id: p.apiKeyId,
              http_status: p.httpStatus,
              error_code: p.errorCode,
              count: p.count,
              last_at: p.lastAt.toISOString(),
            })),
          ),
        ],
      );
    } catch (error) {
      // Put the counts back (merged with any counted meanwhile) for the next flush.
      for (const p of batch) {
        const key = `${p.accountId}|${p.day}|${p.apiKeyId}|${p.httpStatus}|${p.errorCode}`;
        const entry = this.#pending.get(key);
        if (entry) {
          entry.count += p.count;
          if (p.lastAt > entry.lastAt) entry.lastAt = p.lastAt;
        } else {
          this.#pending.set(key, p);
        }
      }
      this.#onError(error);
    }
  }

  /** This process's counts not yet in the table, for one account. */
  pendingFor(accountId: string): Pending[] {
    return [...this.#pending.values()].filter((p) => p.accountId === accountId);
  }
}

/** Refused calls per UTC day over the last `days` days, newest first; days without any are left out. */
export async function rejectionsByDay(
  db: Queryable,
  counter: RejectionCounter | null,
  accountId: string,
  days: number,
  now: Date,
): Promise<RejectionDay[]> {
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)))
    .toISOString()
    .slice(0, 10);
  const rows = await db.query<{
    day: string;
    api_key_id: string;
    http_status: number;
    error_code: string;
    count: number;
    last_at: Date;
  }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, api_key_id, http_status, error_code, count, last_at
     FROM rejected_calls_daily WHERE account_id = $1 AND day >= $2::date`,
    [accountId, since],
  );
  const merged = new Map<string, Pending>();
  for (const r of rows) {
    merged.set(`${r.day}|${r.api_key_id}|${r.http_status}|${r.error_code}`, {
      accountId,
      day: r.day,
      apiKeyId: r.api_key_id,
      httpStatus: r.http_status,
      errorCode: r.error_code,
      count: r.count,
      lastAt: r.last_at,
    });
  }
  for (const p of counter?.pendingFor(accountId) ?? []) {
    if (p.day < since) continue;
    const key = `${p.day}|${p.apiKeyId}|${p.httpStatus}|${p.errorCode}`;
    const entry = merged.get(key);
    if (entry) {
      entry.count += p.count;
      if (p.lastAt > entry.lastAt) entry.lastAt = p.lastAt;
    } else {
      merged.set(key, { ...p });
    }
  }
  const byDay = new Map<string, RejectionDay>();
  for (const p of merged.values()) {
    const day = byDay.get(p.day) ?? { date: p.day, total: 0, counts: [] };
    day.total += p.count;
    day.counts.push({
      httpStatus: p.httpStatus,
      error: p.errorCode,
      apiKeyId: p.apiKeyId || null,
      count: p.count,
      lastAt: p.lastAt.toISOString(),
    });
    byDay.set(p.day, day);
  }
  return [...byDay.values()]
    .map((d) => ({ ...d, counts: d.counts.sort((a, b) => b.count - a.count || a.httpStatus - b.httpStatus) }))
    .sort((a, b) => (a.date < b.date ? 1 : -1));
}
