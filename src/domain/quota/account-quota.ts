// Upstream units spent on behalf of each account per quota day, and the part of them no credit paid
// for. The unpaid part (failed lookups, refusals after a probe) is bounded by the daily allowance
// (QUOTA_ALLOWANCE_UNITS): probe units are taken from it before they are spent and given back
// when the request goes on to pay for them.
import type { Queryable } from '../../infra/db/database.ts';

/** Takes `units` of the allowance; false (nothing changed) when the account has not that many left. */
export async function takeAllowance(
  db: Queryable,
  accountId: string,
  day: string,
  units: number,
  limit: number,
): Promise<boolean> {
  if (units > limit) return false;
  const rows = await db.query(
    `INSERT INTO account_quota_days AS q (account_id, quota_day, units, unpaid_units) VALUES ($1, $2, $3, $3)
     ON CONFLICT (account_id, quota_day) DO UPDATE
       SET units = q.units + EXCLUDED.units, unpaid_units = q.unpaid_units + EXCLUDED.unpaid_units
       WHERE q.unpaid_units + EXCLUDED.unpaid_units <= $4
     RETURNING unpaid_units`,
    [accountId, day, units, limit],
  );
  return rows.length === 1;
}

/** Probe units the request now pays for with credits: they leave the unpaid count. */
export async function returnAllowance(db: Queryable, accountId: string, day: string, units: number): Promise<void> {
  if (units <= 0) return;
  await db.query(
    'UPDATE account_quota_days SET unpaid_units = greatest(0, unpaid_units - $3) ' +
      'WHERE account_id = $1 AND quota_day = $2',
    [accountId, day, units],
  );
}

/**
 * Records units spent beyond the probe: paid ones, or unpaid ones that no check could stop in
 * advance (an upstream fault after the price was known). Unpaid units recorded here may take the
 * account past its allowance, which then refuses its next probe.
 */
export async function recordUnits(
  db: Queryable,
  accountId: string,
  day: string,
  units: number,
  unpaid: number,
): Promise<void> {
  if (units <= 0 && unpaid <= 0) return;
  await db.query(addUnitsSql('VALUES ($1, $2, $3, $4)'), [accountId, day, units, unpaid]);
}

/**
 * A request that failed on the service's own side: `units` not counted yet are counted, and `lost`
 * (every unit of it no credit or allowance pays for) as the service's loss, not against the allowance.
 */
export async function recordLostUnits(
  db: Queryable,
  accountId: string,
  day: string,
  units: number,
  lost: number,
): Promise<void> {
  if (units <= 0 && lost <= 0) return;
  await db.query(
    `INSERT INTO account_quota_days AS q (account_id, quota_day, units, lost_units) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id, quota_day) DO UPDATE
       SET units = q.units + EXCLUDED.units, lost_units = q.lost_units + EXCLUDED.lost_units`,
    [accountId, day, units, lost],
  );
}

/** Units spent on `day` that no account pays for: requests that then failed on the service's own side. */
export async function lostUnitsOn(db: Queryable, day: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'SELECT coalesce(sum(lost_units), 0)::int AS n FROM account_quota_days WHERE quota_day = $1',
    [day],
  );
  return row?.n ?? 0;
}

/**
 * recordUnits' upsert over `rows` (account, day, units, unpaid units): a VALUES list, or a SELECT
 * when another statement records them in the same breath (a paid request's charge, requests/charge-and-record.ts).
 */
export const addUnitsSql = (
  rows: string,
) => `INSERT INTO account_quota_days AS q (account_id, quota_day, units, unpaid_units) ${rows}
     ON CONFLICT (account_id, quota_day) DO UPDATE
       SET units = q.units + EXCLUDED.units, unpaid_units = q.unpaid_units + EXCLUDED.unpaid_units`;

export interface AccountQuotaDay {
  quotaDay: string;
  units: number;
  unpaidUnits: number;
}

export async function accountQuotaDay(db: Queryable, accountId: string, day: string): Promise<AccountQuotaDay> {
  const [row] = await db.query<{ units: number; unpaid_units: number }>(
    'SELECT units, unpaid_units FROM account_quota_days WHERE account_id = $1 AND quota_day = $2',
    [accountId, day],
  );
  return { quotaDay: day, units: row?.units ?? 0, unpaidUnits: row?.unpaid_units ?? 0 };
}
