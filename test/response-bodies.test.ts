// The success body's JSON (src/domain/requests/response-bodies.ts): put together from shorts rendered
// ahead while the rest of the channel was read, it must be byte for byte what rendering the
// whole result at once gives, whichever shorts were rendered ahead.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { prerenderShorts, renderSuccessJson, successBody } from '../src/domain/requests/response-bodies.ts';
import { channelIdentity, toChannel, toShort } from '../src/domain/shorts/mapping.ts';
import type { ShortsResult } from '../src/domain/shorts/shorts-result.ts';
import type { YtVideo } from '../src/domain/shorts/youtube-types.ts';

const channel = toChannel({
  kind: 'youtube#channel',
  etag: 'e',
  id: 'UCabcdefghijklmnopqrstuv',
  snippet: {
    title: 'Ünïcode “quotes” \u2028 and </script>',
    customUrl: '@chan',
    thumbnails: { default: { url: 'https://i.ytimg.com/a.jpg', width: 88, height: 88 } },
  },
  statistics: { viewCount: '12', videoCount: '3' },
});
const identity = channelIdentity(channel);

function video(i: number): YtVideo {
  return {
    kind: 'youtube#video',
    etag: `etag${i}`,
    id: `vid${String(i).padStart(8, '0')}`,
    snippet: {
      publishedAt: `2026-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:00Z`,
      channelId: channel.id,
      title: i % 3 === 0 ? `emoji 🎬 #${i}` : `short "${i}"\n\\`,
      ...(i % 2 ? { tags: ['a', 'b'] } : {}),
    },
    statistics: { viewCount: String(i * 7), likeCount: String(i) },
    ...(i % 4 ? { contentDetails: { duration: `PT${(i % 59) + 1}S` } } : {}),
  } as YtVideo;
}

function result(count: number): ShortsResult {
  return {
    channel,
    shorts: Array.from({ length: count }, (_, i) => toShort(video(i), identity)),
    truncated: false,
    fetchedAt: '2026-11-26T00:00:00.000Z',
    source: 'data-api',
  };
}

function dataOf(r: ShortsResult): string {
  const { chunks } = renderSuccessJson(successBody('req_1', r, 1, 3000), r);
  return chunks[1].toString('utf8');
}

describe('success body rendering', () => {
  it('is JSON.stringify of the channel and its shorts, with none, some or all shorts rendered ahead', () => {
    for (const ahead of ['none', 'some', 'all'] as const) {
      const r = result(120);
      if (ahead === 'all') prerenderShorts(r.shorts);
      if (ahead === 'some') prerenderShorts(r.shorts.filter((_, i) => i % 3 === 1));
      assert.equal(dataOf(r), JSON.stringify({ channel: r.channel, shorts: r.shorts }), ahead);
    }
  });

  it('is exact for a sorted or filtered result of shorts rendered ahead, and for an empty one', () => {
    const r = result(60);
    prerenderShorts(r.shorts);
    const arranged: ShortsResult = { ...r, shorts: [...r.shorts].reverse().filter((_, i) => i % 2 === 0) };
    assert.equal(dataOf(arranged), JSON.stringify({ channel: arranged.channel, shorts: arranged.shorts }));
    // Used once, then dropped: the original result renders from the shorts themselves and is still exact.
    assert.equal(dataOf(r), JSON.stringify({ channel: r.channel, shorts: r.shorts }));
    const empty: ShortsResult = { ...r, shorts: [] };
    assert.equal(dataOf(empty), JSON.stringify({ channel: empty.channel, shorts: [] }));
  });

  it('renders a result once and shares its bytes with every later response', () => {
    const r = result(5);
    const first = renderSuccessJson(successBody('req_a', r, 1, 3000), r);
    const second = renderSuccessJson(successBody('req_b', r, 1, 3000), r);
    assert.equal(first.chunks[1], second.chunks[1]);
    assert.notDeepEqual(first.chunks[0], second.chunks[0], 'each response has its own request id');
  });
});
