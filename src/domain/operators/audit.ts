// The audit log of operator actions: who, what, on whom, when, and the state before and after.
// Written inside the transaction of the action, so an action that fails leaves no entry either.
import type { Queryable } from '../../infra/db/database.ts';
import type { AuditEntry } from '../../contract/operator.ts';

/** Who acts: an operator's dashboard session, the OPERATOR_TOKEN, or the CLI on the database directly. */
export interface Actor {
  /** e.g. "ops@example.com", "operator token", "cli root@host". */
  label: string;
  accountId: string | null;
}

export type { AuditEntry };

export async function writeAudit(
  tx: Queryable,
  actor: Actor,
  entry: {
    action: string;
    targetAccountId?: string | null;
    target?: string | null;
    reason?: string | null;
    before?: unknown;
    after?: unknown;
  },
): Promise<void> {
  await tx.query(
    'INSERT INTO operator_audit_log (actor, actor_account_id, action, target_account_id, target, reason, ' +
      'before, after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
    [
      actor.label,
      actor.accountId,
      entry.action,
      entry.targetAccountId ?? null,
      entry.target ?? null,
      entry.reason ?? null,
      entry.before === undefined ? null : JSON.stringify(entry.before),
      entry.after === undefined ? null : JSON.stringify(entry.after),
    ],
  );
}

export async function listAudit(
  db: Queryable,
  filter: { accountId?: string; limit: number; beforeId?: number },
): Promise<AuditEntry[]> {
  const rows = await db.query<{
    id: number | string;
    actor: string;
    actor_account_id: string | null;
    action: string;
    target_account_id: string | null;
    target: string | null;
    reason: string | null;
    before: unknown;
    after: unknown;
    created_at: Date;
  }>(
    `SELECT * FROM operator_audit_log
     WHERE ($1::uuid IS NULL OR target_account_id = $1 OR actor_account_id = $1) AND ($2::bigint IS NULL OR id < $2)
     ORDER BY id DESC LIMIT $3`,
    [filter.accountId ?? null, filter.beforeId ?? null, filter.limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    actor: r.actor,
    actorAccountId: r.actor_account_id,
    action: r.action,
    targetAccountId: r.target_account_id,
    target: r.target,
    reason: r.reason,
    before: r.before,
    after: r.after,
    createdAt: r.created_at.toISOString(),
  }));
}
