// youtubei.js through our adapter (src/infra/innertube/innertube-client.ts) against the fake
// platform's InnerTube side, over real HTTP: every answer is checked against what the fake Data API
// says about the same channel or video, so the two protocols are known to agree field by field.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { startFakePlatform, type FakePlatform, type InnertubeFault } from '../src/fake-platform/server.ts';
import {
  createInnertubeClient,
  InnertubeError,
  parseDisplayCount,
  type InnertubeCallReport,
  type InnertubeClient,
  type InnertubeFailureKind,
  type InnertubeShortItem,
  type InnertubeShortsPage,
} from '../src/infra/innertube/innertube-client.ts';

const KEY = 'fake-api-key';

// Data API bodies are compared field by field, so they are read untyped.
// biome-ignore lint/suspicious/noExplicitAny: the test walks arbitrary JSON bodies and asserts their shape itself
type Json = any;

async function dataApi(fake: FakePlatform, endpoint: string, params: Record<string, string>): Promise<Json> {
  const url = new URL(`${fake.baseUrl}/${endpoint}`);
  url.search = new URLSearchParams({ key: KEY, ...params }).toString();
  const res = await fetch(url);
  assert.equal(res.status, 200);
  return res.json();
}

async function dataApiChannel(fake: FakePlatform, handle: string): Promise<Json> {
  const body = await dataApi(fake, 'channels', { part: 'snippet,statistics,brandingSettings', forHandle: handle });
  assert.ok(body.items?.[0], `no channel @${handle}`);
  return body.items[0];
}

/** Every short id of a channel, newest first, from the Data API's Shorts playlist. */
async function dataApiShortIds(fake: FakePlatform, channelId: string): Promise<string[]> {
  const ids: string[] = [];
  let pageToken: string | undefined;
  do {
    const body = await dataApi(fake, 'playlistItems', {
      part: 'contentDetails',
      playlistId: 'UUSH' + channelId.slice(2),
      maxResults: '50',
      ...(pageToken ? { pageToken } : {}),
    });
    ids.push(...body.items.map((i: Json) => i.contentDetails.videoId));
    pageToken = body.nextPageToken;
  } while (pageToken);
  return ids;
}

async function dataApiVideos(fake: FakePlatform, ids: string[]): Promise<Map<string, Json>> {
  const out = new Map<string, Json>();
  for (let i = 0; i < ids.length; i += 50) {
    const body = await dataApi(fake, 'videos', {
      part: 'snippet,statistics,contentDetails',
      id: ids.slice(i, i + 50).join(','),
    });
    for (const item of body.items) out.set(item.id, item);
  }
  return out;
}

function isoSeconds(iso: string): number {
  const match = /^PT(?:(\d+)M)?(?:(\d+)S)?$/.exec(iso);
  assert.ok(match, iso);
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
}

/** All pages of a channel's Shorts tab, with each page's size. */
async function allShorts(
  client: InnertubeClient,
  channelId: string,
): Promise<{ sizes: number[]; items: InnertubeShortItem[] }> {
  const sizes: number[] = [];
  const items: InnertubeShortItem[] = [];
  let page: InnertubeShortsPage = await client.shorts(channelId);
  for (;;) {
    sizes.push(page.items.length);
    items.push(...page.items);
    if (!page.hasMore) break;
    page = await page.next();
  }
  return { sizes, items };
}

async function rejectsWith(promise: Promise<unknown>, kind: InnertubeFailureKind): Promise<InnertubeError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof InnertubeError, `not an InnertubeError: ${String(error)}`);
    assert.equal(error.kind, kind, error.message);
    return error;
  }
  assert.fail(`expected an InnertubeError of kind ${kind}`);
}

const CHANNELS = [
  { handle: 'reelshape', shortsCount: 100, title: 'Reel Shape', shortsItemShape: 'reel' as const },
  { handle: 'kanal-ünïcødé', shortsCount: 3, title: 'Ünïcødé Kanal' },
  { handle: 'legacyname', shortsCount: 4, title: 'Legacy', username: 'LegacyUser' },
  { handle: 'hiddensubs', shortsCount: 2, hiddenSubscriberCount: true },
  { handle: 'closedone', shortsCount: 2, status: 'closed' as const },
];

describe('InnerTube through youtubei.js against the fake platform', () => {
  let fake: FakePlatform;
  let client: InnertubeClient;
  const reports: InnertubeCallReport[] = [];

  before(async () => {
    fake = await startFakePlatform({ channels: CHANNELS });
    client = await createInnertubeClient({
      baseUrl: fake.innertubeBaseUrl,
      timeoutMs: 2_000,
      onCall: (call) => reports.push(call),
    });
  });
  after(async () => {
    await client?.close();
    await fake?.close();
  });

  it('creates its session with one config call, reported like every call', () => {
    assert.deepEqual(
      reports.map((r) => [r.endpoint, r.status]),
      [['config', 200]],
    );
    const { durationMs } = reports[0]!;
    assert.equal(typeof durationMs, 'number', 'the call reports its duration');
    assert.ok(Number.isFinite(durationMs) && durationMs >= 0, `${durationMs} ms`);
  });

  it('resolves every address form to the id the Data API gives', async () => {
    const demo = (await dataApiChannel(fake, 'demo')).id;
    const custom = (await dataApiChannel(fake, 'democustom')).id;
    const legacy = (await dataApiChannel(fake, 'legacyname')).id;
    const unicode = (await dataApiChannel(fake, 'kanal-ünïcødé')).id;
    const cases: Array<[string, string]> = [
      ['https://www.youtube.com/@demo', demo],
      ['https://www.youtube.com/@Demo/shorts', demo],
      ['https://m.youtube.com/@demo?feature=share', demo],
      [`https://www.youtube.com/channel/${demo}`, demo],
      [`https://www.youtube.com/channel/${demo}/videos`, demo],
      ['https://www.youtube.com/c/democustom', custom],
      ['https://www.youtube.com/user/DemoUser', custom],
      ['https://www.youtube.com/democustom', custom],
      ['https://www.youtube.com/user/LegacyUser', legacy],
      ['https://www.youtube.com/LegacyUser', legacy],
      [`https://www.youtube.com/@${encodeURIComponent('kanal-ünïcødé')}`, unicode],
      ['https://www.youtube.com/@kanal-ünïcødé', unicode],
      ['https://www.youtube.com/@fake-7', (await dataApiChannel(fake, 'fake-7')).id],
    ];
    for (const [url, id] of cases) assert.equal(await client.resolve(url), id, url);
  });

  it('answers undefined for addresses YouTube does not know (404), without failing', async () => {
    const before = fake.innertubeCalls().length;
    assert.equal(await client.resolve('https://www.youtube.com/@no-such-channel-here'), undefined);
    assert.equal(await client.resolve('https://www.youtube.com/c/nosuchname'), undefined);
    assert.equal(await client.resolve('https://www.youtube.com/user/nosuchuser'), undefined);
    const calls = fake.innertubeCalls().slice(before);
    assert.deepEqual(
      calls.map((c) => [c.endpoint, c.status]),
      Array.from({ length: 3 }, () => ['navigation/resolve_url', 404]),
    );
  });

  it('reads the channel page: exact where YouTube is exact, counts parsed from display text', async () => {
    for (const handle of ['demo', 'fake-2500', 'reelshape']) {
      const expected = await dataApiChannel(fake, handle);
      const channel = await client.channel(expected.id);
      assert.ok(channel, handle);
      assert.equal(channel.id, expected.id);
      assert.equal(channel.title, expected.snippet.title);
      assert.equal(channel.description, expected.snippet.description);
      assert.equal(channel.handle?.toLowerCase(), expected.snippet.customUrl);
      assert.equal(channel.keywords, expected.brandingSettings.channel.keywords);
      assert.equal(channel.videoCount, Number(expected.statistics.videoCount));
      assert.match(channel.videoCountText ?? '', /^[\d.,]+K? videos$/);
      // "1.2M subscribers": three significant figures, rounded down.
      const exact = Number(expected.statistics.subscriberCount);
      assert.match(channel.subscriberCountText ?? '', /^\d+(\.\d+)?[KMB]? subscribers$/);
      assert.ok(
        channel.subscriberCount! <= exact && channel.subscriberCount! >= exact * 0.99,
        `${channel.subscriberCountText} vs ${exact}`,
      );
      assert.ok(
        channel.avatar.length >= 2 &&
          channel.avatar.every((t) => t.url.startsWith('https://yt3.googleusercontent.com/') && t.width === t.height),
      );
      assert.equal(channel.avatar[0]!.width, 900, 'largest first');
      assert.ok(
        channel.banner.length > 0 &&
          channel.banner.every((t) => t.url.startsWith(expected.brandingSettings.image.bannerExternalUrl)),
      );
      assert.equal(channel.country, undefined, 'the channel page does not say');
    }
  });

  it('leaves out what the channel page does not show: keywords, banner, hidden subscriber counts', async () => {
    const sparse = await client.channel((await dataApiChannel(fake, 'sparse')).id);
    assert.ok(sparse);
    assert.equal(sparse.keywords, undefined);
    assert.deepEqual(sparse.banner, []);
    assert.equal(sparse.handle, '@sparse');
    const hidden = await client.channel((await dataApiChannel(fake, 'hiddensubs')).id);
    assert.ok(hidden);
    assert.equal(hidden.subscriberCountText, undefined);
    assert.equal(hidden.subscriberCount, undefined);
    assert.equal(hidden.videoCount, 2);
    const empty = await client.channel((await dataApiChannel(fake, 'empty')).id);
    assert.equal(empty?.videoCount, undefined, 'no videos, no videos text');
  });

  it('answers undefined for unknown and terminated channels', async () => {
    assert.equal(await client.channel('UC' + 'A'.repeat(22)), undefined);
    const closed = await client.resolve('https://www.youtube.com/@closedone');
    assert.ok(closed);
    assert.equal(await client.channel(closed), undefined);
    await rejectsWith(client.shorts(closed), 'http-error');
  });

  it('reads ahead when asked: the page after the next is requested as the next one arrives, then used, never asked twice', async () => {
    const id = (await dataApiChannel(fake, 'fake-150')).id;
    const expected = (await allShorts(client, id)).items.map((i) => i.id);
    const first = await client.shorts(id);
    const before = fake.innertubeCalls().length;
    const second = await first.next({ readAhead: true });
    // The third page was asked for when the second arrived, before anyone asked for it.
    for (let i = 0; i < 200 && fake.innertubeCalls().length - before < 2; i++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(fake.innertubeCalls().length - before, 2);
    const third = await second.next();
    const fourth = await third.next();
    assert.equal(
      fake.innertubeCalls().length - before,
      3,
      'the third page came from the read-ahead; the fourth was asked for on its own',
    );
    assert.deepEqual(
      [first, second, third, fourth].flatMap((page) => page.items.map((i) => i.id)),
      expected,
      'the same shorts in the same order',
    );
    assert.equal(fourth.hasMore, false);
    // Without readAhead nothing is asked for before next().
    const again = await client.shorts(id);
    const quiet = fake.innertubeCalls().length;
    await again.next();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(fake.innertubeCalls().length - quiet, 1);
  });

  it('pages through the Shorts tab (48 a page, shortsLockupViewModel) in the Data API playlist order', async () => {
    const id = (await dataApiChannel(fake, 'fake-150')).id;
    const before = fake.innertubeCalls().length;
    const { sizes, items } = await allShorts(client, id);
    assert.deepEqual(sizes, [48, 48, 48, 6]);
    // The Shorts tab asked for directly, then three continuations: one browse call each.
    const calls = fake.innertubeCalls().slice(before);
    assert.deepEqual(
      calls.map((c) => c.endpoint),
      ['browse', 'browse', 'browse', 'browse'],
    );
    assert.deepEqual(calls[0]!.request, { browseId: id, params: 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D' });
    assert.ok(calls.slice(1).every((c) => c.request.continuation));
    assert.deepEqual(
      items.map((i) => i.id),
      await dataApiShortIds(fake, id),
    );
    const videos = await dataApiVideos(
      fake,
      items.map((i) => i.id),
    );
    for (const item of items) {
      const video = videos.get(item.id)!;
      assert.equal(item.title, video.snippet.title);
      const exact = Number(video.statistics.viewCount);
      assert.match(item.viewCountText!, /^\d+(\.\d)?[KMB]? views$/);
      assert.ok(item.viewCount! <= exact && item.viewCount! >= exact * 0.9, `${item.viewCountText} vs ${exact}`);
      // The cover the item lists (thumbnailViewModel), not the first frame on its reelWatchEndpoint.
      assert.equal(item.thumbnails.length, 1);
      assert.match(
        item.thumbnails[0]!.url,
        new RegExp(`^https://i\\.ytimg\\.com/vi/${item.id}/oardefault\\.jpg\\?sqp=`),
      );
      assert.deepEqual([item.thumbnails[0]!.width, item.thumbnails[0]!.height], [405, 720]);
    }
  });

  it('reads the older reelItemRenderer items too', async () => {
    const id = (await dataApiChannel(fake, 'reelshape')).id;
    const { sizes, items } = await allShorts(client, id);
    assert.deepEqual(sizes, [48, 48, 4]);
    assert.deepEqual(
      items.map((i) => i.id),
      await dataApiShortIds(fake, id),
    );
    const videos = await dataApiVideos(
      fake,
      items.map((i) => i.id),
    );
    for (const item of items) {
      assert.equal(item.title, videos.get(item.id).snippet.title);
      assert.ok(item.viewCount! <= Number(videos.get(item.id).statistics.viewCount));
      assert.deepEqual(item.thumbnails, [
        { url: `https://i.ytimg.com/vi/${item.id}/oar2.jpg`, width: 405, height: 720 },
      ]);
    }
  });

  it("falls back to an item's first frame only when the item lists no cover", async () => {
    const id = fake.addChannel({ handle: 'coverless', shortsCount: 60, shortsCover: false }).id;
    const { items } = await allShorts(client, id);
    assert.equal(items.length, 60);
    for (const item of items)
      assert.deepEqual(item.thumbnails, [
        { url: `https://i.ytimg.com/vi/${item.id}/frame0.jpg`, width: 1080, height: 1920 },
      ]);
  });

  it('describes the channel on the first page, as channel() does', async () => {
    const id = (await dataApiChannel(fake, 'fake-150')).id;
    const first = await client.shorts(id);
    assert.deepEqual(first.channel, await client.channel(id));
    assert.equal((await first.next()).channel, undefined);
  });

  it('gives an empty last page for a channel without Shorts, and one request per next page', async () => {
    const emptyId = (await dataApiChannel(fake, 'empty')).id;
    const empty = await client.shorts(emptyId);
    assert.deepEqual(empty.items, []);
    assert.equal(empty.hasMore, false);
    assert.equal(empty.channel?.id, emptyId);
    assert.deepEqual((await empty.next()).items, []);

    const first = await client.shorts((await dataApiChannel(fake, 'fake-60')).id);
    const before = fake.innertubeCalls().length;
    const [a, b] = await Promise.all([first.next(), first.next()]);
    assert.equal(a, b);
    assert.equal(a.items.length, 12);
    assert.equal(fake.innertubeCalls().length - before, 1);
  });

  it("reads a video from the player: date, exact views, duration and keywords equal the Data API's", async () => {
    const id = (await dataApiChannel(fake, 'fake-30')).id;
    const ids = (await dataApiShortIds(fake, id)).slice(0, 8);
    const expected = await dataApiVideos(fake, ids);
    for (const videoId of ids) {
      const video = await client.video(videoId);
      const want = expected.get(videoId);
      assert.ok(video);
      assert.equal(video.id, videoId);
      assert.equal(video.title, want.snippet.title);
      assert.equal(video.description, want.snippet.description);
      // The player's publishDate is to the second; the Data API sometimes adds a fraction.
      assert.equal(video.publishedAt, want.snippet.publishedAt.replace(/\.\d+Z$/, 'Z'));
      assert.equal(video.viewCount, want.statistics.viewCount);
      assert.equal(video.durationSeconds, isoSeconds(want.contentDetails.duration));
      assert.deepEqual(video.keywords, want.snippet.tags);
      assert.equal(video.channelId, id);
      assert.ok(video.thumbnails.length > 0 && video.thumbnails[0]!.url.includes(videoId));
    }
    // The 7th short carries a fraction of a second in the Data API: only the fraction is lost.
    assert.match(expected.get(ids[6]!).snippet.publishedAt, /\.\d+Z$/);
  });

  it('keeps concurrent listings of different channels apart on one session', async () => {
    const handles = ['fake-97', 'reelshape', 'fake-49'];
    const ids = await Promise.all(handles.map(async (h) => (await dataApiChannel(fake, h)).id));
    const listings = await Promise.all(ids.map((id) => allShorts(client, id)));
    for (const [i, id] of ids.entries()) {
      assert.deepEqual(
        listings[i]!.items.map((item) => item.id),
        await dataApiShortIds(fake, id),
        handles[i],
      );
    }
  });

  it('answers undefined for a video YouTube does not have', async () => {
    assert.equal(await client.video('AAAAAAAAAAA'), undefined);
  });

  it('costs no Data API quota and leaves the Data API call log alone', async () => {
    fake.resetStats();
    await client.resolve('https://www.youtube.com/@demo');
    await client.shorts((await client.resolve('https://www.youtube.com/@demo'))!);
    assert.equal(fake.quotaUsed(), 0);
    assert.deepEqual(fake.calls(), []);
    assert.ok(fake.innertubeCalls().length >= 3);
  });
});

describe('InnerTube faults map onto InnertubeError kinds', () => {
  let fake: FakePlatform;
  let client: InnertubeClient;
  let reports: InnertubeCallReport[] = [];
  let demo: string;
  let shortId: string;

  before(async () => {
    fake = await startFakePlatform();
    // Generous for the healthy calls (a loaded CI machine took over 400 ms for some); the hang test has its own.
    client = await createInnertubeClient({
      baseUrl: fake.innertubeBaseUrl,
      timeoutMs: 10_000,
      onCall: (call) => reports.push(call),
    });
    demo = (await client.resolve('https://www.youtube.com/@demo'))!;
    shortId = (await client.shorts(demo)).items[0]!.id;
  });
  after(async () => {
    await client?.close();
    await fake?.close();
  });

  const inject = (fault: Omit<InnertubeFault, 'protocol'>) => {
    fake.clearFaults();
    reports = [];
    fake.injectFault({ protocol: 'innertube', ...fault });
  };

  it('a bot check on the player → bot-check', async () => {
    inject({ kind: 'botCheck' });
    // The fault waits for the player: browse and resolve_url go on working.
    assert.ok(await client.channel(demo));
    const error = await rejectsWith(client.video(shortId), 'bot-check');
    assert.equal(error.endpoint, 'player');
    assert.ok(await client.video(shortId), 'only once');
  });

  it('browse answering 403 → bot-check; a redirect to the consent page → consent, never followed', async () => {
    inject({ endpoint: 'browse', kind: 'forbidden' });
    const refused = await rejectsWith(client.shorts(demo), 'bot-check');
    assert.deepEqual([refused.endpoint, refused.status], ['browse', 403]);
    inject({ endpoint: 'resolve_url', kind: 'consentRedirect' });
    const walled = await rejectsWith(client.resolve('https://www.youtube.com/@demo'), 'consent');
    assert.deepEqual([walled.endpoint, walled.status], ['resolve_url', 302]);
    assert.match(walled.message, /consent\.youtube\.com/);
    assert.deepEqual(
      reports.map((r) => [r.endpoint, r.status]),
      [['resolve_url', 302]],
      'one call, reported with its status: the consent page was not asked for',
    );
  });

  it('HTTP 429 → rate-limited, on any endpoint', async () => {
    inject({ endpoint: 'player', kind: 'rateLimited' });
    const error = await rejectsWith(client.video(shortId), 'rate-limited');
    assert.equal(error.status, 429);
    assert.deepEqual(
      reports.map((r) => [r.endpoint, r.status]),
      [['player', 429]],
    );
    inject({ endpoint: 'resolve_url', kind: 'rateLimited' });
    await rejectsWith(client.resolve('https://www.youtube.com/@demo'), 'rate-limited');
    inject({ endpoint: 'browse', kind: 'rateLimited' });
    await rejectsWith(client.shorts(demo), 'rate-limited');
  });

  it('a truncated answer → parse', async () => {
    inject({ endpoint: 'browse', kind: 'malformed' });
    await rejectsWith(client.channel(demo), 'parse');
    inject({ endpoint: 'player', kind: 'malformed' });
    await rejectsWith(client.video(shortId), 'parse');
    inject({ endpoint: 'resolve_url', kind: 'malformed' });
    await rejectsWith(client.resolve('https://www.youtube.com/@demo'), 'parse');
  });

  it('a Shorts tab in a layout youtubei.js does not know → parse, on the first page or a later one', async () => {
    inject({ kind: 'layoutChanged' });
    const error = await rejectsWith(client.shorts(demo), 'parse');
    assert.match(error.message, /does not read as a Short/);
    fake.clearFaults();
    const first = await client.shorts(demo);
    assert.equal(first.items.length, 48);
    inject({ kind: 'layoutChanged' });
    await rejectsWith(first.next(), 'parse');
    fake.clearFaults();
    assert.equal((await first.next()).items.length, 48, 'a failed page can be asked again');
  });

  it('answered errors (5xx, 501, 404 on browse) → http-error; dropped connections → unavailable; no answer in time → timeout', async () => {
    inject({ endpoint: 'browse', kind: 'backendError' });
    const error = await rejectsWith(client.channel(demo), 'http-error');
    assert.equal(error.status, 503);
    inject({ endpoint: 'player', kind: 'backendError', status: 500 });
    await rejectsWith(client.video(shortId), 'http-error');
    inject({ endpoint: 'browse', kind: 'backendError', status: 501 });
    assert.equal((await rejectsWith(client.shorts(demo), 'http-error')).status, 501);
    inject({ endpoint: 'browse', kind: 'backendError', status: 404 });
    assert.equal((await rejectsWith(client.shorts(demo), 'http-error')).status, 404);
    inject({ endpoint: 'browse', kind: 'reset' });
    await rejectsWith(client.shorts(demo), 'unavailable');
    inject({ endpoint: 'resolve_url', kind: 'hang' });
    const hurried = await createInnertubeClient({
      baseUrl: fake.innertubeBaseUrl,
      timeoutMs: 400,
      onCall: (call) => reports.push(call),
    });
    try {
      const started = performance.now();
      await rejectsWith(hurried.resolve('https://www.youtube.com/@demo'), 'timeout');
      assert.ok(performance.now() - started < 5_000);
      assert.deepEqual(reports.map((r) => [r.endpoint, r.status]).at(-1), ['resolve_url', 0]);
      fake.clearFaults();
      assert.equal(await client.resolve('https://www.youtube.com/@demo'), demo, 'works again once the fault is gone');
    } finally {
      await hurried.close();
    }
  });

  it('a failing config call at session creation is tolerated', async () => {
    fake.clearFaults();
    fake.injectFault({ protocol: 'innertube', endpoint: 'config', kind: 'backendError' });
    const calls: InnertubeCallReport[] = [];
    const other = await createInnertubeClient({
      baseUrl: fake.innertubeBaseUrl,
      timeoutMs: 1_000,
      onCall: (call) => calls.push(call),
    });
    try {
      assert.deepEqual(
        calls.map((c) => [c.endpoint, c.status]),
        [['config', 503]],
      );
      assert.equal(await other.resolve('https://www.youtube.com/@demo'), demo);
    } finally {
      await other.close();
    }
  });
});

describe('parseDisplayCount', () => {
  const cases: Array<[string | undefined, number | undefined]> = [
    ['2.9M views', 2_900_000],
    ['4.32m subscribers', 4_320_000],
    ['3.97M subscribers', 3_970_000],
    ['895k views', 895_000],
    ['172K views', 172_000],
    ['1m views', 1_000_000],
    ['1.2B views', 1_200_000_000],
    ['1,234 views', 1_234],
    ['1,234,567 views', 1_234_567],
    ['12 videos', 12],
    ['1 view', 1],
    ['No views', 0],
    ['no subscribers', 0],
    ['2.9 million views', 2_900_000],
    ['  15K views ', 15_000],
    ['', undefined],
    ['views', undefined],
    ['N/A', undefined],
    [undefined, undefined],
  ];
  for (const [text, expected] of cases) {
    it(`${JSON.stringify(text)} → ${expected}`, () => assert.equal(parseDisplayCount(text), expected));
  }
});

describe('fake platform main', () => {
  it('prints one line per protocol', async () => {
    const child = spawn(process.execPath, ['src/fake-platform/main.ts'], {
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const lines: string[] = [];
      for await (const line of createInterface({ input: child.stdout! })) {
        lines.push(line);
        if (lines.length === 2) break;
      }
      assert.match(lines[0]!, /^fake Data API at http:\/\/127\.0\.0\.1:\d+\/youtube\/v3$/);
      assert.match(lines[1]!, /^fake InnerTube at http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});
