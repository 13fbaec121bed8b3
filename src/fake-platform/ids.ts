// Deterministic identifiers shaped like YouTube's, so two fakes (or two runs) agree on every id.
//
// Channel ids are "UC" + 128 bits in base64url (22 characters), as real ones are. Video ids are 64
// bits in base64url (11 characters, the last one from a 16-letter set, as on YouTube). A video id is
// a keyed permutation (a Feistel network, round keys from SHA-256) of the pair (channel key, ordinal),
// so the fake can map an id back to its channel and position without keeping an index of every
// video it ever generated: a 50,000-short channel costs no memory until read. The rounds use integer
// mixing rather than a digest per round because ids are made and parsed on every page served.
import { createHash } from 'node:crypto';

const ORDINAL_BITS = 20;
/** The largest number of videos one channel can hold (ordinals are 20 bits). */
export const MAX_VIDEOS_PER_CHANNEL = 2 ** ORDINAL_BITS;
const ORDINAL_MASK = MAX_VIDEOS_PER_CHANNEL - 1;
const ROUNDS = 4;
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

function sha256(seed: string): Buffer {
  return createHash('sha256').update(seed).digest();
}

export function channelIdFor(seed: string): string {
  return 'UC' + sha256(`channel:${seed}`).subarray(0, 16).toString('base64url');
}

/** A 32-bit number standing for a channel inside its video ids. */
export function channelKey(channelId: string): number {
  return sha256(`channel-key:${channelId}`).readUInt32BE(0);
}

/** Twelve bits that must match the channel key, so random 11-character strings do not decode. */
function checkBits(key: number): number {
  return ((key >>> 20) ^ (key >>> 8) ^ key) & 0xfff;
}

/** MurmurHash3's 32-bit finalizer: a fast, well-spread bijection on unsigned 32-bit numbers. */
function fmix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

const ROUND_KEYS = Array.from({ length: ROUNDS }, (_, i) => sha256('video-id-rounds').readUInt32BE(i * 4));

function round(index: number, half: number): number {
  return fmix32((half ^ ROUND_KEYS[index]!) >>> 0);
}

/** A deterministic unsigned 32-bit number for a tuple of numbers (cheap; for per-video fields). */
export function mixNumbers(...values: number[]): number {
  let hash = 0x9e3779b9;
  for (const value of values) hash = fmix32((hash ^ fmix32(value >>> 0)) >>> 0);
  return hash;
}

/** `ordinal` counts from the channel's oldest video (0), so ids stay put when a channel grows. */
export function videoIdFor(channelId: string, ordinal: number): string {
  return videoIdForKey(channelKey(channelId), ordinal);
}

export function videoIdForKey(key: number, ordinal: number): string {
  if (!Number.isInteger(ordinal) || ordinal < 0 || ordinal > ORDINAL_MASK)
    throw new RangeError(`video ordinal out of range: ${ordinal}`);
  let left = key;
  let right = ((checkBits(key) << ORDINAL_BITS) | ordinal) >>> 0;
  for (let r = 0; r < ROUNDS; r++) [left, right] = [right, (left ^ round(r, right)) >>> 0];
  const bytes = Buffer.alloc(8);
  bytes.writeUInt32BE(left, 0);
  bytes.writeUInt32BE(right, 4);
  return bytes.toString('base64url');
}

/** The inverse of videoIdFor: which channel key and ordinal an id stands for, if it is one of ours. */
export function parseVideoId(id: string): { key: number; ordinal: number } | undefined {
  if (!VIDEO_ID.test(id)) return undefined;
  const bytes = Buffer.from(id, 'base64url');
  // Non-canonical spellings (stray low bits in the last character) are not ids we issued.
  if (bytes.length !== 8 || bytes.toString('base64url') !== id) return undefined;
  let left = bytes.readUInt32BE(0);
  let right = bytes.readUInt32BE(4);
  for (let r = ROUNDS - 1; r >= 0; r--) [left, right] = [(right ^ round(r, left)) >>> 0, left];
  if (right >>> ORDINAL_BITS !== checkBits(left)) return undefined;
  return { key: left, ordinal: right & ORDINAL_MASK };
}

/** Etags look like Google's today: 27 characters of base64url, stable for the same content. */
export function etagFor(content: string): string {
  return createHash('sha1').update(content).digest('base64url');
}

/** A deterministic unsigned 32-bit number for a seed, for channel-level counts and dates. */
export function seededNumber(seed: string): number {
  return sha256(`number:${seed}`).readUInt32BE(0);
}

/** A deterministic base64url string of `length` characters, for thumbnail and banner paths. */
export function seededToken(seed: string, length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i++) out += sha256(`token:${i}:${seed}`).toString('base64url');
  return out.slice(0, length);
}
