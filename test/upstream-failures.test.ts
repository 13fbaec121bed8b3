// Upstream failures mid-way: a Shorts-tab page after the first that keeps failing ends the read,
// and what was read is answered (200, truncated, a message naming why, priced by what is returned)
// instead of being thrown away; a failure before any short was read stays an error.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createUser, bearer, type TestApp, type TestUser } from './helpers/test-app.ts';
import { useHarness } from './helpers/harness.ts';
import { runWatchCheck } from '../src/domain/watches/watch-check.ts';
import { newCheckId } from '../src/domain/watches/watch-store.ts';

const SHORTS = '/api/youtube/shorts';
const channel = (path: string) => `https://www.youtube.com/${path}`;
const post = (t: TestApp, user: TestUser, payload: object) =>
  t.app.inject({ method: 'POST', url: SHORTS, headers: bearer(user.key), payload });
const balance = async (t: TestApp, user: TestUser) =>
  (await t.app.inject({ method: 'GET', url: '/accounts', headers: bearer(user.key) })).json().credits.balance as number;

describe('a Shorts tab whose third page keeps failing', () => {
  const env = (source: string) => ({
    YOUTUBE_SOURCE: source,
    ...(source === 'innertube' ? { YOUTUBE_API_KEY: '' } : {}),
    CACHE_TTL_SECONDS: '0',
    RATE_LIMIT_PER_MINUTE: '1000',
    INNERTUBE_RETRY_BACKOFF_MS: '1',
  });
  const hybrid = useHarness({ env: env('hybrid') });
  let keyless: TestApp;
  const users: Record<string, TestUser> = {};
  before(async () => {
    keyless = await hybrid.sibling({ env: env('innertube') });
    users.keyless = await createUser(keyless, 100);
    users.hybrid = await createUser(hybrid, 100);
  });

  it('keyless: answers the 96 shorts read, truncated, naming the failure, after retrying the page twice', async (t) => {
    t.after(() => hybrid.fake.clearFaults());
    hybrid.fake.resetStats();
    // Two browse calls answer (the tab's first page and one continuation): every later one fails.
    hybrid.fake.injectFault({
      protocol: 'innertube',
      endpoint: 'browse',
      kind: 'backendError',
      after: 2,
      times: Infinity,
    });
    const res = await post(keyless, users.keyless!, { channelUrl: channel('@fake-200') });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.itemCount, 96);
    assert.equal(body.truncated, true);
    assert.match(body.message, /after the newest 96 shorts.*browse call with HTTP 503/);
    assert.equal(body.creditsCharged, 2, 'priced by the 96 returned');
    assert.equal(await balance(keyless, users.keyless!), 98);
    const failed = hybrid.fake.innertubeCalls().filter((c) => c.endpoint === 'browse' && c.status === 503);
    assert.equal(failed.length, 3, 'the third page asked three times (two retries), no more');
  });

  it('keyless: the partial answer is not cached as the channel’s listing', async (t) => {
    t.after(() => hybrid.fake.clearFaults());
    hybrid.fake.injectFault({
      protocol: 'innertube',
      endpoint: 'browse',
      kind: 'backendError',
      after: 2,
      times: Infinity,
    });
    assert.equal((await post(keyless, users.keyless!, { channelUrl: channel('@fake-201') })).json().itemCount, 96);
    hybrid.fake.clearFaults();
    const again = await post(keyless, users.keyless!, { channelUrl: channel('@fake-201') });
    assert.deepEqual([again.json().itemCount, again.json().truncated], [201, false], again.body);
  });

  it('keyless: a page that fails once is asked again and the whole tab is answered', async (t) => {
    t.after(() => hybrid.fake.clearFaults());
    hybrid.fake.injectFault({ protocol: 'innertube', endpoint: 'browse', kind: 'backendError', after: 2, times: 1 });
    const res = await post(keyless, users.keyless!, { channelUrl: channel('@fake-150') });
    assert.deepEqual([res.statusCode, res.json().itemCount, res.json().truncated], [200, 150, false], res.body);
  });

  it('keyless: a failure before any short was read stays an error, nothing charged', async (t) => {
    t.after(() => hybrid.fake.clearFaults());
    hybrid.fake.injectFault({ protocol: 'innertube', endpoint: 'browse', kind: 'backendError', times: Infinity });
    const before = await balance(keyless, users.keyless!);
    const res = await post(keyless, users.keyless!, { channelUrl: channel('@fake-202') });
    assert.deepEqual([res.statusCode, res.json().error], [502, 'UPSTREAM_ERROR'], res.body);
    assert.equal(await balance(keyless, users.keyless!), before);
  });

  it('keyless watches: a bot check answers creation 503 UPSTREAM_BLOCKED and is named in a failed check', async (t) => {
    t.after(() => hybrid.fake.clearFaults());
    const receiver = await hybrid.receiver();
    const create = (handle: string) =>
      keyless.app.inject({
        method: 'POST',
        url: '/api/youtube/watches',
        headers: bearer(users.keyless!.key),
        payload: { channelUrl: channel(handle), webhookUrl: receiver.url() },
      });
    const created = await create('@fake-12');
    assert.equal(created.statusCode, 201, created.body);
    hybrid.fake.injectFault({ protocol: 'innertube', endpoint: 'browse', kind: 'forbidden', times: Infinity });
    const refused = await create('@fake-13');
    assert.deepEqual([refused.statusCode, refused.json().error], [503, 'UPSTREAM_BLOCKED'], refused.body);
    assert.match(refused.json().message, /Data API key.*INNERTUBE_PROXY_URL/s);
    assert.equal(refused.headers['retry-after'], '300');
    const check = await runWatchCheck(keyless.services.watches, created.json().id, newCheckId(), 'manual');
    assert.equal(check.outcome, 'failed');
    assert.match((check as { error: string }).error, /^UPSTREAM_BLOCKED: .*HTTP 403/);
  });

  it('hybrid: the tab and then the Data API fallback fail mid-way: the shorts the tab read are answered', async (t) => {
    t.after(() => hybrid.fake.clearFaults());
    hybrid.fake.injectFault({
      protocol: 'innertube',
      endpoint: 'browse',
      kind: 'backendError',
      after: 2,
      times: Infinity,
    });
    hybrid.fake.injectFault({ endpoint: 'playlistItems', kind: 'backendError', after: 1, times: Infinity });
    const res = await post(hybrid, users.hybrid!, { channelUrl: channel('@fake-300') });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.source, 'hybrid');
    assert.equal(body.itemCount, 96);
    assert.equal(body.truncated, true);
    assert.match(body.message, /web API.*HTTP 503.*Data API/s);
    assert.equal(body.creditsCharged, 2);
  });
});

describe("InnerTube's breakers per call kind, and each source's health", () => {
  const OPERATOR_TOKEN = 'op-token-for-source-health-tests-0123456789';
  const h = useHarness({
    env: { YOUTUBE_SOURCE: 'innertube', YOUTUBE_API_KEY: '', CACHE_TTL_SECONDS: '0', OPERATOR_TOKEN },
  });

  it('resolves but every browse fails: the browse breaker opens after 3 requests; the 4th makes no call', async (t) => {
    t.after(() => h.fake.clearFaults());
    const user = await createUser(h, 10);
    h.fake.resetStats();
    h.fake.injectFault({
      protocol: 'innertube',
      endpoint: 'browse',
      kind: 'backendError',
      status: 500,
      times: Infinity,
    });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await post(h, user, { channelUrl: channel(`@fake-${40 + i}`) }));
    assert.deepEqual(
      answers.map((r) => [r.statusCode, r.json().error]),
      [
        [502, 'UPSTREAM_ERROR'],
        [502, 'UPSTREAM_ERROR'],
        [502, 'UPSTREAM_ERROR'],
        [503, 'UPSTREAM_UNAVAILABLE'],
      ],
    );
    assert.ok(Number(answers[3]!.headers['retry-after']) > 0, 'the pause says when it ends');
    assert.match(answers[3]!.json().message, /paused its browse calls/);
    // Per request: resolve_url, the Shorts tab, the channel page; none for the 4th.
    assert.equal(h.fake.innertubeCalls().filter((c) => c.endpoint !== 'config').length, 9);
    assert.equal(await balance(h, user), 10);

    // /readyz: the state for everyone, the details for an operator only.
    const open = (await h.app.inject({ method: 'GET', url: '/readyz' })).json();
    assert.deepEqual(open.sources, [{ source: 'innertube', status: 'paused' }]);
    assert.equal(open.sourceDetails, undefined);
    const customer = await h.app.inject({ method: 'GET', url: '/readyz', headers: bearer(user.key) });
    assert.equal(customer.json().sourceDetails, undefined, "a customer's key sees no details");
    const operator = (
      await h.app.inject({ method: 'GET', url: '/readyz', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })
    ).json();
    const [innertube] = operator.sourceDetails;
    assert.equal(innertube.source, 'innertube');
    assert.deepEqual(innertube.breakers, { resolve_url: 'closed', browse: 'open', player: 'closed' });
    assert.equal(innertube.breakerOpen, true);
    assert.deepEqual([innertube.lastError.class, innertube.lastError.status], ['http-error', 500]);
    assert.ok(innertube.successRate > 0 && innertube.successRate < 1, `${innertube.successRate}`);

    const quota = await h.app.inject({
      method: 'GET',
      url: '/operator/quota',
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    });
    assert.deepEqual(quota.json().sources, operator.sourceDetails);

    const metrics = (await h.app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.match(metrics, /upstream_source_breaker_open\{source="innertube",call="browse"\} 1/);
    assert.match(metrics, /upstream_source_breaker_open\{source="innertube",call="resolve_url"\} 0/);
    assert.match(metrics, /upstream_source_success_ratio\{source="innertube"\} 0\.\d+/);
    assert.match(metrics, /upstream_source_last_error_timestamp_seconds\{source="innertube",class="http-error"\} \d+/);
  });
});
