// Open sign-up neither farms starting credits nor says which emails have accounts: the grant goes once per
// mailbox (case, trailing dot, +tag and look-alike characters folded), and a registered email is answered
// exactly as a new one, its account untouched.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { useHarness } from './helpers/harness.ts';
import { PASSWORD } from './helpers/test-app.ts';
import { mailboxKey } from '../src/domain/accounts/mailbox.ts';
import { findAccountByEmail } from '../src/domain/accounts/accounts.ts';

const OTHER_PASSWORD = 'another long enough passphrase';

describe('open sign-up', () => {
  const t = useHarness({ fake: false, env: { SIGNUP: 'open', SIGNUP_CREDITS: '25' } });
  const signUp = (email: string, password = PASSWORD, remoteAddress = '198.51.100.7') =>
    t.app.inject({ method: 'POST', url: '/signup', remoteAddress, payload: { email, password } });
  const login = (email: string, password = PASSWORD) =>
    t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  const balanceOf = async (email: string) => (await findAccountByEmail(t.services.db, email))?.credit_balance;
  const fresh = () => `ada${randomBytes(4).toString('hex')}`;

  it('folds the variants of one mailbox to one key', () => {
    const key = mailboxKey('ada@example.com');
    for (const variant of [
      'Ada@Example.COM',
      'ada+1@example.com',
      'ada+promo@example.com.',
      'ada@example.com..',
      '\u0430da@example.com', // Cyrillic а
      'ad\u0430@ex\u0430mple.com',
      'a\u200bda@example.com', // zero-width space
      `ada@${domainToASCII('ex\u0430mple.com')}`, // the look-alike domain in punycode
    ])
      assert.equal(mailboxKey(variant), key, variant);
    assert.notEqual(mailboxKey('bob@example.com'), key);
    assert.notEqual(mailboxKey('ada@example.org'), key);
  });

  it('gives the starting credits once per mailbox, whatever the variant', async () => {
    const name = fresh();
    const variants = [
      `${name}@example.com`,
      `${name}+1@example.com`,
      `${name.replace('a', '\u0430')}@example.com`,
      `${name}@example.com.`,
    ];
    for (const [i, email] of variants.entries()) {
      const res = await signUp(email, PASSWORD, `198.51.100.${20 + i}`);
      assert.equal(res.statusCode, 202, res.body);
    }
    assert.equal(await balanceOf(variants[0]!), 25);
    for (const email of variants.slice(1)) {
      const balance = await balanceOf(email);
      // The account may exist (it is another address) but gets nothing.
      assert.ok(balance === undefined || balance === 0, `${email}: ${balance}`);
    }
  });

  it('answers a registered email exactly as a new one, and leaves its account alone', async () => {
    const taken = `${fresh()}@example.com`;
    const created = await signUp(taken);
    assert.equal(created.statusCode, 202, created.body);
    const owner = await findAccountByEmail(t.services.db, taken);
    const again = await signUp(taken, OTHER_PASSWORD);
    const brandNew = await signUp(`${fresh()}@example.com`, OTHER_PASSWORD, '198.51.100.8');
    assert.equal(again.statusCode, brandNew.statusCode);
    assert.equal(again.body, brandNew.body);
    assert.equal(again.headers['cache-control'], brandNew.headers['cache-control']);
    assert.equal(again.json().token, undefined, 'no session from sign-up');
    const after = await findAccountByEmail(t.services.db, taken);
    assert.deepEqual(after, owner, 'the owner keeps password, credits and everything');
    // The one who tried cannot sign in with the password they chose; an unknown email fails the same way.
    const wrong = await login(taken, OTHER_PASSWORD);
    const unknown = await login(`${fresh()}@example.com`, OTHER_PASSWORD);
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.statusCode, unknown.statusCode);
    assert.equal(wrong.json().error, unknown.json().error);
    assert.equal(wrong.json().message, unknown.json().message);
    // The genuine new user signs in with the password just chosen.
    assert.equal((await login(taken)).statusCode, 200);
  });
});

describe('open sign-up per client address', () => {
  // The start of a UTC day: three hours later it is the same day.
  let now = Date.parse('2030-01-02T00:00:00Z');
  const t = useHarness({ fake: false, now: () => now, env: { SIGNUP: 'open', SIGNUP_CREDITS: '25' } });

  it('takes ten an hour and twenty a day from one address', async () => {
    const statuses: number[][] = [];
    for (let hour = 0; hour < 3; hour++) {
      now = Date.parse('2030-01-02T00:00:00Z') + hour * 3600_000;
      const hourly: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/signup',
          remoteAddress: '203.0.113.99',
          payload: { email: `day${hour}-${i}-${randomBytes(3).toString('hex')}@example.com`, password: PASSWORD },
        });
        hourly.push(res.statusCode);
      }
      statuses.push(hourly);
    }
    const accepted = statuses.map((hourly) => hourly.filter((s) => s === 202).length);
    assert.deepEqual(accepted, [10, 10, 0], JSON.stringify(statuses));
    assert.ok(statuses.flat().every((s) => s === 202 || s === 429));
  });
});
