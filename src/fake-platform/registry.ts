// The fake's channels and how requests find them: by id, handle, legacy username, playlist id or
// video id. Unknown handles of the form fake-<N> become generated channels with N shorts, so tests
// and benchmarks can ask for any size without setting anything up.
import { generateChannel, type ChannelSpec, type GeneratedChannel } from './channel-generator.ts';
import { parseVideoId, videoIdForKey } from './ids.ts';
import type { CountsInput, ShortStatistics } from './statistics.ts';

export const MAX_AUTO_SHORTS = 100_000;
const AUTO_HANDLE = /^fake-(\d{1,6})$/;

export const DEMO_CHANNELS: readonly ChannelSpec[] = [
  { handle: 'demo', shortsCount: 120, title: 'Demo Channel' },
  { handle: 'empty', shortsCount: 0, title: 'Empty Channel' },
  { handle: 'sparse', shortsCount: 5, title: 'Sparse Channel', omitOptional: true },
  { handle: 'democustom', shortsCount: 30, title: 'Demo Custom', username: 'DemoUser', customUrl: '@democustom' },
];

/** Handles compare case-insensitively, in NFC, with or without the "@". */
export function normalizeHandle(raw: string): string {
  return raw.trim().replace(/^@/, '').normalize('NFC').toLowerCase();
}

export interface PlaylistRef {
  channel: GeneratedChannel;
  /** "UU" (all uploads) or "UUSH" (Shorts); both hold the channel's shorts here. */
  prefix: 'UU' | 'UUSH';
}

export class ChannelRegistry {
  readonly #byId = new Map<string, GeneratedChannel>();
  readonly #byHandle = new Map<string, GeneratedChannel>();
  readonly #byUsername = new Map<string, GeneratedChannel>();
  readonly #byKey = new Map<number, GeneratedChannel>();
  readonly #autoGenerate: boolean;
  readonly #statistics: ShortStatistics;

  constructor(autoGenerate: boolean, statistics: ShortStatistics) {
    this.#autoGenerate = autoGenerate;
    this.#statistics = statistics;
  }

  add(spec: ChannelSpec): GeneratedChannel {
    const generated = generateChannel(spec);
    // Every answer that shows a short's counts reads them from video(): the counts set and the
    // growth model apply there once.
    const channel: GeneratedChannel = {
      ...generated,
      video: (index) => this.#statistics.apply(generated.video(index)),
    };
    const previous = this.#byHandle.get(normalizeHandle(channel.handle));
    if (previous) this.#remove(previous);
    const sameId = this.#byId.get(channel.id);
    if (sameId) this.#remove(sameId);
    this.#byId.set(channel.id, channel);
    this.#byHandle.set(normalizeHandle(channel.handle), channel);
    if (spec.username) this.#byUsername.set(spec.username.toLowerCase(), channel);
    this.#byKey.set(channel.key, channel);
    return channel;
  }

  /** Publishes a new short on a channel now (it becomes the newest); undefined for an unknown handle. */
  publish(handle: string, at: Date): { channel: GeneratedChannel; videoId: string; publishedAt: string } | undefined {
    const current = this.byHandle(handle);
    if (!current) return undefined;
    const publishedAt = at.toISOString().slice(0, 19) + 'Z';
    const channel = this.add({
      ...current.spec,
      id: current.id,
      shortsCount: current.spec.shortsCount + 1,
      publishedLater: [...(current.spec.publishedLater ?? []), publishedAt],
    });
    return { channel, videoId: channel.videoId(0), publishedAt };
  }

  /**
   * Takes a channel's short down (visible: false), as when it is made private or removed, or puts
   * it back (visible: true) at its old place. Undefined for an unknown handle; a RangeError for a
   * video id that is not one of the channel's shorts. Idempotent.
   */
  setShortVisible(
    handle: string,
    videoId: string,
    visible: boolean,
  ): { channel: GeneratedChannel; videoId: string; changed: boolean } | undefined {
    const current = this.byHandle(handle);
    if (!current) return undefined;
    const parsed = ordinalOf(current, videoId);
    const takenDown = new Set(current.spec.takenDown ?? []);
    if (takenDown.has(parsed.ordinal) !== visible) return { channel: current, videoId, changed: false };
    if (visible) takenDown.delete(parsed.ordinal);
    else takenDown.add(parsed.ordinal);
    const channel = this.add({ ...current.spec, id: current.id, takenDown: [...takenDown].sort((x, y) => x - y) });
    return { channel, videoId, changed: true };
  }

  /**
   * Sets a short's counts (decimal strings, as the Data API sends them); with the growth model on,
   * it grows from them. Undefined for an unknown handle; a RangeError for a foreign video id.
   */
  setShortStatistics(handle: string, videoId: string, counts: CountsInput): { channel: GeneratedChannel } | undefined {
    const channel = this.byHandle(handle);
    if (!channel) return undefined;
    ordinalOf(channel, videoId);
    this.#statistics.set(videoId, counts);
    return { channel };
  }

  #remove(channel: GeneratedChannel): void {
    this.#byId.delete(channel.id);
    this.#byHandle.delete(normalizeHandle(channel.handle));
    if (channel.spec.username) this.#byUsername.delete(channel.spec.username.toLowerCase());
    this.#byKey.delete(channel.key);
  }

  all(): IterableIterator<GeneratedChannel> {
    return this.#byId.values();
  }

  byId(id: string): GeneratedChannel | undefined {
    return this.#byId.get(id);
  }

  byUsername(name: string): GeneratedChannel | undefined {
    return this.#byUsername.get(name.trim().toLowerCase());
  }

  byHandle(raw: string): GeneratedChannel | undefined {
    const handle = normalizeHandle(raw);
    const known = this.#byHandle.get(handle);
    if (known || !this.#autoGenerate) return known;
    const match = AUTO_HANDLE.exec(handle);
    const count = match ? Number(match[1]) : NaN;
    if (!(count <= MAX_AUTO_SHORTS)) return undefined;
    return this.add({ handle, shortsCount: count, title: `Fake ${count}` });
  }

  playlist(playlistId: string): PlaylistRef | undefined {
    const match = /^(UUSH|UU)([A-Za-z0-9_-]{22})$/.exec(playlistId);
    if (!match) return undefined;
    const channel = this.#byId.get('UC' + match[2]);
    return channel ? { channel, prefix: match[1] as PlaylistRef['prefix'] } : undefined;
  }

  video(id: string): { channel: GeneratedChannel; index: number } | undefined {
    const parsed = parseVideoId(id);
    const channel = parsed && this.#byKey.get(parsed.key);
    const index = channel?.indexOfOrdinal(parsed!.ordinal);
    return channel && index !== undefined && channel.videoId(index) === id ? { channel, index } : undefined;
  }
}

/** The ordinal of one of the channel's shorts; a RangeError for any other id. */
function ordinalOf(channel: GeneratedChannel, videoId: string): { ordinal: number } {
  const parsed = parseVideoId(videoId);
  if (
    !parsed ||
    parsed.key !== channel.key ||
    parsed.ordinal >= channel.spec.shortsCount ||
    videoIdForKey(channel.key, parsed.ordinal) !== videoId
  ) {
    throw new RangeError(`${videoId} is not a short of @${channel.handle}`);
  }
  return parsed;
}
