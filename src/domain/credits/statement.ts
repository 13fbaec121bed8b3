// The account's credit statement: ledger entries with the request and channel each
// charge paid for, newest first, in cursor pages; and the balance over time, read from the ledger
// (each entry carries the balance after it, so a day's closing balance is its last entry's).
import type { Queryable } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import type { BalanceDay, BalanceStep, LedgerPage, StatementEntry } from '../../contract/credits.ts';

// The shapes are the contract's (src/contract/credits.ts): a page of the statement is its LedgerPage.
export type { BalanceDay, StatementEntry };
export type StatementPage = LedgerPage;

interface StatementRow {
  id: number | string;
  kind: StatementEntry['kind'];
  amount: number;
  balance_after: number;
  request_id: string | null;
  channel_url: string | null;
  channel_title: string | null;
  note: string | null;
  created_at: Date;
  via: 'api' | 'mcp' | null;
}

// A stored result is either the whole success body (data.channel.snippet.title), its summary
// (channel.title) or, past its retention, what the purge kept (channelTitle: the
// statement lost the title then). A watch check's charge names its channel, kept on the check itself
// so that it outlives the watch (it named none).
const SELECT_ENTRIES = `
  SELECT l.id, l.kind, l.amount, l.balance_after, l.request_id, l.note, l.created_at,
    coalesce(r.channel_url, c.channel_url) AS channel_url,
         coalesce(r.result->'channel'->>'title', r.result->'data'->'channel'->'snippet'->>'title',
           r.result->>'channelTitle', c.channel_title) AS channel_title,
         CASE WHEN r.id IS NULL THEN NULL ELSE coalesce(r.options->>'via', 'api') END AS via
  FROM credit_ledger l LEFT JOIN shorts_requests r ON r.id = l.request_id
    LEFT JOIN watch_checks c ON r.id IS NULL AND c.id = l.request_id
  WHERE l.account_id = $1 AND ($2::bigint IS NULL OR l.id < $2::bigint)
  ORDER BY l.id DESC LIMIT $3`;

function toEntry(r: StatementRow): StatementEntry {
  return {
    id: Number(r.id),
    kind: r.kind,
    amount: r.amount,
    balanceAfter: r.balance_after,
    requestId: r.request_id,
    channelUrl: r.channel_url,
    channelTitle: r.channel_title,
    via: r.via,
    note: r.note,
    createdAt: r.created_at.toISOString(),
  };
}

/** The cursor is the id of the last entry shown: entries are append-only, so a page never shifts. */
function parseCursor(cursor: string | undefined): number | null {
  if (cursor === undefined) return null;
  if (!/^[1-9][0-9]{0,17}$/.test(cursor) || !Number.isSafeInteger(Number(cursor)))
    throw new AppError(
      'VALIDATION_FAILED',
      'cursor is not one this API returned (use nextCursor from the previous page).',
    );
  return Number(cursor);
}

export async function ledgerPage(
  db: Queryable,
  accountId: string,
  limit: number,
  cursor?: string,
): Promise<StatementPage> {
  const rows = await db.query<StatementRow>(SELECT_ENTRIES, [accountId, parseCursor(cursor), limit + 1]);
  const entries = rows.slice(0, limit).map(toEntry);
  return { entries, nextCursor: rows.length > limit ? String(entries[entries.length - 1]!.id) : null };
}

/** Every entry, newest first, read in pages of `pageSize` (the CSV export streams these). */
export async function* allLedgerEntries(
  db: Queryable,
  accountId: string,
  pageSize = 1000,
): AsyncGenerator<StatementEntry> {
  let cursor: string | undefined;
  for (;;) {
    const page = await ledgerPage(db, accountId, pageSize, cursor);
    yield* page.entries;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}

/** The first instant of the last `days` UTC days. */
function periodStart(days: number, now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
}

/**
 * Each change of the balance in the last `days` UTC days, oldest first (the latest `limit`), and the
 * balance before the first of them: a chart draws the steps within each day from these.
 */
export async function balanceSteps(
  db: Queryable,
  accountId: string,
  days: number,
  now: Date,
  limit = 1000,
): Promise<{ steps: BalanceStep[]; openingBalance: number }> {
  const rows = await db.query<{ id: string | number; created_at: Date; balance_after: number; amount: number }>(
    'SELECT id, created_at, balance_after, amount FROM credit_ledger WHERE account_id = $1 AND created_at >= $2 ' +
      'ORDER BY id DESC LIMIT $3',
    [accountId, periodStart(days, now), limit],
  );
  rows.reverse();
  const first = rows[0];
  const openingBalance = first
    ? first.balance_after - first.amount
    : ((await balanceHistory(db, accountId, days, now)).at(-1)?.balance ?? 0);
  return { steps: rows.map((r) => ({ at: r.created_at.toISOString(), balance: r.balance_after })), openingBalance };
}

/** The balance at the end of each of the last `days` UTC days, oldest first, every day present. */
export async function balanceHistory(db: Queryable, accountId: string, days: number, now: Date): Promise<BalanceDay[]> {
  const since = periodStart(days, now);
  const [opening] = await db.query<{ balance_after: number }>(
    'SELECT balance_after FROM credit_ledger WHERE account_id = $1 AND created_at < $2 ORDER BY id DESC LIMIT 1',
    [accountId, since],
  );
  const rows = await db.query<{ day: string; closing: number; added: number; spent: number }>(
    `SELECT day, (array_agg(balance_after ORDER BY id DESC))[1] AS closing,
            coalesce(sum(amount) FILTER (WHERE amount > 0), 0)::int AS added,
              coalesce(-sum(amount) FILTER (WHERE amount < 0), 0)::int AS spent
     FROM (SELECT id, amount, balance_after, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day
       FROM credit_ledger WHERE account_id = $1 AND created_at >= $2) d
     GROUP BY day`,
    [accountId, since],
  );
  const byDay = new Map(rows.map((r) => [r.day, r]));
  let balance = opening?.balance_after ?? 0;
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const row = byDay.get(date);
    if (row) balance = row.closing;
    return { date, balance, added: row?.added ?? 0, spent: row?.spent ?? 0 };
  });
}
