// A stored result's pages are read by key: the rows a page makes the database read are bounded by the
// page size, not by the result's size (the last page of a long result costs what the first does), and a
// request of another account is not read at all (its id answers as an unknown one does). Measured in
// rows the database's plan reports, not in time: speed is bench/paging-probe.ts's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useHarness } from './helpers/harness.ts';
import { bearer, createUser, STORAGE_MODES } from './helpers/test-app.ts';
import type { Queryable } from '../src/infra/db/database.ts';
import { encodeCursor, purgeExpiredResults, readResultPage } from '../src/domain/requests/stored-results.ts';
import { AppError } from '../src/errors.ts';

const SHORTS = 1200;
const PAGE = 100;

type PlanNode = {
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Join Filter'?: number;
  Plans?: PlanNode[];
};

/** Every row every node of the statement's plan produced or read and filtered out, as EXPLAIN ANALYZE counts them. */
function rowsOf(node: PlanNode): number {
  const produced = node['Actual Rows'] ?? 0;
  const removed = (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Join Filter'] ?? 0);
  const own = (produced + removed) * (node['Actual Loops'] ?? 1);
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsOf(child), 0);
}

for (const mode of STORAGE_MODES)
  describe(`stored result pages (${mode})`, () => {
    const t = useHarness({ mode, env: { CACHE_TTL_SECONDS: '0' } });

    /** Runs one page read and answers the rows its statements made the database produce. */
    async function rowsRead(read: (db: Queryable) => Promise<unknown>): Promise<number> {
      const statements: Array<{ sql: string; params: unknown[] }> = [];
      const spy: Queryable = {
        query: (sql, params = []) => {
          statements.push({ sql, params });
          return t.services.db.query(sql, params);
        },
      };
      await read(spy).catch((error: unknown) => {
        if (!(error instanceof AppError)) throw error;
      });
      let rows = 0;
      for (const { sql, params } of statements) {
        const [plan] = await t.services.db.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
          params,
        );
        rows += rowsOf(plan!['QUERY PLAN'][0]!.Plan);
      }
      return rows;
    }

    it('reads about a page of rows for the first and the last page, and none of another account', async () => {
      const user = await createUser(t, 1000);
      const other = await createUser(t, 10);
      const stored = await t.app.inject({
        method: 'POST',
        url: '/api/youtube/shorts',
        headers: bearer(user.key),
        payload: { channelUrl: `https://www.youtube.com/@fake-${SHORTS}`, store: true },
      });
      assert.equal(stored.statusCode, 200, stored.body);
      const requestId: string = stored.json().requestId;
      // Statistics as autovacuum keeps them (PostgreSQL's, and pglite-autovacuum.ts): a table without any is
      // planned from guesses.
      await t.services.db.query('ANALYZE stored_result_items');
      const page = (accountId: string, cursor?: string) => (db: Queryable) =>
        readResultPage(db, {
          accountId,
          requestId,
          pageSize: PAGE,
          retentionDays: 30,
          now: Date.now(),
          ...(cursor ? { cursor } : {}),
        });

      const first = await rowsRead(page(user.id));
      const last = await rowsRead(page(user.id, encodeCursor(requestId, SHORTS - PAGE)));
      const theirs = await rowsRead(page(other.id));
      const unknown = await rowsRead((db) =>
        readResultPage(db, {
          accountId: other.id,
          requestId: 'req_0',
          pageSize: PAGE,
          retentionDays: 30,
          now: Date.now(),
        }),
      );
      assert.ok(first <= 3 * PAGE, `first page read ${first} rows`);
      assert.ok(last <= 3 * PAGE, `last page read ${last} rows`);
      assert.equal(theirs, unknown, "another account's request reads what an unknown id does");

      // The pages still make up the result, in order.
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await readResultPage(t.services.db, {
          accountId: user.id,
          requestId,
          pageSize: 500,
          retentionDays: 30,
          now: Date.now(),
          ...(cursor ? { cursor } : {}),
        });
        ids.push(...res.data.shorts.map((s) => s.id));
        cursor = res.nextCursor ?? undefined;
      } while (cursor);
      assert.deepEqual(
        ids,
        stored.json().data.shorts.map((s: { id: string }) => s.id),
      );
    });

    it('drops the pages with the result when its retention ends', async () => {
      const user = await createUser(t, 100);
      const stored = await t.app.inject({
        method: 'POST',
        url: '/api/youtube/shorts',
        headers: bearer(user.key),
        payload: { channelUrl: 'https://www.youtube.com/@fake-120', store: true },
      });
      const requestId: string = stored.json().requestId;
      const count = async () =>
        (
          await t.services.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM stored_result_items WHERE request_id = $1',
            [requestId],
          )
        )[0]!.n;
      assert.equal(await count(), 120);
      await purgeExpiredResults(t.services.db, 1, Date.now() + 2 * 86_400_000);
      assert.equal(await count(), 0);
    });
  });
