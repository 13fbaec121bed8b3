// The default order, newest first, on a channel with premieres: YouTube lists a premiere where it
// was uploaded, below shorts published before it. With dates (Data API, hybrid) the answer is in
// publishedAt order; keyless says its order is the Shorts tab's.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useHarness } from './helpers/harness.ts';
import { bearer, createUser, type TestApp, type TestUser } from './helpers/test-app.ts';
import { parseTimestamp } from '../src/domain/shorts/mapping.ts';

const NEWEST = Date.parse('2026-06-01T12:00:00Z');
const HOUR = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 19) + 'Z';
// 80 shorts an hour apart (ordinal 0 the oldest, at NEWEST - 79 h); two are premieres published
// later than their place: #31 (ordinal 30) 9.5 h, #56 (ordinal 55) 3.5 h after it.
const PREMIERES = { 30: iso(NEWEST - 39.5 * HOUR), 55: iso(NEWEST - 20.5 * HOUR) };

type Short = { id: string; snippet: { title?: string; publishedAt?: string } };
type Body = { data: { shorts: Short[] }; itemCount: number; message?: string; source: string };

describe('newest first on a channel with premieres', () => {
  const env = (source: string) => ({
    YOUTUBE_SOURCE: source,
    ...(source === 'innertube' ? { YOUTUBE_API_KEY: '' } : {}),
    CACHE_TTL_SECONDS: '0',
    RATE_LIMIT_PER_MINUTE: '1000',
  });
  const main = useHarness({
    fake: { channels: [{ handle: 'premieres', title: 'Premieres', shortsCount: 80, premieres: PREMIERES }] },
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
  const read = async (source: string, payload: object = {}): Promise<Body> => {
    const res = await apps[source]!.app.inject({
      method: 'POST',
      url: '/api/youtube/shorts',
      headers: bearer(users[source]!.key),
      payload: { channelUrl: 'https://www.youtube.com/@premieres', ...payload },
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const times = (body: Body) => body.data.shorts.map((s) => parseTimestamp(s.snippet.publishedAt)!);
  const titles = (body: Body) => body.data.shorts.map((s) => s.snippet.title);

  for (const source of ['data-api', 'hybrid']) {
    it(`${source}: the answer is in publishedAt order, premieres at their dates`, async () => {
      const body = await read(source);
      assert.equal(body.source, source);
      assert.equal(body.itemCount, 80);
      const at = times(body);
      assert.ok(
        at.every((t, i) => i === 0 || t <= at[i - 1]!),
        'newest first by publishedAt',
      );
      // #56 (NEWEST - 20.5 h) right after #60 (NEWEST - 20 h); #31 right after #41 (NEWEST - 39 h).
      const order = titles(body);
      assert.equal(order.indexOf('Premieres short #56'), order.indexOf('Premieres short #60') + 1);
      assert.equal(order.indexOf('Premieres short #31'), order.indexOf('Premieres short #41') + 1);
    });

    it(`${source}: an oldestDate window keeps a premiere listed below older shorts, in its place`, async () => {
      const body = await read(source, { oldestDate: NEWEST - 40 * HOUR });
      const order = titles(body);
      // #40 (NEWEST - 40 h) to #80, and #31, listed 9 places below #40 among older shorts.
      assert.equal(body.itemCount, 42, JSON.stringify(order));
      assert.ok(order.includes('Premieres short #31'));
      assert.deepEqual(order.slice(-2), ['Premieres short #31', 'Premieres short #40']);
      const at = times(body);
      assert.ok(at.every((t, i) => i === 0 || t <= at[i - 1]!));
    });
  }

  it("keyless: says that newest first is the Shorts tab's order, and keeps it", async () => {
    const body = await read('innertube');
    assert.equal(body.source, 'innertube');
    assert.match(body.message ?? '', /order of YouTube's Shorts tab/);
    const exact = await read('data-api', { limit: 80 });
    const tabOrder = [...exact.data.shorts].sort((a, b) => listed(a) - listed(b)).map((s) => s.id);
    assert.deepEqual(
      body.data.shorts.map((s) => s.id),
      tabOrder,
    );
  });
});

/** A short's place in the playlist and tab: newest upload first (its number counts uploads from the oldest). */
function listed(short: Short): number {
  return -Number(/#(\d+)/.exec(short.snippet.title ?? '')![1]);
}
