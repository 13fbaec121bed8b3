// API key format, GitHub style: recognisable prefix + 192-bit random body + CRC32 checksum.
// The checksum lets us reject typos and scanners' junk without a database lookup; the
// prefix makes leaked keys easy to spot in code and logs. Only the SHA-256 of a key is stored.
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const KEY_PREFIX = 'csk_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 32; // 32 base62 chars ≈ 190 bits
const CHECKSUM_LENGTH = 6;
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 8;

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const body = randomBase62(BODY_LENGTH);
  const key = KEY_PREFIX + body + checksum(body);
  return { key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashApiKey(key) };
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(KEY_PREFIX);
}

/** Structure and checksum only; existence is checked against the store. */
export function isWellFormedApiKey(token: string): boolean {
  if (token.length !== KEY_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH || !token.startsWith(KEY_PREFIX)) return false;
  const body = token.slice(KEY_PREFIX.length, KEY_PREFIX.length + BODY_LENGTH);
  if (![...body].every((c) => ALPHABET.includes(c))) return false;
  return token.slice(KEY_PREFIX.length + BODY_LENGTH) === checksum(body);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // Rejection sampling keeps every character equally likely (248 = 4 * 62).
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

function checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}
