// Channel addresses as people type them, on every route that takes one: the forms accepted and how
// they are recorded, the clear 400 for anything else, and credentials never kept.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useHarness } from './helpers/harness.ts';
import { bearer, createUser, type TestUser } from './helpers/test-app.ts';

const SHORTS = '/api/youtube/shorts';

describe('channel addresses as people type them', () => {
  const t = useHarness({
    env: { CACHE_TTL_SECONDS: '0', RATE_LIMIT_PER_MINUTE: '1000', READ_RATE_LIMIT_PER_MINUTE: '1000' },
  });
  let user: TestUser;
  let demoId: string;
  before(async () => {
    user = await createUser(t, 1000);
    demoId = t.fake.addChannel({ handle: 'typed', shortsCount: 3 }).id;
  });
  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(user.key), payload });
  const recorded = async (requestId: string) =>
    (await t.app.inject({ method: 'GET', url: `${SHORTS}/${requestId}`, headers: bearer(user.key) })).json()
      .channelUrl as string;

  it('accepts youtube.com/@x, www./m. without https://, a bare @x and a bare UC… id, recorded with https://', async () => {
    const forms: Array<[string, string]> = [
      ['youtube.com/@typed', 'https://youtube.com/@typed'],
      ['www.youtube.com/@typed', 'https://www.youtube.com/@typed'],
      ['m.youtube.com/@typed/shorts', 'https://m.youtube.com/@typed/shorts'],
      ['@typed', 'https://www.youtube.com/@typed'],
      [' @typed ', 'https://www.youtube.com/@typed'],
      [demoId, `https://www.youtube.com/channel/${demoId}`],
    ];
    for (const [typed, stored] of forms) {
      const res = await post(SHORTS, { channelUrl: typed });
      assert.equal(res.statusCode, 200, `${typed}: ${res.body}`);
      assert.deepEqual([res.json().data.channel.id, res.json().itemCount], [demoId, 3], typed);
      assert.equal(await recorded(res.json().requestId), stored);
    }
  });

  it('answers anything else with 400 INVALID_CHANNEL_URL listing the accepted forms, never a schema format error', async () => {
    for (const typed of ['not a url', 'typed', 'example.com/@typed', 'https://example.com/@typed', '@', 'UC123']) {
      const res = await post(SHORTS, { channelUrl: typed });
      assert.equal(res.statusCode, 400, typed);
      assert.equal(res.json().error, 'INVALID_CHANNEL_URL', `${typed}: ${res.body}`);
      assert.match(res.json().message, /Accepted forms: .*@handle.*\/channel\/UC.*bare @handle/, typed);
      assert.doesNotMatch(res.body, /must match format/);
    }
  });

  it('drops a user name and password in the address before it is recorded or echoed', async () => {
    const res = await post(SHORTS, { channelUrl: 'https://someone:hunter2@www.youtube.com/@typed' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await recorded(res.json().requestId), 'https://www.youtube.com/@typed');
    const schemeless = await post(SHORTS, { channelUrl: 'someone:hunter2@youtube.com/@typed' });
    assert.equal(schemeless.statusCode, 200, schemeless.body);
    assert.equal(await recorded(schemeless.json().requestId), 'https://youtube.com/@typed');
    // Refused addresses are recorded too (the requests log lists failures): without the password.
    const refused = await post(SHORTS, { channelUrl: 'https://someone:hunter2@example.com/@typed' });
    assert.equal(refused.json().error, 'INVALID_CHANNEL_URL');
    assert.doesNotMatch(refused.body, /hunter2/);
    const log = await t.app.inject({ method: 'GET', url: `${SHORTS}?limit=100`, headers: bearer(user.key) });
    assert.equal(log.statusCode, 200, log.body);
    assert.doesNotMatch(log.body, /hunter2|someone/);
  });

  it('batches and watches take the same forms and drop credentials the same way', async () => {
    const batch = await post(`${SHORTS}/batch`, {
      items: [{ channelUrl: '@typed' }, { channelUrl: 'someone:hunter2@m.youtube.com/@typed' }],
      webhookUrl: 'https://hooks.example.com/x',
    });
    assert.equal(batch.statusCode, 202, batch.body);
    assert.deepEqual(
      batch.json().items.map((i: { channelUrl: string }) => i.channelUrl),
      ['https://www.youtube.com/@typed', 'https://m.youtube.com/@typed'],
    );
    const badBatch = await post(`${SHORTS}/batch`, {
      items: [{ channelUrl: 'typed' }],
      webhookUrl: 'https://hooks.example.com/x',
    });
    assert.equal(badBatch.json().error, 'INVALID_CHANNEL_URL', badBatch.body);
    const watch = await post('/api/youtube/watches', {
      channelUrl: 'https://someone:hunter2@youtube.com/@typed',
      webhookUrl: 'https://hooks.example.com/w',
    });
    assert.equal(watch.statusCode, 201, watch.body);
    assert.equal(watch.json().channelUrl, 'https://youtube.com/@typed');
    const badWatch = await post('/api/youtube/watches', {
      channelUrl: 'not a channel',
      webhookUrl: 'https://hooks.example.com/w',
    });
    assert.equal(badWatch.json().error, 'INVALID_CHANNEL_URL', badWatch.body);
  });

  it('says oldestDate is Unix milliseconds when it is not one', async () => {
    for (const oldestDate of ['2025-01-01', -1, 1.5]) {
      const res = await post(SHORTS, { channelUrl: '@typed', oldestDate });
      assert.equal(res.statusCode, 400, String(oldestDate));
      assert.equal(res.json().error, 'VALIDATION_FAILED');
      assert.match(res.json().message, /oldestDate .*Unix milliseconds/, res.body);
    }
  });
});
