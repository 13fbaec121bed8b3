// A service with no users prints a one-time setup link at every start (text on a terminal, inside
// the JSON line otherwise); POST /setup with its token creates the first operator, then refuses.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, type ChildService } from '../support/child-service.ts';
import { skipWithout } from '../support/databases.ts';
import { until } from '../support/webhook-receiver.ts';
import { harness } from './helpers/harness.ts';
import { PASSWORD, uniqueEmail } from './helpers/test-app.ts';
import { ROOT } from '../src/infra/paths.ts';

const LINK = /(http:\/\/127\.0\.0\.1:\d+)\/dashboard\/setup\?token=(cssetup_[A-Za-z0-9_-]{43})/;

const post = (base: string, path: string, body: object) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the first operator, from the setup link printed at start', () => {
  it('prints the link at every start, readable on a terminal and in JSON otherwise; it works once', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'cs-setup-'));
    const started: ChildService[] = [];
    t.after(async () => {
      for (const child of started) await child.kill('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    });
    const start = async (env: Record<string, string>) => {
      const child = await startChild('src/server.ts', {
        DATA_DIR: dir,
        LOG_LEVEL: 'info',
        YOUTUBE_API_KEY: '',
        ...env,
      });
      started.push(child);
      return child;
    };
    const stop = (child: ChildService) => child.kill('SIGTERM');

    // LOG_FORMAT=text, as on a terminal: plain lines, one "listening at", the source mode, the link.
    const first = await start({ LOG_FORMAT: 'text', YOUTUBE_SOURCE: 'auto' });
    const text = await until(async () => LINK.test(first.output()) && first.output(), 30_000);
    const lines = text.split('\n').filter((l) => l.trim());
    assert.ok(
      lines.every((l) => !l.startsWith('{')),
      text,
    );
    assert.equal(lines.filter((l) => l.includes('listening at')).length, 1, text);
    assert.ok(
      lines.some((l) => /INFO {2}No YouTube Data API key is set: running keyless/.test(l)),
      text,
    );
    const token = LINK.exec(text)![2]!;
    assert.match(
      text,
      /WARN {2}No users yet: open http:\/\/127\.0\.0\.1:\d+\/dashboard\/setup\?token=cssetup_\S+ to create the first operator/,
    );
    await stop(first);

    // Not on a terminal (the default here): JSON lines, the same link again after the restart.
    const second = await start({});
    const json = await until(async () => LINK.test(second.output()) && second.output(), 30_000);
    const entries = json
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string });
    const linkEntry = entries.find((e) => LINK.test(e.msg));
    assert.ok(linkEntry, json);
    assert.equal(LINK.exec(linkEntry.msg)![2], token, 'the same token on every start');
    assert.equal(entries.filter((e) => e.msg.includes('listening at')).length, 1);

    if (existsSync(join(ROOT, 'web', 'dist'))) {
      const opened = await fetch(`${second.url}/dashboard/setup?token=${token}`, { redirect: 'manual' });
      assert.equal(opened.status, 302);
      assert.equal(opened.headers.get('location'), `/dashboard/#/setup/${token}`);
    }
    const wrong = await post(second.url, '/setup', {
      token: `${token.slice(0, -1)}x`,
      email: 'op@example.com',
      password: PASSWORD,
    });
    assert.equal(wrong.status, 401);
    assert.equal(((await wrong.json()) as { error: string }).error, 'INVALID_SETUP_TOKEN');
    const made = await post(second.url, '/setup', { token, email: 'op@example.com', password: PASSWORD });
    assert.equal(made.status, 201, await made.clone().text());
    const session = (await made.json()) as { token: string; user: { email: string } };
    assert.equal(session.user.email, 'op@example.com');
    // An operator: the operator API answers the session.
    const users = await fetch(`${second.url}/operator/users`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    assert.equal(users.status, 200, await users.text());
    const again = await post(second.url, '/setup', { token, email: 'other@example.com', password: PASSWORD });
    assert.equal(again.status, 409);
    assert.equal(((await again.json()) as { error: string }).error, 'ALREADY_SET_UP');
    // The token is in the start-up line only, never in a request's log line.
    assert.equal(second.output().split(token).length - 1, 1, second.output());
    await stop(second);

    // With a user, no link.
    const third = await start({});
    await until(async () => third.output().includes('listening at'), 30_000);
    await stop(third);
    assert.ok(!LINK.test(third.output()), third.output());
  });

  it('every instance on one PostgreSQL database accepts the same token', {
    skip: skipWithout('postgres'),
  }, async (t) => {
    const one = await harness(t, { mode: 'postgres', fake: false });
    const two = await one.peer();
    const token = await one.services.firstOperator.token();
    assert.ok(token);
    assert.equal(await two.services.firstOperator.token(), token);
    const account = await two.services.firstOperator.complete({ token, email: uniqueEmail(), password: PASSWORD });
    assert.equal(account.role, 'operator');
    assert.equal(await one.services.firstOperator.token(), undefined);
  });
});
