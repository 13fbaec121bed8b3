// The operator API on both storage modes: who may use it, every action with its audit entry, and
// failed actions that change nothing. Also invitations and open sign-up.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  createUser,
  bearer,
  uniqueEmail,
  PASSWORD,
  STORAGE_MODES,
  type TestUser,
  skipWithout,
} from './helpers/test-app.ts';
import { harness, useHarness } from './helpers/harness.ts';
import { createAccount } from '../src/domain/accounts/accounts.ts';
import { acceptInvitation, createInvitation } from '../src/domain/operators/invitations.ts';
import { setUserLimits } from '../src/domain/operators/users.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/infra/db/open-database.ts';
import { directClient, listenUrl } from '../src/cli/operator-client.ts';
import { defaultRateLimits } from '../src/domain/limits/windows.ts';

const OPERATOR_TOKEN = 'op-token-0123456789abcdef0123456789abcdef';

function assertErrorBody(
  res: { statusCode: number; json(): unknown; headers: Record<string, unknown> },
  status: number,
  code: string,
) {
  assert.equal(res.statusCode, status, JSON.stringify(res.json()));
  const body = res.json() as { error: string; message: string; requestId: string };
  assert.equal(body.error, code);
  assert.ok(body.message.length > 10, body.message);
  assert.equal(body.requestId, res.headers['x-request-id']);
  return body;
}

for (const mode of STORAGE_MODES) {
  describe(`operator API (${mode})`, { skip: skipWithout(mode) }, () => {
    const t = useHarness({ mode, fake: false, env: { OPERATOR_TOKEN, SIGNUP: 'invite' } });
    let operator: TestUser;
    let customer: TestUser;
    before(async () => {
      operator = await createUser(t, 0);
      await t.services.db.query("UPDATE accounts SET role = 'operator' WHERE id = $1", [operator.id]);
      customer = await createUser(t, 10);
    });

    const counts = async (accountId: string) => {
      const [row] = await t.services.db.query<{ balance: number; ledger: number; audit: number }>(
        `SELECT (SELECT credit_balance FROM accounts WHERE id = $1) AS balance, (SELECT count(*)::int FROM credit_ledger WHERE account_id = $1) AS ledger,
                (SELECT count(*)::int FROM operator_audit_log) AS audit`,
        [accountId],
      );
      return row!;
    };

    it('refuses everyone but an operator session or the operator token', async () => {
      assertErrorBody(await t.app.inject({ method: 'GET', url: '/operator/users' }), 401, 'UNAUTHORIZED');
      assertErrorBody(
        await t.app.inject({ method: 'GET', url: '/operator/users', headers: bearer('x'.repeat(40)) }),
        401,
        'UNAUTHORIZED',
      );
      const mistyped = assertErrorBody(
        await t.app.inject({ method: 'GET', url: '/operator/users', headers: bearer(OPERATOR_TOKEN + 'x') }),
        401,
        'UNAUTHORIZED',
      );
      assert.match(mistyped.message, /not the service's OPERATOR_TOKEN/);
      const forCustomer = assertErrorBody(
        await t.app.inject({ method: 'GET', url: '/operator/users', headers: bearer(customer.token) }),
        403,
        'FORBIDDEN',
      );
      assert.match(forCustomer.message, /operators/i);
      assertErrorBody(
        await t.app.inject({ method: 'GET', url: '/operator/users', headers: bearer(customer.key) }),
        403,
        'FORBIDDEN',
      );
      const operatorKey = assertErrorBody(
        await t.app.inject({ method: 'GET', url: '/operator/users', headers: bearer(operator.key) }),
        403,
        'FORBIDDEN',
      );
      assert.match(operatorKey.message, /API keys are never accepted/);
      const bySession = await t.app.inject({ method: 'GET', url: '/operator/me', headers: bearer(operator.token) });
      assert.deepEqual(bySession.json(), { actor: operator.email, accountId: operator.id, via: 'session' });
      const byToken = await t.app.inject({ method: 'GET', url: '/operator/me', headers: bearer(OPERATOR_TOKEN) });
      assert.equal(byToken.json().via, 'token');
      // A demoted operator loses access at once (the role is read on every call).
      const demoted = await createUser(t, 0);
      await t.services.db.query("UPDATE accounts SET role = 'operator' WHERE id = $1", [demoted.id]);
      assert.equal(
        (await t.app.inject({ method: 'GET', url: '/operator/me', headers: bearer(demoted.token) })).statusCode,
        200,
      );
      await t.app.inject({
        method: 'POST',
        url: `/operator/users/${demoted.id}/role`,
        headers: bearer(operator.token),
        payload: { role: 'customer' },
      });
      assertErrorBody(
        await t.app.inject({ method: 'GET', url: '/operator/me', headers: bearer(demoted.token) }),
        403,
        'FORBIDDEN',
      );
    });

    it('creates, searches, disables and enables users, each with an audit entry', async () => {
      const email = uniqueEmail('created');
      const created = await t.app.inject({
        method: 'POST',
        url: '/operator/users',
        headers: bearer(operator.token),
        payload: { email, password: PASSWORD, credits: 12 },
      });
      assert.equal(created.statusCode, 201, created.body);
      const user = created.json();
      assert.equal(user.credits, 12);
      assert.equal(user.role, 'customer');
      assertErrorBody(
        await t.app.inject({
          method: 'POST',
          url: '/operator/users',
          headers: bearer(operator.token),
          payload: { email, password: PASSWORD },
        }),
        409,
        'CONFLICT',
      );
      assertErrorBody(
        await t.app.inject({
          method: 'POST',
          url: '/operator/users',
          headers: bearer(operator.token),
          payload: { email: uniqueEmail(), password: 'short' },
        }),
        400,
        'WEAK_PASSWORD',
      );
      assertErrorBody(
        await t.app.inject({
          method: 'POST',
          url: '/operator/users',
          headers: bearer(operator.token),
          payload: { email: 'not-an-email', password: PASSWORD },
        }),
        400,
        'VALIDATION_FAILED',
      );

      const search = await t.app.inject({
        method: 'GET',
        url: `/operator/users?search=${encodeURIComponent(email.slice(0, 20).toUpperCase())}`,
        headers: bearer(OPERATOR_TOKEN),
      });
      assert.deepEqual(
        search.json().users.map((u: { id: string }) => u.id),
        [user.id],
      );
      assert.equal(search.json().total, 1);
      const wildcard = await t.app.inject({
        method: 'GET',
        url: '/operator/users?search=%25',
        headers: bearer(OPERATOR_TOKEN),
      });
      assert.equal(wildcard.json().total, 0, 'a % in the search is a literal character');

      const disabled = await t.app.inject({
        method: 'POST',
        url: `/operator/users/${user.id}/disable`,
        headers: bearer(operator.token),
        payload: { reason: 'abuse report #7' },
      });
      assert.ok(disabled.json().disabledAt);
      const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: PASSWORD } });
      assertErrorBody(login, 403, 'FORBIDDEN');
      const enabled = await t.app.inject({
        method: 'POST',
        url: `/operator/users/${user.id}/enable`,
        headers: bearer(operator.token),
      });
      assert.equal(enabled.json().disabledAt, null, enabled.body);
      assert.equal(
        (await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: PASSWORD } })).statusCode,
        200,
      );
      assertErrorBody(
        await t.app.inject({
          method: 'POST',
          url: `/operator/users/${operator.id}/disable`,
          headers: bearer(operator.token),
        }),
        409,
        'CONFLICT',
      );

      const audit = (
        await t.app.inject({ method: 'GET', url: `/operator/audit?userId=${user.id}`, headers: bearer(operator.token) })
      ).json().entries;
      assert.deepEqual(
        audit.map((e: { action: string }) => e.action),
        ['user.enable', 'user.disable', 'user.create'],
      );
      const disable = audit[1];
      assert.equal(disable.actor, operator.email);
      assert.equal(disable.actorAccountId, operator.id);
      assert.equal(disable.reason, 'abuse report #7');
      assert.equal(disable.before.disabled, false);
      assert.equal(disable.after.disabled, true);
      assert.ok(Date.parse(disable.createdAt) > 0);
      assert.equal(audit[2].actor, operator.email);
      assert.equal(audit[2].before, null);
    });

    it('grants and deducts credits with a reason; a deduction below 0 is refused and changes nothing', async () => {
      const target = await createUser(t, 10);
      const grant = await t.app.inject({
        method: 'POST',
        url: `/operator/users/${target.id}/credits`,
        headers: bearer(OPERATOR_TOKEN),
        payload: { direction: 'grant', amount: 5, reason: 'goodwill' },
      });
      assert.equal(grant.json().credits, 15);
      const deduct = await t.app.inject({
        method: 'POST',
        url: `/operator/users/${target.email}/credits`,
        headers: bearer(operator.token),
        payload: { direction: 'deduct', amount: 4, reason: 'refund reversed' },
      });
      assert.equal(deduct.statusCode, 200, deduct.body);
      assert.equal(deduct.json().credits, 11);

      const before = await counts(target.id);
      const refused = assertErrorBody(
        await t.app.inject({
          method: 'POST',
          url: `/operator/users/${target.id}/credits`,
          headers: bearer(operator.token),
          payload: { direction: 'deduct', amount: 12, reason: 'too much' },
        }),
        409,
        'CONFLICT',
      );
      assert.match(refused.message, /balance is 11/);
      for (const payload of [
        { direction: 'grant', amount: 0, reason: 'x' },
        { direction: 'grant', amount: 1.5, reason: 'x' },
        { direction: 'grant', amount: 5, reason: '' },
        { direction: 'grant', amount: 5 },
        { direction: 'steal', amount: 5, reason: 'x' },
        { direction: 'grant', amount: '5', reason: 'x' },
      ]) {
        assertErrorBody(
          await t.app.inject({
            method: 'POST',
            url: `/operator/users/${target.id}/credits`,
            headers: bearer(operator.token),
            payload,
          }),
          400,
          'VALIDATION_FAILED',
        );
      }
      assertErrorBody(
        await t.app.inject({
          method: 'POST',
          url: '/operator/users/00000000-0000-4000-8000-000000000000/credits',
          headers: bearer(operator.token),
          payload: { direction: 'grant', amount: 1, reason: 'x' },
        }),
        404,
        'NOT_FOUND',
      );
      // Past the most a balance holds (2^31 - 1): a clear 400, not a 500.
      await t.services.db.query('UPDATE accounts SET credit_balance = 2000000000 WHERE id = $1', [target.id]);
      const tooMuch = assertErrorBody(
        await t.app.inject({
          method: 'POST',
          url: `/operator/users/${target.id}/credits`,
          headers: bearer(operator.token),
          payload: { direction: 'grant', amount: 1_000_000_000, reason: 'x' },
        }),
        400,
        'VALIDATION_FAILED',
      );
      assert.match(tooMuch.message, /past 2,147,483,647 credits/);
      assertErrorBody(
        await t.app.inject({
          method: 'POST',
          url: '/operator/users',
          headers: bearer(operator.token),
          payload: { email: uniqueEmail('rich'), password: 'a long enough password 1', credits: 3_000_000_000 },
        }),
        400,
        'VALIDATION_FAILED',
      );
      await t.services.db.query('UPDATE accounts SET credit_balance = 11 WHERE id = $1', [target.id]);
      assert.deepEqual(await counts(target.id), before, 'balance, ledger and audit log unchanged');

      const ledger = (
        await t.app.inject({
          method: 'GET',
          url: `/operator/users/${target.id}/ledger`,
          headers: bearer(operator.token),
        })
      ).json().entries;
      assert.deepEqual(
        ledger
          .slice(0, 2)
          .map((e: { kind: string; amount: number; note: string; balanceAfter: number }) => [
            e.kind,
            e.amount,
            e.note,
            e.balanceAfter,
          ]),
        [
          ['deduct', -4, 'refund reversed', 11],
          ['grant', 5, 'goodwill', 15],
        ],
      );
      // The customer sees the deduction in their own ledger too.
      const own = (await t.app.inject({ method: 'GET', url: '/accounts/ledger', headers: bearer(target.key) })).json()
        .entries;
      assert.equal(own[0].kind, 'deduct');
      const audit = (
        await t.app.inject({
          method: 'GET',
          url: `/operator/audit?userId=${target.id}`,
          headers: bearer(operator.token),
        })
      ).json().entries;
      assert.deepEqual(
        audit.map((e: { action: string; actor: string; before: { credits: number }; after: { credits: number } }) => [
          e.action,
          e.actor,
          e.before.credits,
          e.after.credits,
        ]),
        [
          ['credits.deduct', operator.email, 15, 11],
          ['credits.grant', 'operator token', 10, 15],
        ],
      );
    });

    it('sets and resets limits, which the rate limiter applies', async () => {
      const target = await createUser(t, 10);
      const set = await t.app.inject({
        method: 'PUT',
        url: `/operator/users/${target.id}/limits`,
        headers: bearer(operator.token),
        payload: { perMinute: 2, perDay: 500 },
      });
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(set.json().limitOverrides, { perMinute: 2, perHour: null, perDay: 500 });
      assert.deepEqual(set.json().rateLimits, { perMinute: 2, perHour: t.config.RATE_LIMIT_PER_HOUR, perDay: 500 });
      assertErrorBody(
        await t.app.inject({
          method: 'PUT',
          url: `/operator/users/${target.id}/limits`,
          headers: bearer(operator.token),
          payload: { perMinute: 0 },
        }),
        400,
        'VALIDATION_FAILED',
      );
      assertErrorBody(
        await t.app.inject({
          method: 'PUT',
          url: `/operator/users/${target.id}/limits`,
          headers: bearer(operator.token),
          payload: {},
        }),
        400,
        'VALIDATION_FAILED',
      );
      // Beyond what the column holds: a 400, not a 500.
      assertErrorBody(
        await t.app.inject({
          method: 'PUT',
          url: `/operator/users/${target.id}/limits`,
          headers: bearer(operator.token),
          payload: { perMinute: 99_999_999_999 },
        }),
        400,
        'VALIDATION_FAILED',
      );
      await assert.rejects(
        setUserLimits(t.services.db, { label: 'test', accountId: null }, target.id, { perDay: 99_999_999_999 }),
        /from 1 to 2147483647/,
      );
      const account = (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(target.key) })).json();
      assert.equal(account.rateLimits.perMinute, 2);
      const reset = await t.app.inject({
        method: 'DELETE',
        url: `/operator/users/${target.id}/limits`,
        headers: bearer(operator.token),
      });
      assert.deepEqual(reset.json().limitOverrides, { perMinute: null, perHour: null, perDay: null });
      const audit = (
        await t.app.inject({
          method: 'GET',
          url: `/operator/audit?userId=${target.id}&limit=2`,
          headers: bearer(operator.token),
        })
      ).json().entries;
      assert.deepEqual(
        audit.map((e: { action: string }) => e.action),
        ['limits.reset', 'limits.set'],
      );
      assert.deepEqual(audit[0].before.limits, { perMinute: 2, perHour: null, perDay: 500 });
    });

    it("shows a user's usage, requests and webhook deliveries", async () => {
      const target = await createUser(t, 10);
      await t.services.db.query(
        `INSERT INTO shorts_requests (id, account_id, channel_url, webhook_url, mode, status, item_count, credits_charged, completed_at) VALUES ($1, $2, 'https://www.youtube.com/@x', 'https://example.com/h', 'webhook', 'completed', 3, 0, now())`,
        [`req_op_${target.id.slice(0, 8)}`, target.id],
      );
      await t.services.db.query(
        `INSERT INTO webhook_deliveries (request_id, account_id, webhook_id, attempt, status_code, latency_ms, outcome) VALUES ($1, $2, $3, 1, 200, 12, 'delivered')`,
        [`req_op_${target.id.slice(0, 8)}`, target.id, `msg_req_op_${target.id.slice(0, 8)}`],
      );
      // An account event's delivery (credits.low), which no request names (before: the operator's view left it out, the customer's showed no URL).
      const eventId = `evt_op_${target.id.slice(0, 8)}`;
      await t.services.db.query(
        `INSERT INTO webhook_events (id, account_id, type, webhook_url, payload) VALUES ($1, $2, 'credits.low', 'https://example.com/events', '{}')`,
        [eventId, target.id],
      );
      await t.services.db.query(
        `INSERT INTO webhook_deliveries (event_id, account_id, webhook_id, attempt, status_code, latency_ms, outcome) VALUES ($1, $2, $3, 1, 500, 9, 'failed')`,
        [eventId, target.id, `msg_${eventId}`],
      );
      const detail = (
        await t.app.inject({
          method: 'GET',
          url: `/operator/users/${target.id}?days=7`,
          headers: bearer(operator.token),
        })
      ).json();
      assert.equal(detail.user.email, target.email);
      assert.equal(detail.totals.totalRequests, 1);
      assert.equal(detail.usage.length, 7);
      assert.equal(detail.usage.at(-1).items, 3);
      const requests = (
        await t.app.inject({
          method: 'GET',
          url: `/operator/users/${target.id}/requests`,
          headers: bearer(operator.token),
        })
      ).json().requests;
      assert.equal(requests[0].mode, 'webhook');
      const deliveries = (
        await t.app.inject({
          method: 'GET',
          url: `/operator/users/${target.id}/deliveries`,
          headers: bearer(operator.token),
        })
      ).json().deliveries;
      assert.deepEqual(
        deliveries.map((d: { outcome: string; statusCode: number; requestId: string | null; webhookId: string }) => [
          d.outcome,
          d.statusCode,
          d.requestId,
          d.webhookId,
        ]),
        [
          ['failed', 500, null, `msg_${eventId}`],
          ['delivered', 200, `req_op_${target.id.slice(0, 8)}`, `msg_req_op_${target.id.slice(0, 8)}`],
        ],
      );
      const own = (
        await t.app.inject({ method: 'GET', url: '/webhooks/deliveries', headers: bearer(target.key) })
      ).json().deliveries as Array<{ webhookId: string; url: string }>;
      assert.deepEqual(
        own.map((d) => [d.webhookId, d.url]),
        [
          [`msg_${eventId}`, 'https://example.com/events'],
          [`msg_req_op_${target.id.slice(0, 8)}`, 'https://example.com/h'],
        ],
      );
      assertErrorBody(
        await t.app.inject({
          method: 'GET',
          url: `/operator/users/${target.id}/ledger?limit=0`,
          headers: bearer(operator.token),
        }),
        400,
        'VALIDATION_FAILED',
      );
      assertErrorBody(
        await t.app.inject({
          method: 'GET',
          url: '/operator/users/nobody@example.com/requests',
          headers: bearer(operator.token),
        }),
        404,
        'NOT_FOUND',
      );
    });

    it('invites by email: the one-time link sets the password and works once; an expired one does not', async () => {
      const email = uniqueEmail('invited');
      const res = await t.app.inject({
        method: 'POST',
        url: '/operator/invitations',
        headers: bearer(operator.token),
        payload: { email, credits: 30 },
      });
      assert.equal(res.statusCode, 201, res.body);
      const { token, link } = res.json();
      assert.ok(link.endsWith(`/dashboard/#/invite/${token}`));
      const [stored] = await t.services.db.query<{ token_hash: string }>(
        'SELECT token_hash FROM invitations WHERE email = $1',
        [email],
      );
      assert.notEqual(stored!.token_hash, token, 'only a hash of the token is stored');
      assert.ok(!JSON.stringify(stored).includes(token));
      assertErrorBody(
        await t.app.inject({ method: 'POST', url: '/invitations/accept', payload: { token, password: 'short' } }),
        400,
        'WEAK_PASSWORD',
      );
      const accepted = await t.app.inject({
        method: 'POST',
        url: '/invitations/accept',
        payload: { token, password: PASSWORD },
      });
      assert.equal(accepted.statusCode, 201, accepted.body);
      const account = (
        await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(accepted.json().token) })
      ).json();
      assert.equal(account.email, email);
      assert.equal(account.credits.balance, 30);
      assertErrorBody(
        await t.app.inject({ method: 'POST', url: '/invitations/accept', payload: { token, password: PASSWORD } }),
        404,
        'NOT_FOUND',
      );
      assertErrorBody(
        await t.app.inject({
          method: 'POST',
          url: '/operator/invitations',
          headers: bearer(operator.token),
          payload: { email },
        }),
        409,
        'CONFLICT',
      );

      const later = uniqueEmail('late');
      const invitation = await createInvitation(
        t.services.db,
        { label: 'test', accountId: null },
        { email: later },
        { mode: 'invite', ttlHours: 1, now: new Date('2030-01-01T00:00:00Z') },
      );
      await assert.rejects(
        acceptInvitation(
          t.services.db,
          { token: invitation.token, password: PASSWORD },
          new Date('2030-01-01T01:00:01Z'),
        ),
        /not valid/,
      );
      assert.equal(
        (
          await acceptInvitation(
            t.services.db,
            { token: invitation.token, password: PASSWORD },
            new Date('2030-01-01T00:59:59Z'),
          )
        ).email,
        later,
      );
      assertErrorBody(
        await t.app.inject({ method: 'POST', url: '/signup', payload: { email: uniqueEmail(), password: PASSWORD } }),
        403,
        'FORBIDDEN',
      );
    });
  });
}

describe('sign-up modes', () => {
  it('SIGNUP=open: a sign-up, then a login, gets the configured starting credits', async (ctx) => {
    const t = await harness(ctx, { fake: false, env: { SIGNUP: 'open', SIGNUP_CREDITS: '25' } });
    assert.deepEqual((await t.app.inject({ method: 'GET', url: '/signup' })).json(), {
      mode: 'open',
      startingCredits: 25,
    });
    const email = uniqueEmail('signup');
    const res = await t.app.inject({ method: 'POST', url: '/signup', payload: { email, password: PASSWORD } });
    assert.equal(res.statusCode, 202, res.body);
    const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password: PASSWORD } });
    assert.equal(login.statusCode, 200, login.body);
    const account = (
      await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(login.json().token) })
    ).json();
    assert.equal(account.credits.balance, 25);
    assertErrorBody(
      await t.app.inject({
        method: 'POST',
        url: '/signup',
        payload: { email: uniqueEmail(), password: PASSWORD, role: 'operator' },
      }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('SIGNUP=off (the default): no sign-up and no invitations', async (ctx) => {
    const t = await harness(ctx, { fake: false, env: { OPERATOR_TOKEN } });
    assert.equal((await t.app.inject({ method: 'GET', url: '/signup' })).json().mode, 'off');
    assertErrorBody(
      await t.app.inject({ method: 'POST', url: '/signup', payload: { email: uniqueEmail(), password: PASSWORD } }),
      403,
      'FORBIDDEN',
    );
    assertErrorBody(
      await t.app.inject({
        method: 'POST',
        url: '/operator/invitations',
        headers: bearer(OPERATOR_TOKEN),
        payload: { email: uniqueEmail() },
      }),
      403,
      'FORBIDDEN',
    );
    await createAccount(t.services.db, { email: uniqueEmail(), password: PASSWORD });
  });
});

describe('operator API and CLI edge cases', () => {
  const t = useHarness({ fake: false, env: { OPERATOR_TOKEN } });

  it('paging parameters past what the database holds are 400, not 500', async () => {
    for (const url of ['/operator/audit?before=9223372036854775807', '/operator/users?offset=9223372036854775807']) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(OPERATOR_TOKEN) });
      assert.deepEqual([res.statusCode, res.json().error], [400, 'VALIDATION_FAILED'], `${url}: ${res.body}`);
    }
  });

  it('a user with a long email (up to 254 characters) is addressed by it in the path, as the CLI does through the service', async () => {
    const email = `${'a'.repeat(240)}@example.com`;
    const created = await t.app.inject({
      method: 'POST',
      url: '/operator/users',
      headers: bearer(OPERATOR_TOKEN),
      payload: { email, password: 'long-password-123456' },
    });
    assert.equal(created.statusCode, 201, created.body);
    const res = await t.app.inject({
      method: 'POST',
      url: `/operator/users/${encodeURIComponent(email)}/credits`,
      headers: bearer(OPERATOR_TOKEN),
      payload: { direction: 'grant', amount: 5, reason: 'long email' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().credits, 5);
  });

  it('an OPERATOR_TOKEN that could never arrive as one bearer token is refused at start-up', () => {
    for (const token of ['correct horse battery staple and more words', `${'x'.repeat(32)}\u00e9`]) {
      assert.throws(
        () => loadConfig({ DATA_DIR: ':memory:', OPERATOR_TOKEN: token }),
        /OPERATOR_TOKEN must be one word of visible ASCII characters/,
      );
    }
    assert.ok(loadConfig({ DATA_DIR: ':memory:', OPERATOR_TOKEN }).OPERATOR_TOKEN);
  });

  it('the CLI on DATA_DIR: an invitation past the maximum balance is a clear 400-style error; its link uses the configured port without PUBLIC_BASE_URL', async (ctx) => {
    const config = loadConfig({ DATA_DIR: ':memory:', SIGNUP: 'invite', PORT: '8080', HOST: '0.0.0.0' });
    const client = directClient(await openDatabase(config, { role: 'cli', waitSeconds: 0 }), {
      defaults: defaultRateLimits(config),
      signup: config.SIGNUP,
      invitationTtlHours: config.INVITATION_TTL_HOURS,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      listenUrl: listenUrl(config),
    });
    ctx.after(() => client.close());
    await assert.rejects(
      client.invite({ email: 'big@example.com', credits: 2_147_483_648 }),
      (error: Error & { code?: string }) =>
        error.code === 'VALIDATION_FAILED' && /at most 2,147,483,647/.test(error.message),
    );
    const invitation = await client.invite({ email: 'port@example.com' });
    assert.match(invitation.link, /^http:\/\/127\.0\.0\.1:8080\/dashboard\/#\/invite\/csinv_/);
  });
});
