// Addresses resolved as the caller gave them, and the handle in the case its owner gave it: a legacy
// vanity name YouTube knows only as youtube.com/<name> (not /c/<name>), and a handle whose display
// case ("@Doobydobap") the Data API's lower-case customUrl ("@doobydobap") does not keep.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useHarness } from './helpers/harness.ts';
import { bearer, createUser, type TestApp, type TestUser } from './helpers/test-app.ts';

type Body = {
  itemCount: number;
  source: string;
  data: {
    channel: { id: string; snippet: { customUrl?: string } };
    shorts: Array<{ snippet: { channelHandle?: string; channelCustomUrl?: string } }>;
  };
};

describe('addresses as given', () => {
  const env = (source: string) => ({
    YOUTUBE_SOURCE: source,
    ...(source === 'innertube' ? { YOUTUBE_API_KEY: '' } : {}),
    CACHE_TTL_SECONDS: '0',
    NEGATIVE_CACHE_SECONDS: '0',
    RATE_LIMIT_PER_MINUTE: '1000',
  });
  const main = useHarness({
    fake: {
      channels: [
        { handle: 'Doobydobap', title: 'Doobydobap', shortsCount: 3 },
        { handle: 'dailyshowofficial', title: 'The Daily Show', legacyVanity: 'thedailyshow', shortsCount: 2 },
      ],
    },
    env: env('data-api'),
  });
  const apps: Record<string, TestApp> = {};
  const users: Record<string, TestUser> = {};
  before(async () => {
    for (const source of ['data-api', 'hybrid', 'innertube'] as const) {
      apps[source] = source === 'data-api' ? main : await main.sibling({ env: env(source) });
      users[source] = await createUser(apps[source]!, 1000);
    }
  });
  const read = (source: string, channelUrl: string) =>
    apps[source]!.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(users[source]!.key),
      payload: { channelUrl },
    });

  for (const source of ['innertube', 'hybrid']) {
    it(`${source}: youtube.com/<name> is resolved as given first, not only as /c/<name>`, async () => {
      main.fake.resetStats();
      const res = await read(source, 'https://www.youtube.com/thedailyshow');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((res.json() as Body).itemCount, 2);
      const resolved = main.fake
        .innertubeCalls()
        .filter((c) => c.endpoint === 'navigation/resolve_url')
        .map((c) => c.request.url);
      assert.equal(resolved[0], 'https://www.youtube.com/thedailyshow');
      assert.ok(!main.fake.calls().some((c) => c.endpoint === 'search'), 'no 100-unit search');
    });

    it(`${source}: channelHandle keeps the case the channel page shows; customUrl stays the Data API's`, async () => {
      const res = await read(source, 'https://www.youtube.com/@doobydobap');
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as Body;
      assert.equal(body.source, source);
      assert.equal(body.data.channel.snippet.customUrl, '@doobydobap');
      for (const short of body.data.shorts) {
        assert.equal(short.snippet.channelHandle, '@Doobydobap');
        assert.equal(short.snippet.channelCustomUrl, 'https://www.youtube.com/@doobydobap');
      }
    });
  }
});
