// The spec's Channel and Short tables as data, to check responses field by field.
import assert from 'node:assert/strict';

type FieldType = 'string' | 'number' | 'boolean' | 'thumbnails' | 'localized' | 'string[]';

export const CHANNEL_FIELDS: Record<string, FieldType> = {
  kind: 'string',
  etag: 'string',
  id: 'string',
  'snippet.title': 'string',
  'snippet.description': 'string',
  'snippet.customUrl': 'string',
  'snippet.publishedAt': 'string',
  'snippet.thumbnails': 'thumbnails',
  'snippet.defaultLanguage': 'string',
  'snippet.localized': 'localized',
  'snippet.country': 'string',
  'statistics.viewCount': 'string',
  'statistics.subscriberCount': 'string',
  'statistics.hiddenSubscriberCount': 'boolean',
  'statistics.videoCount': 'string',
  'brandingSettings.channel.title': 'string',
  'brandingSettings.channel.description': 'string',
  'brandingSettings.channel.keywords': 'string',
  'brandingSettings.channel.trackingAnalyticsAccountId': 'string',
  'brandingSettings.channel.moderateComments': 'boolean',
  'brandingSettings.channel.unsubscribedTrailer': 'string',
  'brandingSettings.channel.defaultLanguage': 'string',
  'brandingSettings.channel.country': 'string',
  'brandingSettings.image.bannerExternalUrl': 'string',
};

export const SHORT_FIELDS: Record<string, FieldType> = {
  kind: 'string',
  etag: 'string',
  id: 'string',
  'snippet.publishedAt': 'string',
  'snippet.channelId': 'string',
  'snippet.title': 'string',
  'snippet.description': 'string',
  'snippet.thumbnails': 'thumbnails',
  'snippet.channelTitle': 'string',
  'snippet.channelHandle': 'string',
  'snippet.channelCustomUrl': 'string',
  'snippet.tags': 'string[]',
  'snippet.categoryId': 'string',
  'snippet.liveBroadcastContent': 'string',
  'snippet.defaultLanguage': 'string',
  'snippet.localized': 'localized',
  'snippet.defaultAudioLanguage': 'string',
  'statistics.viewCount': 'string',
  'statistics.likeCount': 'string',
  'statistics.dislikeCount': 'string',
  'statistics.favoriteCount': 'string',
  'statistics.commentCount': 'string',
  shortUrl: 'string',
  // Extensions: the duration as the platform gives it, and in seconds.
  'contentDetails.duration': 'string',
  durationSeconds: 'number',
};

function get(object: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], object);
}

function checkType(value: unknown, type: FieldType, where: string): void {
  switch (type) {
    case 'string':
    case 'number':
    case 'boolean':
      assert.equal(typeof value, type, `${where} should be a ${type}`);
      break;
    case 'string[]':
      assert.ok(
        Array.isArray(value) && value.every((v) => typeof v === 'string'),
        `${where} should be an array of strings`,
      );
      break;
    case 'localized':
      assert.deepEqual(Object.keys(value as object).sort(), ['description', 'title'], where);
      break;
    case 'thumbnails':
      for (const [size, thumb] of Object.entries(value as object)) {
        assert.ok(
          ['default', 'medium', 'high', 'standard', 'maxres'].includes(size),
          `${where}.${size} is a known size`,
        );
        assert.deepEqual(Object.keys(thumb).sort(), ['height', 'url', 'width'], `${where}.${size}`);
        assert.equal(typeof thumb.url, 'string');
        assert.equal(typeof thumb.width, 'number');
        assert.equal(typeof thumb.height, 'number');
      }
      break;
  }
}

/**
 * Every present field has the spec's type; no field outside the spec exists; nothing is null.
 * `mustHave` lists fields that must be present (the rest may be omitted when the platform lacks them).
 */
export function assertSpecShape(
  object: unknown,
  fields: Record<string, FieldType>,
  mustHave: string[],
  label: string,
): void {
  for (const [path, type] of Object.entries(fields)) {
    const value = get(object, path);
    if (value === undefined) {
      assert.ok(!mustHave.includes(path), `${label}: ${path} is missing`);
      continue;
    }
    assert.notEqual(value, null, `${label}: ${path} is null (absent values are omitted)`);
    checkType(value, type, `${label}: ${path}`);
  }
  const allowedPrefixes = new Set(
    Object.keys(fields).flatMap((path) => path.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.'))),
  );
  const walk = (value: unknown, prefix: string) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${key}` : key;
      assert.ok(allowedPrefixes.has(path), `${label}: unexpected field ${path}`);
      if (fields[path] === undefined) walk(child, path);
    }
  };
  walk(object, '');
}
