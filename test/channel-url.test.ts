import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeChannelUrl, parseChannelUrl } from '../src/domain/shorts/channel-url.ts';

describe('channel URL parsing', () => {
  const ok: Array<[string, { type: string; value: string; bare?: true }]> = [
    ['https://www.youtube.com/@MrBeast', { type: 'handle', value: 'MrBeast' }],
    ['https://youtube.com/@mrbeast/shorts', { type: 'handle', value: 'mrbeast' }],
    ['https://m.youtube.com/@demo/videos?view=0&sort=p', { type: 'handle', value: 'demo' }],
    ['http://www.youtube.com/@demo/', { type: 'handle', value: 'demo' }],
    ['https://music.youtube.com/@demo#top', { type: 'handle', value: 'demo' }],
    [
      'https://www.youtube.com/@%E6%97%A5%E6%9C%AC%E8%AA%9E%E3%81%A1%E3%82%83%E3%82%93',
      { type: 'handle', value: '日本語ちゃん' },
    ],
    ['https://www.youtube.com/@café.tv', { type: 'handle', value: 'café.tv' }],
    // The Latin middle dot is allowed in handles.
    ['https://www.youtube.com/@col·legi', { type: 'handle', value: 'col·legi' }],
    ['https://www.youtube.com/@col%C2%B7legi/shorts', { type: 'handle', value: 'col·legi' }],
    ['https://www.youtube.com/channel/UCX6OQ3DkcsbYNE6H8uQQuVA', { type: 'id', value: 'UCX6OQ3DkcsbYNE6H8uQQuVA' }],
    [
      'https://www.youtube.com/channel/UCX6OQ3DkcsbYNE6H8uQQuVA/shorts?x=1',
      { type: 'id', value: 'UCX6OQ3DkcsbYNE6H8uQQuVA' },
    ],
    ['https://www.youtube.com/user/DemoUser', { type: 'username', value: 'DemoUser' }],
    ['https://www.youtube.com/c/democustom/videos', { type: 'custom', value: 'democustom' }],
    ['https://www.youtube.com/democustom', { type: 'custom', value: 'democustom', bare: true }],
    ['  https://WWW.YOUTUBE.COM/@demo  ', { type: 'handle', value: 'demo' }],
    // As people type them: without https://, a bare handle, a bare channel id.
    ['youtube.com/@demo', { type: 'handle', value: 'demo' }],
    ['www.youtube.com/@demo/shorts', { type: 'handle', value: 'demo' }],
    ['m.youtube.com/@demo', { type: 'handle', value: 'demo' }],
    ['@demo', { type: 'handle', value: 'demo' }],
    ['@demo/shorts', { type: 'handle', value: 'demo' }],
    ['UCX6OQ3DkcsbYNE6H8uQQuVA', { type: 'id', value: 'UCX6OQ3DkcsbYNE6H8uQQuVA' }],
    ['https://user:pw@www.youtube.com/@demo', { type: 'handle', value: 'demo' }],
  ];
  for (const [input, expected] of ok) {
    it(`accepts ${input.trim()}`, () => assert.deepEqual(parseChannelUrl(input), expected));
  }

  const bad: Array<[string, RegExp]> = [
    ['not a url', /not a channel address/],
    ['demo', /not a channel address/],
    ['example.com/@demo', /not a channel address/],
    ['@', /not a channel address/],
    ['ftp://www.youtube.com/@demo', /scheme/],
    ['https://example.com/@demo', /not a YouTube host/],
    ['https://youtu.be/dQw4w9WgXcQ', /video/],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', /video/],
    ['https://www.youtube.com/shorts/abcdefghijk', /video/],
    ['https://www.youtube.com/', /no channel path/],
    ['https://www.youtube.com/channel/notanid', /UC/],
    ['https://www.youtube.com/@a', /not a valid handle/],
    ['https://www.youtube.com/@demo/shorts/extra', /Unexpected path/],
    ['https://www.youtube.com/@demo/unknown-tab', /Unexpected path/],
    ['https://www.youtube.com/playlist?list=PL123', /not a channel path/],
    ['https://www.youtube.com/@%E0%A4%A', /percent-encoding/],
    ['https://www.youtube.com/user/', /channel name/],
  ];
  for (const [input, pattern] of bad) {
    it(`rejects ${input} with a message listing the accepted forms`, () => {
      assert.throws(
        () => parseChannelUrl(input),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, 'INVALID_CHANNEL_URL');
          assert.match(error.message, pattern);
          assert.match(
            error.message,
            /Accepted forms: .*@handle.*\/channel\/UC.*\/user\/name.*\/c\/name.*bare @handle/,
          );
          return true;
        },
      );
    });
  }

  it('records an address with https:// and without credentials, whatever was typed', () => {
    const cases: Array<[string, string]> = [
      ['@demo', 'https://www.youtube.com/@demo'],
      ['UCX6OQ3DkcsbYNE6H8uQQuVA', 'https://www.youtube.com/channel/UCX6OQ3DkcsbYNE6H8uQQuVA'],
      ['youtube.com/@demo', 'https://youtube.com/@demo'],
      [' https://www.youtube.com/@demo ', 'https://www.youtube.com/@demo'],
      ['https://user:pw@www.youtube.com/@demo', 'https://www.youtube.com/@demo'],
      ['https://user@youtube.com/@demo', 'https://youtube.com/@demo'],
      ['user:pw@m.youtube.com/@demo', 'https://m.youtube.com/@demo'],
      ['https://user:pw@example.com/x', 'https://example.com/x'],
      ['https:\\\\user:pw@youtube.com/@demo', 'https:\\\\youtube.com/@demo'],
      ['not a url', 'not a url'],
    ];
    for (const [typed, recorded] of cases) assert.equal(normalizeChannelUrl(typed), recorded, typed);
  });
});
