// The ledger with channel and request (cursor pages, CSV), the balance over time, and
// the low-balance alert (credits.low once per crossing, exact under concurrent charges).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { STORAGE_MODES, createUser, bearer, skipWithout } from './helpers/test-app.ts';
import { harness, useHarness } from './helpers/harness.ts';
import { chargeCredits, grantCredits } from '../src/domain/credits/ledger.ts';
import { chargeAndRecord, createSettlementBatcher, type Settlement } from '../src/domain/requests/charge-and-record.ts';
import { adjustCredits } from '../src/domain/operators/users.ts';
import { purgeExpiredResults } from '../src/domain/requests/stored-results.ts';
import { csvCell, csvRow } from '../src/http/csv.ts';
import { dispatchPendingEvents } from '../src/domain/webhooks/events.ts';
import { startReceiver } from '../support/webhook-receiver.ts';
import { Webhook } from 'standardwebhooks';

let serial = 0;
function settlement(
  accountId: string,
  credits: number,
  channel = { url: 'https://www.youtube.com/@fake-1', title: 'Fake One' },
): Settlement {
  const id = `req_stmt${process.pid}x${++serial}`;
  return {
    request: {
      id,
      accountId,
      apiKeyId: null,
      channelUrl: channel.url,
      oldestDate: null,
      limit: null,
      webhookUrl: null,
    },
    credits,
    outcome: {
      status: 'completed',
      httpStatus: 200,
      itemCount: credits * 50,
      creditsCharged: credits,
      errorCode: null,
      result: { channel: { id: 'UCx', title: channel.title }, itemCount: credits * 50 },
      quotaUnits: 0,
    },
  };
}

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF), to read back what the export wrote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe('CSV cells', () => {
  it('quotes separators, quotes and line breaks; guards formulas in text but not numbers', () => {
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('two\nlines'), '"two\nlines"');
    assert.equal(csvCell('=SUM(A1:A9)'), "'=SUM(A1:A9)");
    assert.equal(csvCell('+1'), "'+1");
    assert.equal(csvCell('-2+3'), "'-2+3");
    assert.equal(csvCell('@cmd'), "'@cmd");
    assert.equal(csvCell('\tx'), "'\tx");
    assert.equal(csvCell(' padded '), '" padded "', 'surrounding spaces kept as written');
    assert.equal(csvCell('=HYPERLINK("http://x","y")'), '"\'=HYPERLINK(""http://x"",""y"")"');
    assert.equal(csvCell(-3), '-3', 'numbers stay numbers');
    assert.equal(csvCell(null), '');
    assert.equal(csvRow(['a', 1, null]), 'a,1,\r\n');
  });
});

for (const mode of STORAGE_MODES) {
  describe(`credit statement and alerts (${mode})`, { skip: skipWithout(mode) }, () => {
    const t = useHarness({ mode, fake: false, now: () => clock });
    let clock = Date.now();
    const balanceOf = async (id: string) =>
      (
        await t.services.db.query<{ credit_balance: number }>('SELECT credit_balance FROM accounts WHERE id = $1', [id])
      )[0]!.credit_balance;
    const eventsOf = async (id: string) =>
      (
        await t.services.db.query<{
          payload: {
            type: string;
            timestamp: string;
            data: { balance: number; threshold: number; requestId: string | null };
          };
        }>('SELECT payload FROM credit_events WHERE account_id = $1 ORDER BY id', [id])
      ).map((r) => r.payload);

    it('pages the ledger by cursor, newest first, each charge with its request and channel', async () => {
      const user = await createUser(t, 100);
      const charged: Settlement[] = [];
      for (let i = 0; i < 5; i++) {
        const s = settlement(user.id, 1 + i, { url: `https://www.youtube.com/@chan${i}`, title: `Channel ${i}` });
        await chargeAndRecord(t.services.db, s);
        charged.push(s);
      }
      const seen: Array<{
        id: number;
        kind: string;
        amount: number;
        requestId: string | null;
        channelUrl: string | null;
        channelTitle: string | null;
      }> = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const url: string = `/accounts/ledger?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
        const res = await t.app.inject({ method: 'GET', url, headers: bearer(user.key) });
        assert.equal(res.statusCode, 200, res.body);
        const page: { entries: typeof seen; nextCursor: string | null } = res.json();
        assert.ok(page.entries.length <= 2);
        seen.push(...page.entries);
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      assert.equal(pages, 3, '6 entries in pages of 2');
      assert.deepEqual(
        seen.map((e) => e.id),
        [...seen.map((e) => e.id)].sort((a, b) => b - a),
        'newest first, no repeats',
      );
      assert.equal(new Set(seen.map((e) => e.id)).size, 6);
      assert.equal(seen[5]!.kind, 'grant');
      assert.equal(seen[5]!.requestId, null);
      const newest = charged[4]!;
      assert.deepEqual(
        {
          kind: seen[0]!.kind,
          amount: seen[0]!.amount,
          requestId: seen[0]!.requestId,
          channelUrl: seen[0]!.channelUrl,
          channelTitle: seen[0]!.channelTitle,
        },
        {
          kind: 'charge',
          amount: -5,
          requestId: newest.request.id,
          channelUrl: 'https://www.youtube.com/@chan4',
          channelTitle: 'Channel 4',
        },
      );
      for (const bad of ['abc', '0', '-1', '1e5', '99999999999999999999']) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/accounts/ledger?cursor=${encodeURIComponent(bad)}`,
          headers: bearer(user.key),
        });
        assert.equal(res.statusCode, 400, `cursor ${bad}: ${res.body}`);
        assert.equal(res.json().error, 'VALIDATION_FAILED');
        assert.match(res.json().message, /cursor/);
      }
    });

    it("names a watch check's channel, keeps a purged result's channel title, and counts watch checks in the usage figures", async () => {
      const user = await createUser(t, 100);
      const db = t.services.db;
      // A watch and one of its checks, charged 2 credits under the check's id.
      const watchId = `wch_stmt${user.id.slice(0, 8)}`;
      const checkId = `wck_stmt${user.id.slice(0, 8)}`;
      await db.query(
        `INSERT INTO watches (id, account_id, channel_url, channel_id, channel_title, webhook_url, interval_seconds, status, next_check_at)
         VALUES ($1, $2, 'https://www.youtube.com/@watched', 'UCwatched000000000000000', 'Watched Channel', 'http://127.0.0.1:9/hook', 900, 'active', now() + interval '1 hour')`,
        [watchId, user.id],
      );
      await db.query(
        `INSERT INTO watch_checks (id, watch_id, account_id, trigger, units, new_shorts, credits_charged, outcome, channel_url, channel_title) VALUES ($1, $2, $3, 'schedule', 1, 3, 2, 'ok', 'https://www.youtube.com/@watched', 'Watched Channel')`,
        [checkId, watchId, user.id],
      );
      await db.transaction((tx) => chargeCredits(tx, user.id, 2, checkId));
      // The watch is deleted afterwards; its check and the check's charge stay.
      await db.query('DELETE FROM watches WHERE id = $1', [watchId]);
      // A request whose whole result was stored, past its retention.
      const kept = settlement(user.id, 1);
      kept.outcome.result = { data: { channel: { id: 'UCkept', snippet: { title: 'Kept Title' } } } };
      await chargeAndRecord(db, kept);
      // Past its retention (and only this test's request: others in this app keep theirs).
      await db.query(`UPDATE shorts_requests SET completed_at = now() - interval '3 days' WHERE id = $1`, [
        kept.request.id,
      ]);
      assert.equal(await purgeExpiredResults(db, 1, Date.now()), 1);

      const entries = (await t.app.inject({ method: 'GET', url: '/accounts/ledger', headers: bearer(user.key) })).json()
        .entries as Array<{ requestId: string | null; channelUrl: string | null; channelTitle: string | null }>;
      const channelOf = (id: string) => {
        const e = entries.find((x) => x.requestId === id)!;
        return [e.channelUrl, e.channelTitle];
      };
      assert.deepEqual(channelOf(checkId), ['https://www.youtube.com/@watched', 'Watched Channel']);
      assert.deepEqual(channelOf(kept.request.id), ['https://www.youtube.com/@fake-1', 'Kept Title']);

      const account = (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json();
      assert.deepEqual(
        [account.usage.totalRequests, account.usage.totalCreditsCharged],
        [1, 3],
        'the ledger charged 3',
      );
      const [today] = (
        await t.app.inject({ method: 'GET', url: '/accounts/usage?days=1', headers: bearer(user.key) })
      ).json().days as Array<{ requests: number; items: number; credits: number }>;
      assert.deepEqual([today!.requests, today!.items, today!.credits], [1, 50, 3]);
    });

    it('exports the ledger as CSV with a header, correct escaping and the formula guard', async () => {
      const user = await createUser(t, 50);
      await chargeAndRecord(
        t.services.db,
        settlement(user.id, 2, {
          url: 'https://www.youtube.com/@evil',
          title: '=HYPERLINK("http://evil.example","click"), "quoted"\nline',
        }),
      );
      await t.services.db.transaction((tx) => grantCredits(tx, user.id, 7, '+bonus, for "testing"'));
      const res = await t.app.inject({ method: 'GET', url: '/accounts/ledger.csv', headers: bearer(user.key) });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
      assert.match(
        String(res.headers['content-disposition']),
        /^attachment; filename="ledger-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      assert.equal(res.headers['cache-control'], 'no-store');
      const rows = parseCsv(res.body);
      assert.deepEqual(rows[0], [
        'id',
        'createdAt',
        'kind',
        'amount',
        'balanceAfter',
        'requestId',
        'channelUrl',
        'channelTitle',
        'note',
      ]);
      assert.equal(rows.length, 4, 'header + grant + charge + initial grant');
      assert.deepEqual(rows[1]!.slice(2, 5), ['grant', '7', '55']);
      assert.equal(rows[1]![8], '\'+bonus, for "testing"');
      assert.deepEqual(rows[2]!.slice(2, 5), ['charge', '-2', '48'], 'amounts are plain numbers');
      assert.equal(
        rows[2]![7],
        '\'=HYPERLINK("http://evil.example","click"), "quoted"\nline',
        'the title survives, defused',
      );
      assert.equal(rows[3]![2], 'grant');
      const other = await createUser(t, 5);
      assert.ok(
        !(await t.app.inject({ method: 'GET', url: '/accounts/ledger.csv', headers: bearer(other.key) })).body.includes(
          'evil',
        ),
        "only the caller's own ledger",
      );
    });

    it('gives the balance at the end of every day from the ledger, carried over quiet days', async (ctx) => {
      const user = await createUser(t, 40);
      const { db } = t.services;
      const ids = await db.query<{ id: string }>('SELECT id FROM credit_ledger WHERE account_id = $1', [user.id]);
      const day = (n: number) => new Date(Date.UTC(2026, 0, 10 + n, 12));
      await db.query('UPDATE credit_ledger SET created_at = $2 WHERE id = $1', [ids[0]!.id, day(-40)]);
      // Charges on days 2 and 5 of the window, a grant on day 5.
      for (const [n, credits] of [
        [2, 5],
        [2, 3],
        [5, 10],
      ] as const) {
        const s = settlement(user.id, credits);
        await chargeAndRecord(db, s);
        await db.query('UPDATE credit_ledger SET created_at = $2 WHERE request_id = $1', [s.request.id, day(n)]);
      }
      await db.transaction((tx) => grantCredits(tx, user.id, 100, 'top-up'));
      await db.query('UPDATE credit_ledger SET created_at = $2 WHERE account_id = $1 AND note = $3', [
        user.id,
        day(5),
        'top-up',
      ]);
      clock = day(6).getTime();
      ctx.after(async () => {
        clock = Date.now();
      });
      const res = await t.app.inject({
        method: 'GET',
        url: '/accounts/balance-history?days=7',
        headers: bearer(user.key),
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().days, [
        { date: '2026-01-10', balance: 40, added: 0, spent: 0 },
        { date: '2026-01-11', balance: 40, added: 0, spent: 0 },
        { date: '2026-01-12', balance: 32, added: 0, spent: 8 },
        { date: '2026-01-13', balance: 32, added: 0, spent: 0 },
        { date: '2026-01-14', balance: 32, added: 0, spent: 0 },
        { date: '2026-01-15', balance: 122, added: 100, spent: 10 },
        { date: '2026-01-16', balance: 122, added: 0, spent: 0 },
      ]);
      // Within a day, every change: two charges on day 2, a charge and the grant on day 5.
      assert.equal(res.json().openingBalance, 40);
      assert.deepEqual(res.json().steps, [
        { at: day(2).toISOString(), balance: 35 },
        { at: day(2).toISOString(), balance: 32 },
        { at: day(5).toISOString(), balance: 22 },
        { at: day(5).toISOString(), balance: 122 },
      ]);
      const empty = await createUser(t, 0);
      assert.deepEqual(
        (await t.app.inject({ method: 'GET', url: '/accounts/balance-history?days=2', headers: bearer(empty.key) }))
          .json()
          .days.map((d: { balance: number }) => d.balance),
        [0, 0],
      );
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/accounts/balance-history?days=0', headers: bearer(user.key) }))
          .statusCode,
        400,
      );
    });

    it('sets the threshold and the events URL (session only), shows them in GET /accounts, refuses bad values', async () => {
      const user = await createUser(t, 30);
      const initial = (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json();
      assert.deepEqual(initial.alerts, {
        lowBalanceThreshold: null,
        eventsWebhookUrl: null,
        low: false,
        webhookPayload: 'full',
      });
      const set = await t.app.inject({
        method: 'PUT',
        url: '/accounts/alerts',
        headers: bearer(user.token),
        payload: { lowBalanceThreshold: 50, eventsWebhookUrl: 'https://hooks.example.com/account' },
      });
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(set.json(), {
        lowBalanceThreshold: 50,
        eventsWebhookUrl: 'https://hooks.example.com/account',
        low: true,
        webhookPayload: 'full',
      });
      assert.deepEqual(
        (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json().alerts,
        set.json(),
        'GET /accounts shows it at once',
      );
      const onlyUrl = await t.app.inject({
        method: 'PUT',
        url: '/accounts/alerts',
        headers: bearer(user.token),
        payload: { eventsWebhookUrl: null },
      });
      assert.deepEqual(
        onlyUrl.json(),
        { lowBalanceThreshold: 50, eventsWebhookUrl: null, low: true, webhookPayload: 'full' },
        'an omitted field is unchanged',
      );
      const byKey = await t.app.inject({
        method: 'PUT',
        url: '/accounts/alerts',
        headers: bearer(user.key),
        payload: { lowBalanceThreshold: 1 },
      });
      assert.equal(byKey.statusCode, 403, 'an API key may not change where account events go');
      for (const [payload, code, pattern] of [
        [{ lowBalanceThreshold: 0 }, 'VALIDATION_FAILED', /lowBalanceThreshold/],
        [{ lowBalanceThreshold: 2.5 }, 'VALIDATION_FAILED', /lowBalanceThreshold/],
        [{ eventsWebhookUrl: 'not a url' }, 'VALIDATION_FAILED', /eventsWebhookUrl/],
        [{ eventsWebhookUrl: 'ftp://example.com/x' }, 'UNSAFE_WEBHOOK_URL', /eventsWebhookUrl must use http or https/],
        [
          { eventsWebhookUrl: 'https://user:pw@example.com/x' },
          'UNSAFE_WEBHOOK_URL',
          /eventsWebhookUrl must not carry credentials/,
        ],
        [{ colour: 'red' }, 'VALIDATION_FAILED', /colour|additional/i],
      ] as const) {
        const res = await t.app.inject({
          method: 'PUT',
          url: '/accounts/alerts',
          headers: bearer(user.token),
          payload,
        });
        assert.equal(res.statusCode, 400, `${JSON.stringify(payload)}: ${res.body}`);
        assert.equal(res.json().error, code, res.body);
        assert.match(res.json().message, pattern);
      }
    });

    it('refuses private events URLs unless private targets are allowed', async (ctx) => {
      const strict = await harness(ctx, { mode, fake: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
      const user = await createUser(strict, 1);
      const res = await strict.app.inject({
        method: 'PUT',
        url: '/accounts/alerts',
        headers: bearer(user.token),
        payload: { eventsWebhookUrl: 'http://127.0.0.1:8080/hook' },
      });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error, 'UNSAFE_WEBHOOK_URL');
      assert.match(res.json().message, /^eventsWebhookUrl points to a private or reserved address/);
    });

    it('records credits.low once per crossing, re-armed when a grant lifts the balance back up', async () => {
      const user = await createUser(t, 20);
      await t.app.inject({
        method: 'PUT',
        url: '/accounts/alerts',
        headers: bearer(user.token),
        payload: { lowBalanceThreshold: 10 },
      });
      const { db } = t.services;
      const first = settlement(user.id, 5);
      await chargeAndRecord(db, first); // 15: above
      assert.deepEqual(await eventsOf(user.id), []);
      const crossing = settlement(user.id, 6);
      await chargeAndRecord(db, crossing); // 9: crossed
      await db.transaction((tx) => chargeCredits(tx, user.id, 2, `req_below_${user.id}`)); // 7: still below, no second event
      assert.deepEqual(await eventsOf(user.id), [
        {
          type: 'credits.low',
          timestamp: (await eventsOf(user.id))[0]!.timestamp,
          data: { accountId: user.id, balance: 9, threshold: 10, requestId: crossing.request.id },
        },
      ]);
      assert.ok(!Number.isNaN(Date.parse((await eventsOf(user.id))[0]!.timestamp)));
      await db.transaction((tx) => grantCredits(tx, user.id, 2, 'not enough to re-arm')); // 9
      await chargeAndRecord(db, settlement(user.id, 1)); // 8
      assert.equal((await eventsOf(user.id)).length, 1, 'a grant that stays below the threshold does not re-arm');
      await db.transaction((tx) => grantCredits(tx, user.id, 2, 're-arm')); // 10 = threshold: re-armed
      await adjustCredits(db, { label: 'test operator', accountId: null }, user.email, {
        direction: 'deduct',
        amount: 1,
        reason: 'operator deduction crosses too',
      }); // 9
      const events = await eventsOf(user.id);
      assert.equal(events.length, 2);
      assert.deepEqual(events[1]!.data, { accountId: user.id, balance: 9, threshold: 10, requestId: null });
      const listed = await t.app.inject({ method: 'GET', url: '/accounts/events', headers: bearer(user.key) });
      assert.equal(listed.statusCode, 200, listed.body);
      assert.deepEqual(
        listed.json().events.map((e: { payload: unknown }) => e.payload),
        [...events].reverse(),
      );
      const banner = (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json().alerts;
      assert.equal(banner.low, true);
    });

    it('setting a threshold above the balance is not a crossing; turning it off stops events', async () => {
      const user = await createUser(t, 5);
      await t.app.inject({
        method: 'PUT',
        url: '/accounts/alerts',
        headers: bearer(user.token),
        payload: { lowBalanceThreshold: 10 },
      });
      await chargeAndRecord(t.services.db, settlement(user.id, 1));
      assert.deepEqual(await eventsOf(user.id), [], 'already below when set: waits for the balance to come back up');
      await t.app.inject({
        method: 'PUT',
        url: '/accounts/alerts',
        headers: bearer(user.token),
        payload: { lowBalanceThreshold: null },
      });
      await t.services.db.transaction((tx) => grantCredits(tx, user.id, 50, 'up'));
      await chargeAndRecord(t.services.db, settlement(user.id, 50));
      assert.deepEqual(await eventsOf(user.id), []);
    });

    it('exactly one credits.low under concurrent charges: transactions, group commits and two racing batchers', async () => {
      for (let round = 0; round < 3; round++) {
        const user = await createUser(t, 60);
        await t.app.inject({
          method: 'PUT',
          url: '/accounts/alerts',
          headers: bearer(user.token),
          payload: { lowBalanceThreshold: 30 },
        });
        const first = createSettlementBatcher(t.services.db, { maxBatch: 4 });
        const second = createSettlementBatcher(t.services.db, { maxBatch: 7 });
        const work = Array.from({ length: 48 }, (_, i) => {
          if (i % 3 === 0)
            return t.services.db
              .transaction((tx) => chargeCredits(tx, user.id, 1, `req_conc_${round}_${user.id}_${i}`))
              .catch(() => 'refused');
          return (i % 3 === 1 ? first : second).settle(settlement(user.id, 1)).catch(() => 'refused');
        });
        await Promise.all(work);
        assert.equal(await balanceOf(user.id), 12, 'every charge went through');
        const events = await eventsOf(user.id);
        assert.equal(events.length, 1, `round ${round}: ${JSON.stringify(events)}`);
        assert.equal(events[0]!.data.threshold, 30);
        assert.ok(
          events[0]!.data.balance < 30 && events[0]!.data.balance >= 12,
          `the balance when claimed: ${events[0]!.data.balance}`,
        );
      }
    });
  });
}

describe('credits.low delivery (outbox)', () => {
  const t = useHarness({
    fake: false,
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WATCH_SWEEP_SECONDS: '0.1' },
    runWorker: true,
  });
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    receiver = await startReceiver();
    // A worker process: its sweep queues the delivery of events the charges wrote to the outbox.
  });
  after(async () => {
    await receiver.close();
  });

  it("delivers credits.low once, signed like every webhook, to the account's events URL; accounts without one get no delivery", async () => {
    const user = await createUser(t, 30);
    const silent = await createUser(t, 30);
    const put = await t.app.inject({
      method: 'PUT',
      url: '/accounts/alerts',
      headers: bearer(user.token),
      payload: { lowBalanceThreshold: 10, eventsWebhookUrl: receiver.url('/account-events') },
    });
    assert.equal(put.statusCode, 200, put.body);
    await t.app.inject({
      method: 'PUT',
      url: '/accounts/alerts',
      headers: bearer(silent.token),
      payload: { lowBalanceThreshold: 10 },
    });
    // Twenty-five concurrent charges take 30 to 5, across the threshold; one event is recorded and delivered.
    await Promise.all(Array.from({ length: 25 }, () => chargeAndRecord(t.services.db, settlement(user.id, 1))));
    await chargeAndRecord(t.services.db, settlement(silent.id, 25));
    await receiver.waitFor(1);
    const [delivery] = receiver.deliveries;
    assert.equal(delivery!.path, '/account-events');
    const secret = (
      await t.app.inject({ method: 'GET', url: '/accounts/webhook-secret', headers: bearer(user.token) })
    ).json().secrets[0].secret as string;
    const payload = new Webhook(secret.replace(/^whsec_/, '')).verify(
      delivery!.body,
      delivery!.headers as Record<string, string>,
    ) as { type: string; data: { accountId: string; threshold: number; balance: number } };
    assert.equal(payload.type, 'credits.low');
    assert.equal(payload.data.accountId, user.id);
    assert.equal(payload.data.threshold, 10);
    assert.ok(payload.data.balance < 10);
    const [history] = (await t.app.inject({ method: 'GET', url: '/accounts/events', headers: bearer(user.key) })).json()
      .events as Array<{ payload: unknown }>;
    assert.deepEqual(payload, history!.payload, "the delivered body is the event in the account's history");
    // Every event in the outbox has been dispatched, once: the silent account wrote none.
    const outbox = await t.services.db.query<{ account_id: string; dispatched: boolean }>(
      'SELECT account_id, dispatched_at IS NOT NULL AS dispatched FROM webhook_events WHERE type = $1',
      ['credits.low'],
    );
    assert.deepEqual(outbox, [{ account_id: user.id, dispatched: true }]);
    const attempts = await t.services.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE e.account_id = $1',
      [user.id],
    );
    assert.equal(attempts[0]!.n, 1);
    assert.equal(receiver.deliveries.length, 1);
  });

  it('queues each pending event exactly once when sweeps race', async (ctx) => {
    // No worker here: nothing but the three racing dispatchers queues the event.
    const quiet = await harness(ctx, { fake: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    const user = await createUser(quiet, 15);
    await quiet.app.inject({
      method: 'PUT',
      url: '/accounts/alerts',
      headers: bearer(user.token),
      payload: { lowBalanceThreshold: 10, eventsWebhookUrl: receiver.url('/race') },
    });
    await quiet.services.db.transaction((tx) => chargeCredits(tx, user.id, 6, `req_race_${user.id}`)); // 9: crossed
    const queued: string[] = [];
    const enqueue = async (_tx: unknown, id: string) => {
      queued.push(id);
    };
    const counts = await Promise.all([1, 2, 3].map(() => dispatchPendingEvents(quiet.services.db, enqueue)));
    const ids = (
      await quiet.services.db.query<{ id: string }>(
        'SELECT id FROM webhook_events WHERE account_id = $1 AND dispatched_at IS NOT NULL',
        [user.id],
      )
    ).map((r) => r.id);
    assert.equal(ids.length, 1);
    assert.deepEqual(queued, ids);
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      1,
    );
    assert.equal(await dispatchPendingEvents(quiet.services.db, enqueue), 0, 'nothing left to queue');
  });
});
