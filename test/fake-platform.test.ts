// The fake YouTube Data API over real HTTP: shapes, paging, lookups, errors, quota, faults,
// latency and determinism. Every test starts its own server on port 0 and closes it.
import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startFakePlatform, type FakePlatform, type FakePlatformOptions } from '../src/fake-platform/server.ts';
import { channelIdFor, parseVideoId, videoIdFor } from '../src/fake-platform/ids.ts';
import { playlistPageToken, parsePlaylistPageToken, searchPageToken } from '../src/fake-platform/page-tokens.ts';
import {
  continuationToken,
  pacificTimestamp,
  parseContinuationToken,
  shortViewText,
  subscriberText,
} from '../src/fake-platform/innertube.ts';

const KEY = 'fake-api-key';
const ETAG = /^[A-Za-z0-9_-]{27}$/;
const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

// Response bodies are checked field by field, so they are read untyped.
// biome-ignore lint/suspicious/noExplicitAny: the test walks arbitrary JSON bodies and asserts their shape itself
type Json = any;

interface Reply {
  status: number;
  headers: Headers;
  body: Json;
}

async function start(t: TestContext, options: FakePlatformOptions = {}): Promise<FakePlatform> {
  const fake = await startFakePlatform(options);
  t.after(() => fake.close());
  return fake;
}

async function get(
  fake: FakePlatform,
  endpoint: string,
  params: Record<string, string>,
  init: RequestInit = {},
): Promise<Reply> {
  const url = new URL(`${fake.baseUrl}/${endpoint}`);
  url.search = new URLSearchParams(params).toString();
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, body: JSON.parse(await res.text()) };
}

const call = (fake: FakePlatform, endpoint: string, params: Record<string, string>) =>
  get(fake, endpoint, { key: KEY, ...params });

async function channelByHandle(fake: FakePlatform, handle: string): Promise<Json> {
  const reply = await call(fake, 'channels', {
    part: 'snippet,statistics,brandingSettings,contentDetails',
    forHandle: handle,
  });
  assert.equal(reply.status, 200);
  return reply.body.items?.[0];
}

/** Every page of a playlist, following nextPageToken to the end. */
async function allPages(
  fake: FakePlatform,
  playlistId: string,
  maxResults = 50,
  part = 'contentDetails',
): Promise<Json[]> {
  const pages: Json[] = [];
  let pageToken: string | undefined;
  do {
    const reply = await call(fake, 'playlistItems', {
      part,
      playlistId,
      maxResults: String(maxResults),
      ...(pageToken ? { pageToken } : {}),
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    pages.push(reply.body);
    pageToken = reply.body.nextPageToken;
  } while (pageToken);
  return pages;
}

const shortsPlaylist = (channelId: string) => 'UUSH' + channelId.slice(2);

function assertDescendingTimes(items: Json[]): void {
  const times = items.map((item) => Date.parse(item.contentDetails.videoPublishedAt));
  for (const t of times) assert.ok(Number.isFinite(t));
  for (let i = 1; i < times.length; i++)
    assert.ok(times[i - 1]! > times[i]!, `item ${i} is not older than item ${i - 1}`);
}

describe('fake YouTube Data API: channels.list', () => {
  it("returns a channel by handle in Google's shape, with only the requested parts", async (t) => {
    const fake = await start(t);
    const full = await call(fake, 'channels', {
      part: 'snippet,statistics,brandingSettings,contentDetails',
      forHandle: '@demo',
    });
    assert.equal(full.status, 200);
    assert.equal(full.headers.get('content-type'), 'application/json; charset=UTF-8');
    assert.equal(full.body.kind, 'youtube#channelListResponse');
    assert.match(full.body.etag, ETAG);
    assert.deepEqual(full.body.pageInfo, { totalResults: 1, resultsPerPage: 5 });
    assert.deepEqual(Object.keys(full.body), ['kind', 'etag', 'pageInfo', 'items']);
    const channel = full.body.items[0];
    assert.deepEqual(Object.keys(channel), [
      'kind',
      'etag',
      'id',
      'snippet',
      'contentDetails',
      'statistics',
      'brandingSettings',
    ]);
    assert.equal(channel.kind, 'youtube#channel');
    assert.match(channel.etag, ETAG);
    assert.match(channel.id, CHANNEL_ID);
    assert.equal(channel.snippet.title, 'Demo Channel');
    assert.equal(channel.snippet.customUrl, '@demo');
    assert.deepEqual(channel.snippet.localized, {
      title: channel.snippet.title,
      description: channel.snippet.description,
    });
    assert.equal(channel.snippet.defaultLanguage, 'en');
    assert.equal(channel.snippet.country, 'US');
    assert.match(channel.snippet.publishedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(Object.keys(channel.snippet.thumbnails), ['default', 'medium', 'high']);
    assert.deepEqual(
      Object.values(channel.snippet.thumbnails).map((th) => [(th as Json).width, (th as Json).height]),
      [
        [88, 88],
        [240, 240],
        [800, 800],
      ],
    );
    assert.equal(channel.contentDetails.relatedPlaylists.uploads, 'UU' + channel.id.slice(2));
    for (const count of ['viewCount', 'subscriberCount', 'videoCount'])
      assert.match(channel.statistics[count], /^\d+$/, count);
    assert.equal(channel.statistics.videoCount, '120');
    assert.equal(channel.statistics.hiddenSubscriberCount, false);
    assert.deepEqual(Object.keys(channel.brandingSettings.channel), [
      'title',
      'description',
      'keywords',
      'trackingAnalyticsAccountId',
      'moderateComments',
      'unsubscribedTrailer',
      'defaultLanguage',
      'country',
    ]);
    assert.match(channel.brandingSettings.image.bannerExternalUrl, /^https:\/\//);

    const snippetOnly = await call(fake, 'channels', { part: 'snippet', forHandle: 'demo' });
    assert.deepEqual(Object.keys(snippetOnly.body.items[0]), ['kind', 'etag', 'id', 'snippet']);
    assert.notEqual(snippetOnly.body.items[0].etag, channel.etag, 'the etag covers the returned content');
    const idOnly = await call(fake, 'channels', { part: 'id', forHandle: 'demo' });
    assert.deepEqual(Object.keys(idOnly.body.items[0]), ['kind', 'etag', 'id']);
  });

  it('finds handles with or without "@", in any case and in Unicode; usernames in any case; ids in request order', async (t) => {
    const fake = await start(t);
    const demo = await channelByHandle(fake, 'demo');
    for (const handle of ['@demo', 'DEMO', '@DeMo'])
      assert.equal((await channelByHandle(fake, handle)).id, demo.id, handle);
    // NFC and NFD spellings of the same handle, sent percent-encoded.
    const added = fake.addChannel({ handle: 'Café.Niño', shortsCount: 2 });
    assert.equal((await channelByHandle(fake, '@café.niño'.normalize('NFD'))).id, added.id);
    assert.equal((await channelByHandle(fake, 'CAFÉ.NIÑO')).id, added.id);

    const custom = await call(fake, 'channels', { part: 'snippet', forUsername: 'demouser' });
    assert.equal(custom.body.items[0].snippet.customUrl, '@democustom');
    assert.equal((await channelByHandle(fake, 'democustom')).id, custom.body.items[0].id);

    const byIds = await call(fake, 'channels', { part: 'id', id: `${added.id},UCxxxxxxxxxxxxxxxxxxxxxx,${demo.id}` });
    assert.deepEqual(
      byIds.body.items.map((c: Json) => c.id),
      [added.id, demo.id],
    );
    assert.deepEqual(byIds.body.pageInfo, { totalResults: 2, resultsPerPage: 2 });
  });

  it('answers an unknown channel with 200, totalResults 0 and no items key, as Google does', async (t) => {
    const fake = await start(t);
    const lookups: Array<Record<string, string>> = [
      { forHandle: '@nobody-here-xyz' },
      { forUsername: 'nobodyxyz' },
      { id: 'UC0000000000000000000000' },
    ];
    for (const params of lookups) {
      const reply = await call(fake, 'channels', { part: 'snippet', ...params });
      assert.equal(reply.status, 200);
      assert.equal(reply.body.kind, 'youtube#channelListResponse');
      assert.equal(reply.body.pageInfo.totalResults, 0);
      assert.equal('items' in reply.body, false, JSON.stringify(params));
    }
    // Google's own etag for the empty handle lookup.
    assert.deepEqual((await call(fake, 'channels', { part: 'id', forHandle: 'nobody' })).body, {
      kind: 'youtube#channelListResponse',
      etag: 'RuuXzTIr0OoDqI4S0RU6n4FqKEM',
      pageInfo: { totalResults: 0, resultsPerPage: 5 },
    });
  });

  it("rejects bad parameters with Google's error bodies", async (t) => {
    const fake = await start(t);
    const tooMany = await call(fake, 'channels', {
      part: 'id',
      id: Array.from({ length: 51 }, (_, i) => channelIdFor(String(i))).join(','),
    });
    assert.equal(tooMany.status, 400);
    assert.deepEqual(tooMany.body.error.errors, [
      {
        message: 'The request specifies an invalid filter parameter.',
        domain: 'youtube.parameter',
        reason: 'invalidFilters',
        location: 'parameters.',
        locationType: 'other',
      },
    ]);
    const noFilter = await call(fake, 'channels', { part: 'id' });
    assert.equal(noFilter.status, 400);
    assert.equal(noFilter.body.error.errors[0].reason, 'missingRequiredParameter');
    assert.match(noFilter.body.error.message, /^No filter selected\. Expected one of: .*forHandle/);
    const twoFilters = await call(fake, 'channels', { part: 'id', forHandle: 'demo', id: 'UC0000000000000000000000' });
    assert.equal(twoFilters.body.error.errors[0].reason, 'incompatibleParameters');
    const noPart = await call(fake, 'channels', { forHandle: 'demo' });
    assert.deepEqual(noPart.body, {
      error: {
        code: 400,
        message: 'Required parameter: part',
        errors: [
          {
            message: 'Required parameter: part',
            domain: 'global',
            reason: 'required',
            location: 'part',
            locationType: 'parameter',
          },
        ],
      },
    });
    const badPart = await call(fake, 'channels', { part: 'snippet,statistic', forHandle: 'demo' });
    assert.deepEqual(badPart.body.error.errors, [
      {
        message: "'statistic'",
        domain: 'youtube.part',
        reason: 'unknownPart',
        location: 'part',
        locationType: 'parameter',
      },
    ]);
    const mine = await call(fake, 'channels', { part: 'id', mine: 'true' });
    assert.equal(mine.status, 401);
    assert.equal(mine.body.error.errors[0].reason, 'authorizationRequired');
  });

  it('leaves every optional field out of an omitOptional channel and its videos, and hides a hidden subscriber count', async (t) => {
    const fake = await start(t);
    const sparse = await channelByHandle(fake, '@sparse');
    assert.equal(sparse.snippet.defaultLanguage, undefined);
    assert.equal(sparse.snippet.country, undefined);
    assert.deepEqual(Object.keys(sparse.brandingSettings), ['channel']);
    assert.deepEqual(Object.keys(sparse.brandingSettings.channel), ['title', 'description']);
    const page = (
      await call(fake, 'playlistItems', {
        part: 'contentDetails',
        playlistId: shortsPlaylist(sparse.id),
        maxResults: '50',
      })
    ).body;
    assert.equal(page.items.length, 5);
    const videos = await call(fake, 'videos', {
      part: 'snippet,statistics,contentDetails',
      id: page.items.map((i: Json) => i.contentDetails.videoId).join(','),
    });
    assert.equal(videos.body.items.length, 5);
    for (const video of videos.body.items) {
      assert.deepEqual(Object.keys(video.snippet), [
        'publishedAt',
        'channelId',
        'title',
        'description',
        'thumbnails',
        'channelTitle',
        'categoryId',
        'liveBroadcastContent',
        'localized',
      ]);
      assert.deepEqual(Object.keys(video.snippet.thumbnails), ['default', 'medium', 'high']);
      assert.deepEqual(Object.keys(video.statistics), ['viewCount', 'favoriteCount']);
      // No duration, the rest of contentDetails as usual.
      assert.deepEqual(Object.keys(video.contentDetails), [
        'dimension',
        'definition',
        'caption',
        'licensedContent',
        'contentRating',
        'projection',
      ]);
    }
    const hidden = fake.addChannel({ handle: 'shy', shortsCount: 1, hiddenSubscriberCount: true });
    const shy = await channelByHandle(fake, 'shy');
    assert.equal(shy.id, hidden.id);
    assert.deepEqual(Object.keys(shy.statistics), ['viewCount', 'hiddenSubscriberCount', 'videoCount']);
    assert.equal(shy.statistics.hiddenSubscriberCount, true);
  });
});

describe('fake YouTube Data API: playlistItems.list', () => {
  it('pages a 120-short channel as 50/50/20, newest first, tokens chaining to the end without duplicates', async (t) => {
    const fake = await start(t);
    const demo = await channelByHandle(fake, 'demo');
    const playlistId = shortsPlaylist(demo.id);
    const pages = await allPages(fake, playlistId, 50, 'snippet,contentDetails');
    assert.deepEqual(
      pages.map((p) => p.items.length),
      [50, 50, 20],
    );
    for (const p of pages) {
      assert.equal(p.kind, 'youtube#playlistItemListResponse');
      assert.match(p.etag, ETAG);
      assert.deepEqual(p.pageInfo, { totalResults: 120, resultsPerPage: 50 });
    }
    assert.deepEqual(Object.keys(pages[1]), ['kind', 'etag', 'nextPageToken', 'prevPageToken', 'items', 'pageInfo']);
    assert.equal(pages[0].prevPageToken, undefined);
    assert.equal(pages[2].nextPageToken, undefined);
    // Google's token for "from item 50".
    assert.equal(pages[0].nextPageToken, 'EAAaBlBUOkNESQ');
    const items = pages.flatMap((p) => p.items);
    assert.equal(new Set(items.map((i: Json) => i.contentDetails.videoId)).size, 120);
    assert.deepEqual(
      items.map((i: Json) => i.snippet.position),
      Array.from({ length: 120 }, (_, i) => i),
    );
    assertDescendingTimes(items);
    const item = items[0];
    assert.equal(item.kind, 'youtube#playlistItem');
    assert.equal(Buffer.from(item.id, 'base64').toString(), `${playlistId}.${item.contentDetails.videoId}`);
    assert.equal(item.snippet.playlistId, playlistId);
    assert.deepEqual(item.snippet.resourceId, { kind: 'youtube#video', videoId: item.contentDetails.videoId });
    assert.equal(item.snippet.videoOwnerChannelId, demo.id);
    // Some timestamps carry fractional seconds, and still sort.
    assert.ok(items.some((i: Json) => /\.\d+Z$/.test(i.contentDetails.videoPublishedAt)));
    assert.ok(items.some((i: Json) => /:\d\dZ$/.test(i.contentDetails.videoPublishedAt)));

    const back = await call(fake, 'playlistItems', {
      part: 'contentDetails',
      playlistId,
      maxResults: '50',
      pageToken: pages[1].prevPageToken,
    });
    assert.deepEqual(
      back.body.items.map((i: Json) => i.contentDetails.videoId),
      pages[0].items.map((i: Json) => i.contentDetails.videoId),
    );
    // The uploads playlist holds the same shorts.
    const uploads = await call(fake, 'playlistItems', {
      part: 'contentDetails',
      playlistId: demo.contentDetails.relatedPlaylists.uploads,
      maxResults: '50',
    });
    assert.deepEqual(
      uploads.body.items.map((i: Json) => i.contentDetails.videoId),
      pages[0].items.map((i: Json) => i.contentDetails.videoId),
    );
  });

  it("defaults to 5 items, serves only the requested parts, and dates items by their video's publishedAt", async (t) => {
    const fake = await start(t);
    const demo = await channelByHandle(fake, 'demo');
    const reply = await call(fake, 'playlistItems', { part: 'contentDetails', playlistId: shortsPlaylist(demo.id) });
    assert.equal(reply.body.items.length, 5);
    assert.deepEqual(reply.body.pageInfo, { totalResults: 120, resultsPerPage: 5 });
    assert.deepEqual(Object.keys(reply.body.items[0]), ['kind', 'etag', 'id', 'contentDetails']);
    assert.deepEqual(Object.keys(reply.body.items[0].contentDetails), ['videoId', 'videoPublishedAt']);
    const videos = await call(fake, 'videos', {
      part: 'snippet',
      id: reply.body.items.map((i: Json) => i.contentDetails.videoId).join(','),
    });
    assert.deepEqual(
      videos.body.items.map((v: Json) => v.snippet.publishedAt),
      reply.body.items.map((i: Json) => i.contentDetails.videoPublishedAt),
    );
  });

  it('answers 404 playlistNotFound for a channel without shorts and for unknown playlists', async (t) => {
    const fake = await start(t);
    const empty = await channelByHandle(fake, 'empty');
    const expected = {
      error: {
        code: 404,
        message: "The playlist identified with the request's <code>playlistId</code> parameter cannot be found.",
        errors: [
          {
            message: "The playlist identified with the request's <code>playlistId</code> parameter cannot be found.",
            domain: 'youtube.playlistItem',
            reason: 'playlistNotFound',
            location: 'playlistId',
            locationType: 'parameter',
          },
        ],
      },
    };
    for (const playlistId of [
      shortsPlaylist(empty.id),
      'UU' + empty.id.slice(2),
      'UUSH0000000000000000000000',
      'PLnotaplaylist',
    ]) {
      const reply = await call(fake, 'playlistItems', { part: 'contentDetails', playlistId });
      assert.equal(reply.status, 404, playlistId);
      assert.deepEqual(reply.body, expected);
    }
    // Google escapes the markup inside the JSON string.
    const raw = await (await fetch(`${fake.baseUrl}/playlistItems?part=id&playlistId=PLx&key=${KEY}`)).text();
    assert.ok(raw.includes('\\u003ccode\\u003eplaylistId\\u003c/code\\u003e'));
  });

  it('rejects maxResults outside 0..50, malformed numbers and invalid page tokens', async (t) => {
    const fake = await start(t);
    const demo = await channelByHandle(fake, 'demo');
    const playlistId = shortsPlaylist(demo.id);
    const big = await call(fake, 'playlistItems', { part: 'id', playlistId, maxResults: '51' });
    assert.equal(big.status, 400);
    assert.deepEqual(big.body, {
      error: {
        code: 400,
        message: "Invalid value '51'. Values must be within the range: [0, 50]",
        errors: [
          {
            message: "Invalid value '51'. Values must be within the range: [0, 50]",
            domain: 'global',
            reason: 'invalidParameter',
            location: 'maxResults',
            locationType: 'parameter',
          },
        ],
      },
    });
    const negative = await call(fake, 'playlistItems', { part: 'id', playlistId, maxResults: '-1' });
    assert.equal(negative.status, 400);
    assert.equal(negative.body.error.message, "Invalid unsigned integer value: '-1'.");
    const zero = await call(fake, 'playlistItems', { part: 'id', playlistId, maxResults: '0' });
    assert.equal(zero.status, 200);
    assert.equal('items' in zero.body, false);
    for (const pageToken of ['garbage!', 'CAUQAA', playlistPageToken({ offset: 121, backward: false })]) {
      const reply = await call(fake, 'playlistItems', { part: 'id', playlistId, pageToken });
      assert.equal(reply.status, 400, pageToken);
      assert.deepEqual(reply.body.error.errors, [
        {
          message: 'The request specifies an invalid page token.',
          domain: 'youtube.parameter',
          reason: 'invalidPageToken',
          location: 'pageToken',
          locationType: 'parameter',
        },
      ]);
    }
    const none = await call(fake, 'playlistItems', { part: 'id' });
    assert.equal(none.body.error.message, 'No filter selected. Expected one of: id, playlistId');
  });

  it('pages a 3,000-short channel completely (auto-generated fake-3000)', async (t) => {
    const fake = await start(t);
    const channel = await channelByHandle(fake, '@fake-3000');
    assert.equal(channel.statistics.videoCount, '3000');
    const pages = await allPages(fake, shortsPlaylist(channel.id));
    assert.equal(pages.length, 60);
    const items = pages.flatMap((p) => p.items);
    assert.equal(items.length, 3000);
    assert.equal(new Set(items.map((i: Json) => i.contentDetails.videoId)).size, 3000);
    assertDescendingTimes(items);
    const last = await call(fake, 'videos', {
      part: 'id',
      id: pages[59].items.map((i: Json) => i.contentDetails.videoId).join(','),
    });
    assert.equal(last.body.items.length, 50);
  });

  it('serves any page of a 50,000-short channel without generating the rest', async (t) => {
    const fake = await start(t);
    const big = fake.addChannel({ handle: 'huge', shortsCount: 50_000 });
    const reply = await call(fake, 'playlistItems', {
      part: 'contentDetails',
      playlistId: shortsPlaylist(big.id),
      maxResults: '50',
      pageToken: playlistPageToken({ offset: 49_950, backward: false }),
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.items.length, 50);
    assert.equal(reply.body.nextPageToken, undefined);
    const videos = await call(fake, 'videos', {
      part: 'snippet',
      id: reply.body.items.map((i: Json) => i.contentDetails.videoId).join(','),
    });
    assert.equal(videos.body.items.length, 50);
    assert.equal(videos.body.items[49].snippet.title, 'huge short #1');
  });
});

describe('fake YouTube Data API: videos.list and search.list', () => {
  it('returns videos in request order with requested parts, leaving unknown ids out', async (t) => {
    const fake = await start(t);
    const demo = await channelByHandle(fake, 'demo');
    const page = (
      await call(fake, 'playlistItems', {
        part: 'contentDetails',
        playlistId: shortsPlaylist(demo.id),
        maxResults: '3',
      })
    ).body;
    const [a, b, c] = page.items.map((i: Json) => i.contentDetails.videoId);
    const reply = await call(fake, 'videos', {
      part: 'snippet,statistics,contentDetails',
      id: [c, 'AAAAAAAAAAA', a, 'nope', b].join(','),
      maxResults: '50',
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.kind, 'youtube#videoListResponse');
    assert.deepEqual(Object.keys(reply.body), ['kind', 'etag', 'items', 'pageInfo']);
    assert.deepEqual(reply.body.pageInfo, { totalResults: 3, resultsPerPage: 3 });
    assert.deepEqual(
      reply.body.items.map((v: Json) => v.id),
      [c, a, b],
    );
    const video = reply.body.items[1];
    assert.equal(video.kind, 'youtube#video');
    assert.match(video.id, VIDEO_ID);
    assert.deepEqual(Object.keys(video.snippet), [
      'publishedAt',
      'channelId',
      'title',
      'description',
      'thumbnails',
      'channelTitle',
      'tags',
      'categoryId',
      'liveBroadcastContent',
      'defaultLanguage',
      'localized',
      'defaultAudioLanguage',
    ]);
    assert.equal(video.snippet.channelId, demo.id);
    assert.equal(video.snippet.channelTitle, 'Demo Channel');
    assert.equal(video.snippet.liveBroadcastContent, 'none');
    assert.deepEqual(
      Object.entries(video.snippet.thumbnails).map(([size, th]) => [size, (th as Json).width, (th as Json).height]),
      [
        ['default', 120, 90],
        ['medium', 320, 180],
        ['high', 480, 360],
        ['standard', 640, 480],
        ['maxres', 1280, 720],
      ],
    );
    assert.equal(video.snippet.thumbnails.high.url, `https://i.ytimg.com/vi/${video.id}/hqdefault.jpg`);
    assert.match(video.contentDetails.duration, /^PT(\d+M)?(\d+S)?$/);
    assert.deepEqual(Object.keys(video.contentDetails), [
      'duration',
      'dimension',
      'definition',
      'caption',
      'licensedContent',
      'contentRating',
      'projection',
    ]);
    // Deterministic: the same video has the same duration on every call.
    assert.equal(
      (await call(fake, 'videos', { part: 'contentDetails', id: video.id })).body.items[0].contentDetails.duration,
      video.contentDetails.duration,
    );
    assert.deepEqual(
      { ...video.contentDetails, duration: 'x' },
      {
        duration: 'x',
        dimension: '2d',
        definition: video.contentDetails.definition,
        caption: 'false',
        licensedContent: false,
        contentRating: {},
        projection: 'rectangular',
      },
    );
    assert.deepEqual(Object.keys(video.statistics), ['viewCount', 'likeCount', 'favoriteCount', 'commentCount']);
    for (const value of Object.values(video.statistics)) assert.equal(typeof value, 'string');
    assert.equal(video.statistics.favoriteCount, '0');

    const statsOnly = await call(fake, 'videos', { part: 'statistics', id: a });
    assert.deepEqual(Object.keys(statsOnly.body.items[0]), ['kind', 'etag', 'id', 'statistics']);
    const nothing = await call(fake, 'videos', { part: 'id', id: 'AAAAAAAAAAA' });
    assert.equal('items' in nothing.body, false);
  });

  it('accepts 50 ids and rejects 51 with invalidFilters', async (t) => {
    const fake = await start(t);
    const channel = await channelByHandle(fake, 'fake-60');
    const items = (await allPages(fake, shortsPlaylist(channel.id))).flatMap((p) => p.items);
    const ids = items.map((i: Json) => i.contentDetails.videoId);
    assert.equal((await call(fake, 'videos', { part: 'id', id: ids.slice(0, 50).join(',') })).body.items.length, 50);
    const tooMany = await call(fake, 'videos', { part: 'id', id: ids.slice(0, 51).join(',') });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.error.code, 400);
    assert.equal(tooMany.body.error.message, 'The request specifies an invalid filter parameter.');
    assert.equal(tooMany.body.error.errors[0].reason, 'invalidFilters');
  });

  it('searches channels by title, handle or customUrl, for 100 units', async (t) => {
    const fake = await start(t);
    const added = fake.addChannel({
      handle: 'renamedhandle',
      customUrl: 'oldvanityname',
      title: 'Old Vanity',
      shortsCount: 3,
    });
    fake.resetStats();
    const reply = await call(fake, 'search', { part: 'snippet', type: 'channel', q: 'OLDVANITY', maxResults: '10' });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.kind, 'youtube#searchListResponse');
    assert.deepEqual(Object.keys(reply.body), ['kind', 'etag', 'regionCode', 'pageInfo', 'items']);
    assert.equal(reply.body.items.length, 1);
    const result = reply.body.items[0];
    assert.equal(result.kind, 'youtube#searchResult');
    assert.match(result.etag, ETAG);
    assert.deepEqual(result.id, { kind: 'youtube#channel', channelId: added.id });
    assert.equal(result.snippet.channelId, added.id);
    assert.equal(result.snippet.title, 'Old Vanity');
    assert.equal(result.snippet.channelTitle, 'Old Vanity');
    assert.equal(result.snippet.liveBroadcastContent, 'none');
    assert.deepEqual(Object.keys(result.snippet.thumbnails.default), ['url']);
    assert.equal(fake.quotaUsed(), 100);

    const demo = await call(fake, 'search', { part: 'snippet', type: 'channel', q: 'demo', maxResults: '1' });
    assert.equal(demo.body.pageInfo.totalResults, 2);
    assert.equal(demo.body.nextPageToken, searchPageToken({ offset: 1, backward: false }));
    const second = await call(fake, 'search', {
      part: 'id',
      type: 'channel',
      q: 'demo',
      maxResults: '1',
      pageToken: demo.body.nextPageToken,
    });
    assert.notEqual(second.body.items[0].id.channelId, demo.body.items[0].id.channelId);
    const none = await call(fake, 'search', { part: 'snippet', type: 'channel', q: 'zzzz-no-such' });
    assert.equal(none.body.pageInfo.totalResults, 0);
    assert.equal('items' in none.body, false);
  });
});

describe('fake YouTube Data API: keys, quota and routing', () => {
  it('requires the API key: missing is 403 forbidden, wrong is 400 keyInvalid; neither costs quota', async (t) => {
    const fake = await start(t, { apiKey: 'secret-key' });
    const missing = await get(fake, 'channels', { part: 'id', forHandle: 'demo' });
    assert.equal(missing.status, 403);
    assert.deepEqual(missing.body, {
      error: {
        code: 403,
        message: 'The request is missing a valid API key.',
        errors: [{ message: 'The request is missing a valid API key.', domain: 'global', reason: 'forbidden' }],
        status: 'PERMISSION_DENIED',
      },
    });
    const wrong = await get(fake, 'channels', { part: 'id', forHandle: 'demo', key: KEY });
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.body.error.errors, [
      { message: 'API key not valid. Please pass a valid API key.', domain: 'global', reason: 'badRequest' },
    ]);
    assert.equal(wrong.body.error.message, 'API key not valid. Please pass a valid API key.');
    assert.equal(wrong.body.error.status, 'INVALID_ARGUMENT');
    assert.equal(wrong.body.error.details[0].reason, 'API_KEY_INVALID');
    assert.equal(fake.quotaUsed(), 0);
    const right = await get(fake, 'channels', { part: 'id', forHandle: 'demo', key: 'secret-key' });
    assert.equal(right.status, 200);
    const header = await get(
      fake,
      'channels',
      { part: 'id', forHandle: 'demo' },
      { headers: { 'x-goog-api-key': 'secret-key' } },
    );
    assert.equal(header.status, 200);
    assert.equal(fake.quotaUsed(), 2);
  });

  it('counts units per call as Google does, logs calls, and answers quotaExceeded past the daily quota', async (t) => {
    const fake = await start(t, { dailyQuota: 104 });
    const demo = await channelByHandle(fake, 'demo');
    const page = await call(fake, 'playlistItems', {
      part: 'contentDetails',
      playlistId: shortsPlaylist(demo.id),
      maxResults: '2',
    });
    await call(fake, 'videos', { part: 'id', id: page.body.items[0].contentDetails.videoId });
    await call(fake, 'playlistItems', { part: 'id', playlistId: 'PLmissing' }); // errors cost units too
    assert.equal(fake.quotaUsed(), 4);
    await call(fake, 'search', { part: 'snippet', q: 'demo', type: 'channel' });
    assert.equal(fake.quotaUsed(), 104);
    const over = await call(fake, 'channels', { part: 'id', forHandle: 'demo' });
    assert.equal(over.status, 403);
    assert.deepEqual(over.body, {
      error: {
        code: 403,
        message:
          'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
        errors: [
          {
            message:
              'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
            domain: 'youtube.quota',
            reason: 'quotaExceeded',
          },
        ],
      },
    });
    assert.equal(fake.quotaUsed(), 104);
    assert.deepEqual(
      fake.calls().map((c) => [c.endpoint, c.units, c.status]),
      [
        ['channels', 1, 200],
        ['playlistItems', 1, 200],
        ['videos', 1, 200],
        ['playlistItems', 1, 404],
        ['search', 100, 200],
        ['channels', 0, 403],
      ],
    );
    assert.equal(fake.calls()[0]!.params.forHandle, 'demo');
    fake.resetStats();
    assert.equal(fake.quotaUsed(), 0);
    assert.deepEqual(fake.calls(), []);
    assert.equal((await call(fake, 'channels', { part: 'id', forHandle: 'demo' })).status, 200);
  });

  it('answers unknown methods with a Google-style 404 and resolves fake-<N> only when auto-generation is on', async (t) => {
    const fake = await start(t, { autoGenerate: false, channels: [{ handle: 'mine', shortsCount: 7 }] });
    const unknown = await call(fake, 'comments', { part: 'id' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 404);
    assert.equal(unknown.body.error.errors[0].reason, 'notFound');
    assert.equal(await channelByHandle(fake, 'fake-10'), undefined);
    assert.equal((await channelByHandle(fake, 'mine')).statistics.videoCount, '7');
    const auto = await start(t);
    assert.equal((await channelByHandle(auto, '@FAKE-10')).statistics.videoCount, '10');
    assert.equal(await channelByHandle(auto, 'fake-100001'), undefined);
  });
});

describe('fake YouTube Data API: injected faults and latency', () => {
  it('injects quotaExceeded, keyInvalid and backendError for the given number of calls and endpoints', async (t) => {
    const fake = await start(t);
    const lookup = () => call(fake, 'channels', { part: 'id', forHandle: 'demo' });
    fake.injectFault({ kind: 'quotaExceeded' });
    assert.equal((await lookup()).body.error.errors[0].reason, 'quotaExceeded');
    assert.equal((await lookup()).status, 200, 'times defaults to 1');

    fake.injectFault({ kind: 'keyInvalid', endpoint: '*', times: 2 });
    assert.equal((await lookup()).status, 400);
    assert.equal((await call(fake, 'search', { part: 'id', q: 'x' })).status, 400);
    assert.equal((await lookup()).status, 200);

    fake.injectFault({ kind: 'backendError', endpoint: 'videos', times: Infinity });
    assert.equal((await lookup()).status, 200, 'other endpoints are unaffected');
    for (let i = 0; i < 3; i++) {
      const failed = await call(fake, 'videos', { part: 'id', id: 'AAAAAAAAAAA' });
      assert.equal(failed.status, 503);
      assert.deepEqual(failed.body.error.errors, [
        { message: 'The service is currently unavailable.', domain: 'global', reason: 'backendError' },
      ]);
    }
    fake.clearFaults();
    assert.equal((await call(fake, 'videos', { part: 'id', id: 'AAAAAAAAAAA' })).status, 200);
    fake.injectFault({ kind: 'backendError', status: 500 });
    const internal = await lookup();
    assert.equal(internal.status, 500);
    assert.equal(internal.body.error.message, 'Backend Error');
  });

  it('hangs, resets the connection, or sends malformed JSON on request', async (t) => {
    const fake = await start(t);
    const url = `${fake.baseUrl}/channels?part=id&forHandle=demo&key=${KEY}`;
    fake.injectFault({ kind: 'hang', endpoint: 'channels' });
    const started = performance.now();
    await assert.rejects(fetch(url, { signal: AbortSignal.timeout(200) }), { name: 'TimeoutError' });
    assert.ok(performance.now() - started >= 190);

    fake.injectFault({ kind: 'reset', endpoint: 'channels' });
    await assert.rejects(fetch(url), TypeError);

    fake.injectFault({ kind: 'malformed', endpoint: 'channels' });
    const malformed = await fetch(url);
    assert.equal(malformed.status, 200);
    assert.equal(malformed.headers.get('content-type'), 'application/json; charset=UTF-8');
    await assert.rejects(malformed.json(), SyntaxError);

    assert.equal((await fetch(url)).status, 200, 'all three were one-shot');
    assert.deepEqual(
      fake.calls().map((c) => c.status),
      [0, 0, 200, 200],
    );
  });

  it('closes promptly with a request still hanging', async (t) => {
    const fake = await startFakePlatform();
    t.after(() => fake.close());
    fake.injectFault({ kind: 'hang', times: Infinity });
    const pending = fetch(`${fake.baseUrl}/videos?part=id&id=x&key=${KEY}`).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await fake.close();
    assert.ok(performance.now() - started < 3000, 'closes without waiting for the hanging answer');
    assert.ok((await pending) instanceof Error, 'the hanging request ends with a connection error');
  });

  it('adds the configured latency before every response', async (t) => {
    const fake = await start(t, { latencyMs: 80 });
    const time = async () => {
      const started = performance.now();
      await call(fake, 'channels', { part: 'id', forHandle: 'demo' });
      return performance.now() - started;
    };
    assert.ok((await time()) >= 79);
    fake.setLatency(150);
    assert.ok((await time()) >= 149);
    fake.setLatency(0);
    assert.ok((await time()) < 149, 'no latency once it is set to 0');
  });
});

describe('fake YouTube Data API: determinism and ids', () => {
  it('generates identical channels, pages and videos in two separate servers', async (t) => {
    const one = await start(t);
    const two = await start(t);
    for (const fake of [one, two])
      fake.addChannel({
        handle: 'twin',
        shortsCount: 75,
        newestPublishedAt: '2025-01-01T00:00:00Z',
        spacingMinutes: 30,
      });
    const read = async (fake: FakePlatform) => {
      const channel = await channelByHandle(fake, 'twin');
      const auto = await channelByHandle(fake, 'fake-12');
      const pages = await allPages(fake, shortsPlaylist(channel.id), 50, 'snippet,contentDetails');
      const ids = pages.flatMap((p) => p.items.map((i: Json) => i.contentDetails.videoId));
      const videos = await call(fake, 'videos', {
        part: 'snippet,statistics,contentDetails',
        id: ids.slice(0, 50).join(','),
      });
      return { channel, auto, pages, videos: videos.body };
    };
    const [a, b] = await Promise.all([read(one), read(two)]);
    assert.deepEqual(a, b);
    assert.equal(a.pages[0].items[0].contentDetails.videoPublishedAt, '2025-01-01T00:00:00Z');
    assert.equal(a.pages[0].items[1].contentDetails.videoPublishedAt, '2024-12-31T23:30:00Z');
  });

  it('makes YouTube-shaped ids that map back to their channel and position', () => {
    assert.equal(channelIdFor('x'), channelIdFor('x'));
    assert.notEqual(channelIdFor('x'), channelIdFor('y'));
    assert.match(channelIdFor('x'), CHANNEL_ID);
    const channel = channelIdFor('some channel');
    const seen = new Set<string>();
    for (const ordinal of [0, 1, 2, 999, 50_000, 1_048_575]) {
      const id = videoIdFor(channel, ordinal);
      assert.match(id, VIDEO_ID);
      assert.match(id.at(-1)!, /[AEIMQUYcgkosw048]/, 'the last character carries 4 bits, as on YouTube');
      assert.equal(parseVideoId(id)?.ordinal, ordinal);
      seen.add(id);
    }
    assert.equal(seen.size, 6);
    assert.equal(parseVideoId('dQw4w9WgXcQ'), undefined);
    assert.equal(parseVideoId('short'), undefined);
    assert.deepEqual(parsePlaylistPageToken('EAAaBlBUOkNESQ'), { offset: 50, backward: false });
    assert.equal(searchPageToken({ offset: 5, backward: false }), 'CAUQAA');
  });
});

describe('fake InnerTube: the protocol without youtubei.js', () => {
  const CONTEXT = { client: { clientName: 'WEB', clientVersion: '2.20260101.00.00', hl: 'en', gl: 'US' } };

  async function post(fake: FakePlatform, path: string, body: unknown, method = 'POST'): Promise<Reply> {
    const res = await fetch(`${fake.innertubeBaseUrl}/youtubei/v1/${path}?prettyPrint=false`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, headers: res.headers, body: JSON.parse(await res.text()) };
  }

  it('refuses requests without the client context, unknown paths and other methods', async (t) => {
    const fake = await start(t);
    assert.equal((await post(fake, 'browse', { browseId: 'UC' + 'A'.repeat(22) })).status, 400);
    assert.equal((await post(fake, 'browse', { context: CONTEXT })).status, 400, 'neither browseId nor continuation');
    assert.equal((await post(fake, 'browse', { context: CONTEXT, continuation: 'bm90IGEgdG9rZW4=' })).status, 400);
    assert.equal((await post(fake, 'no/such/thing', { context: CONTEXT })).status, 404);
    assert.equal((await post(fake, 'player', {}, 'GET')).status, 405);
    // config answers whatever it is sent.
    assert.equal((await post(fake, 'config', {})).status, 200);
    assert.deepEqual(
      fake.innertubeCalls().map((c) => [c.endpoint, c.status]),
      [
        ['browse', 400],
        ['browse', 400],
        ['browse', 400],
        ['no/such/thing', 404],
        ['player', 405],
        ['config', 200],
      ],
    );
    assert.equal(fake.quotaUsed(), 0);
    assert.deepEqual(fake.calls(), []);
  });

  it('resolves addresses to a browse endpoint and answers 404 for unknown ones', async (t) => {
    const fake = await start(t);
    const id = (await channelByHandle(fake, 'demo')).id;
    const reply = await post(fake, 'navigation/resolve_url', {
      context: CONTEXT,
      url: 'https://www.youtube.com/@demo/shorts',
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.endpoint.browseEndpoint.browseId, id);
    assert.equal(reply.body.endpoint.commandMetadata.webCommandMetadata.webPageType, 'WEB_PAGE_TYPE_CHANNEL');
    const unknown = await post(fake, 'navigation/resolve_url', {
      context: CONTEXT,
      url: 'https://www.youtube.com/@nobody-at-all',
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.status, 'NOT_FOUND');
    assert.equal(
      (await post(fake, 'navigation/resolve_url', { context: CONTEXT, url: 'https://example.com/@demo' })).status,
      404,
    );
  });

  it('serves the Shorts tab 48 at a time with continuation tokens that round-trip', async (t) => {
    const fake = await start(t);
    const id = (await channelByHandle(fake, 'demo')).id;
    const page = await post(fake, 'browse', { context: CONTEXT, browseId: id, params: 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D' });
    const tabs = page.body.contents.twoColumnBrowseResultsRenderer.tabs;
    assert.deepEqual(
      tabs.map((tab: Json) => [tab.tabRenderer.title, !!tab.tabRenderer.selected]),
      [
        ['Home', false],
        ['Shorts', true],
      ],
    );
    const grid = tabs[1].tabRenderer.content.richGridRenderer.contents;
    assert.equal(grid.length, 49);
    assert.ok(grid.slice(0, 48).every((cell: Json) => cell.richItemRenderer.content.shortsLockupViewModel));
    const token = grid[48].continuationItemRenderer.continuationEndpoint.continuationCommand.token;
    assert.match(token, /^4qmFsg/, "field 80226972, as in YouTube's tokens");
    assert.deepEqual(parseContinuationToken(token), { browseId: id, offset: 48 });
    const next = await post(fake, 'browse', { context: CONTEXT, continuation: token });
    const items = next.body.onResponseReceivedActions[0].appendContinuationItemsAction.continuationItems;
    assert.equal(items.length, 49);
    const last = await post(fake, 'browse', { context: CONTEXT, continuation: continuationToken(id, 96) });
    assert.equal(
      last.body.onResponseReceivedActions[0].appendContinuationItemsAction.continuationItems.length,
      24,
      '120 shorts: no token on the last page',
    );
    // Without params (or with another tab's) the Home tab is selected.
    const home = await post(fake, 'browse', { context: CONTEXT, browseId: id });
    assert.equal(home.body.contents.twoColumnBrowseResultsRenderer.tabs[0].tabRenderer.selected, true);
    assert.equal(home.body.metadata.channelMetadataRenderer.externalId, id);
  });

  it("writes counts and dates in YouTube's display styles", () => {
    assert.equal(subscriberText(4_326_000), '4.32M subscribers');
    assert.equal(subscriberText(172_950), '172K subscribers');
    assert.equal(subscriberText(1), '1 subscriber');
    assert.equal(shortViewText(2_999_999), '2.9M views');
    assert.equal(shortViewText(895_400), '895K views');
    assert.equal(shortViewText(1_234), '1.2K views');
    assert.equal(shortViewText(999), '999 views');
    assert.equal(shortViewText(15_600_000), '15M views');
    assert.equal(shortViewText(2_000_000), '2M views');
    assert.equal(shortViewText(1), '1 view');
    assert.equal(shortViewText(0), 'No views');
    // The player's publishDate is Pacific time with the offset of the day, to the second.
    assert.equal(pacificTimestamp('2026-06-01T12:00:00.456Z'), '2026-06-01T05:00:00-07:00');
    assert.equal(pacificTimestamp('2026-01-15T08:30:00Z'), '2026-01-15T00:30:00-08:00');
  });

  it('answers the player with details, a bot check or "unavailable"', async (t) => {
    const fake = await start(t);
    const id = (await channelByHandle(fake, 'demo')).id;
    const videoId = (await allPages(fake, 'UUSH' + id.slice(2)))[0].items[0].contentDetails.videoId;
    const ok = await post(fake, 'player', { context: CONTEXT, videoId });
    assert.equal(ok.body.playabilityStatus.status, 'OK');
    assert.equal(ok.body.videoDetails.videoId, videoId);
    assert.match(
      ok.body.microformat.playerMicroformatRenderer.publishDate,
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[78]:00$/,
    );
    fake.injectFault({ protocol: 'innertube', kind: 'botCheck' });
    const check = await post(fake, 'player', { context: CONTEXT, videoId });
    assert.equal(check.body.playabilityStatus.status, 'LOGIN_REQUIRED');
    assert.match(check.body.playabilityStatus.reason, /not a bot/);
    assert.equal(check.body.videoDetails, undefined);
    const gone = await post(fake, 'player', { context: CONTEXT, videoId: 'AAAAAAAAAAA' });
    assert.equal(gone.body.playabilityStatus.status, 'ERROR');
  });
});

describe('fake YouTube: shorts taken down and restored', () => {
  const CONTEXT = { client: { clientName: 'WEB', clientVersion: '2.20260101.00.00', hl: 'en', gl: 'US' } };
  const admin = (fake: FakePlatform, path: string, method: string) =>
    fetch(`${fake.innertubeBaseUrl}/__admin/channels/${path}`, { method });

  async function visible(fake: FakePlatform, channelId: string) {
    const pages = await allPages(fake, shortsPlaylist(channelId), 2, 'snippet,contentDetails');
    const items = pages.flatMap((page) => page.items);
    assert.ok(
      pages.every((page) => page.pageInfo.totalResults === items.length),
      'totalResults counts the visible shorts',
    );
    assert.deepEqual(
      items.map((item: Json) => item.snippet.position),
      items.map((_: Json, i: number) => i),
    );
    const tab = await fetch(`${fake.innertubeBaseUrl}/youtubei/v1/browse?prettyPrint=false`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ context: CONTEXT, browseId: channelId, params: 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D' }),
    });
    const tabIds = [
      ...new Set(
        [...(await tab.text()).matchAll(/"reelWatchEndpoint":\{"videoId":"([A-Za-z0-9_-]{11})"/g)].map((m) => m[1]),
      ),
    ];
    const playlistIds = items.map((item: Json) => item.contentDetails.videoId);
    assert.deepEqual(tabIds, playlistIds, 'the Shorts tab shows what the playlist shows');
    return { ids: playlistIds, videoCount: Number((await channelByHandle(fake, 'takedown')).statistics.videoCount) };
  }

  // Google leaves the items key out of an empty list.
  const listed = async (fake: FakePlatform, id: string) =>
    ((await call(fake, 'videos', { part: 'snippet', id })).body.items ?? []).map((v: Json) => v.id);

  it('DELETE takes a short out of the playlist, the tab, videos.list and the counts; restore puts it back in place', async (t) => {
    const fake = await start(t);
    const { id: channelId } = fake.addChannel({ handle: 'takedown', shortsCount: 5 });
    const before = await visible(fake, channelId);
    assert.equal(before.ids.length, 5);
    const gone = before.ids[1]!;

    const down = await admin(fake, `takedown/shorts/${gone}`, 'DELETE');
    assert.equal(down.status, 200);
    assert.deepEqual(await down.json(), { videoId: gone, channelId, visible: false });
    assert.equal((await admin(fake, `takedown/shorts/${gone}`, 'DELETE')).status, 200, 'idempotent');
    const during = await visible(fake, channelId);
    assert.deepEqual(during, { ids: before.ids.filter((id) => id !== gone), videoCount: 4 });
    assert.deepEqual(
      await listed(fake, `${gone},${before.ids[0]}`),
      [before.ids[0]],
      'videos.list returns no item for it',
    );

    // A short published meanwhile is the newest; the one taken down stays down.
    const { videoId: fresh } = await fake.publishShort('takedown');
    assert.deepEqual((await visible(fake, channelId)).ids, [fresh, ...before.ids.filter((id) => id !== gone)]);

    const up = await admin(fake, `takedown/shorts/${gone}/restore`, 'POST');
    assert.equal(up.status, 200);
    assert.deepEqual(await up.json(), { videoId: gone, channelId, visible: true });
    assert.deepEqual(await visible(fake, channelId), { ids: [fresh, ...before.ids], videoCount: 6 });
    assert.deepEqual(await listed(fake, gone), [gone]);
  });

  it('has programmatic twins, and refuses unknown channels, foreign ids and other methods', async (t) => {
    const fake = await start(t);
    const { id: channelId } = fake.addChannel({ handle: 'takedown', shortsCount: 3 });
    const [newest, middle] = (await visible(fake, channelId)).ids;
    assert.deepEqual(await fake.takeDownShort('takedown', newest!), { videoId: newest, channelId, visible: false });
    assert.deepEqual((await visible(fake, channelId)).ids.length, 2);
    assert.deepEqual(await listed(fake, newest!), []);
    const player = async () => {
      const res = await fetch(`${fake.innertubeBaseUrl}/youtubei/v1/player?prettyPrint=false`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ context: CONTEXT, videoId: newest }),
      });
      return ((await res.json()) as Json).playabilityStatus.status;
    };
    assert.equal(await player(), 'ERROR', 'the player calls it unavailable');
    assert.deepEqual(await fake.restoreShort('@takedown', newest!), { videoId: newest, channelId, visible: true });
    assert.deepEqual((await visible(fake, channelId)).ids.slice(0, 2), [newest, middle]);
    assert.equal(await player(), 'OK');

    await assert.rejects(fake.takeDownShort('nobody-here', newest!), /no channel/);
    await assert.rejects(fake.takeDownShort('demo', newest!), /not a short of @demo/);
    assert.equal((await admin(fake, `nobody-here/shorts/${newest}`, 'DELETE')).status, 404);
    assert.equal((await admin(fake, `demo/shorts/${newest}/restore`, 'POST')).status, 404);
    assert.equal((await admin(fake, `takedown/shorts/AAAAAAAAAAA`, 'DELETE')).status, 404);
    assert.equal((await admin(fake, `takedown/shorts/${newest}`, 'GET')).status, 405);
    assert.equal((await admin(fake, `takedown/shorts/${newest}/restore`, 'DELETE')).status, 405);
  });
});

describe('local placeholder images (an offline demo)', () => {
  it("points YouTube's image URLs at the fake, which serves an SVG for each; off, they stay YouTube's", async (t) => {
    const local = await start(t, { localImages: true });
    const channel = await channelByHandle(local, '@demo');
    const avatar: string = channel.snippet.thumbnails.default.url;
    assert.ok(avatar.startsWith(`${local.innertubeBaseUrl}/__images/yt3.ggpht.com/`), avatar);
    assert.ok(
      String(channel.brandingSettings.image.bannerExternalUrl).startsWith(`${local.innertubeBaseUrl}/__images/`),
    );
    const image = await fetch(avatar);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/svg+xml');
    assert.match(await image.text(), /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);

    const remote = await start(t);
    assert.match(
      (await channelByHandle(remote, '@demo')).snippet.thumbnails.default.url,
      /^https:\/\/yt3\.ggpht\.com\//,
    );
  });
});

describe("fake YouTube: a short's counts move", () => {
  const CONTEXT = { client: { clientName: 'WEB', clientVersion: '2.20260101.00.00', hl: 'en', gl: 'US' } };
  const setStats = (fake: FakePlatform, path: string, body: unknown, method = 'POST') =>
    fetch(`${fake.innertubeBaseUrl}/__admin/channels/${path}/statistics`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: method === 'POST' ? JSON.stringify(body) : undefined,
    });
  const videoStats = async (fake: FakePlatform, id: string) =>
    (await call(fake, 'videos', { part: 'statistics', id })).body.items[0].statistics;
  const playerViews = async (fake: FakePlatform, videoId: string) => {
    const res = await fetch(`${fake.innertubeBaseUrl}/youtubei/v1/player?prettyPrint=false`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ context: CONTEXT, videoId }),
    });
    return ((await res.json()) as Json).videoDetails.viewCount;
  };

  it('POST …/statistics sets the counts videos.list and the player show, as strings', async (t) => {
    const fake = await start(t);
    const { id: channelId } = fake.addChannel({ handle: 'movers', shortsCount: 3 });
    const videoId = videoIdFor(channelId, 1);
    const before = await videoStats(fake, videoId);
    const res = await setStats(fake, `movers/shorts/${videoId}`, { viewCount: '123456', likeCount: '789' });
    assert.equal(res.status, 200);
    const body = (await res.json()) as Json;
    assert.deepEqual(body, {
      videoId,
      channelId,
      statistics: { ...before, viewCount: '123456', likeCount: '789' },
    });
    assert.deepEqual(await videoStats(fake, videoId), { ...before, viewCount: '123456', likeCount: '789' });
    assert.equal(await playerViews(fake, videoId), '123456');
    await fake.setShortStatistics('movers', videoId, { commentCount: '5' });
    assert.deepEqual(await videoStats(fake, videoId), {
      ...before,
      viewCount: '123456',
      likeCount: '789',
      commentCount: '5',
    });
  });

  it('refuses counts that are not decimal strings, unknown channels, foreign ids and other methods', async (t) => {
    const fake = await start(t);
    const { id: channelId } = fake.addChannel({ handle: 'movers', shortsCount: 2 });
    const videoId = videoIdFor(channelId, 0);
    for (const body of [{ viewCount: 5 }, { viewCount: '-1' }, { viewCount: '1e3' }, {}, [], 'x'])
      assert.equal((await setStats(fake, `movers/shorts/${videoId}`, body)).status, 400, JSON.stringify(body));
    assert.equal((await setStats(fake, `nobody-here/shorts/${videoId}`, { viewCount: '1' })).status, 404);
    assert.equal((await setStats(fake, `demo/shorts/${videoId}`, { viewCount: '1' })).status, 404);
    assert.equal((await setStats(fake, `movers/shorts/${videoId}`, undefined, 'GET')).status, 405);
    await assert.rejects(fake.setShortStatistics('movers', videoId, { viewCount: 'many' }), TypeError);
  });

  it('grows views with the fake clock when the growth model is on, from the counts last set', async (t) => {
    let now = Date.parse('2026-07-01T00:00:00Z');
    const fake = await start(t, { growth: { now: () => now } });
    const { id: channelId } = fake.addChannel({ handle: 'growing', shortsCount: 2 });
    const videoId = videoIdFor(channelId, 0);
    const first = await videoStats(fake, videoId);
    now += 10 * 3_600_000;
    const later = await videoStats(fake, videoId);
    const gained = Number(later.viewCount) - Number(first.viewCount);
    assert.ok(gained >= 10, `gained ${gained} views in ten hours`);
    assert.ok(Number(later.likeCount) >= Number(first.likeCount));
    assert.equal(await playerViews(fake, videoId), later.viewCount);
    await fake.setShortStatistics('growing', videoId, { viewCount: '1000' });
    assert.equal((await videoStats(fake, videoId)).viewCount, '1000');
    now += 10 * 3_600_000;
    assert.equal(
      Number((await videoStats(fake, videoId)).viewCount) - 1000,
      gained,
      'the same rate, from the set count',
    );
  });

  it('keeps counts still without the growth model', async (t) => {
    const fake = await start(t);
    const { id: channelId } = fake.addChannel({ handle: 'still', shortsCount: 1 });
    const videoId = videoIdFor(channelId, 0);
    assert.deepEqual(await videoStats(fake, videoId), await videoStats(fake, videoId));
  });
});
