// Page tokens in Google's own encodings (small protobuf messages in unpadded base64url), so clients
// see the tokens they will see in production and cannot rely on a format of ours:
//  - playlistItems: "EAAaBlBUOkNESQ" = {2: direction, 3: "PT:" + base64({1: offset})}; offset 50 here.
//  - search:        "CAUQAA"         = {1: offset, 2: direction}; offset 5 here.
// Direction 0 reads forward from the offset, 1 reads the page that ends just before it.

export interface PagePosition {
  offset: number;
  backward: boolean;
}

export function varint(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

function readVarint(bytes: Uint8Array, at: number): [value: number, next: number] | undefined {
  let value = 0;
  let scale = 1;
  for (let i = at; i < bytes.length && i < at + 8; i++) {
    const byte = bytes[i]!;
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) return [value, i + 1];
    scale *= 128;
  }
  return undefined;
}

const encode = (bytes: number[]) => Buffer.from(bytes).toString('base64url');

function decode(token: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  return bytes.toString('base64url') === token ? bytes : undefined;
}

/** Reads a message whose fields are all varints or strings; undefined if it is not one (also used by innertube.ts). */
export function fields(bytes: Uint8Array): Map<number, number | Uint8Array> | undefined {
  const out = new Map<number, number | Uint8Array>();
  let at = 0;
  while (at < bytes.length) {
    const tag = readVarint(bytes, at);
    if (!tag) return undefined;
    const [key, afterTag] = tag;
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) {
      const value = readVarint(bytes, afterTag);
      if (!value) return undefined;
      out.set(field, value[0]);
      at = value[1];
    } else if (wire === 2) {
      const length = readVarint(bytes, afterTag);
      if (!length || length[1] + length[0] > bytes.length) return undefined;
      out.set(field, bytes.subarray(length[1], length[1] + length[0]));
      at = length[1] + length[0];
    } else {
      return undefined;
    }
  }
  return out;
}

export function playlistPageToken(position: PagePosition): string {
  const inner = Buffer.from([0x08, ...varint(position.offset)]).toString('base64url');
  const marker = Buffer.from(`PT:${inner}`, 'latin1');
  return encode([0x10, position.backward ? 1 : 0, 0x1a, ...varint(marker.length), ...marker]);
}

export function parsePlaylistPageToken(token: string): PagePosition | undefined {
  const bytes = decode(token);
  const message = bytes && fields(bytes);
  const marker = message?.get(3);
  const direction = message?.get(2) ?? 0;
  if (!(marker instanceof Uint8Array) || (direction !== 0 && direction !== 1)) return undefined;
  const text = Buffer.from(marker).toString('latin1');
  if (!text.startsWith('PT:')) return undefined;
  const inner = decode(text.slice(3));
  const offset = inner && fields(inner)?.get(1);
  return typeof offset === 'number' ? { offset, backward: direction === 1 } : undefined;
}

export function searchPageToken(position: PagePosition): string {
  return encode([0x08, ...varint(position.offset), 0x10, position.backward ? 1 : 0]);
}

export function parseSearchPageToken(token: string): PagePosition | undefined {
  const bytes = decode(token);
  const message = bytes && fields(bytes);
  const offset = message?.get(1);
  const direction = message?.get(2) ?? 0;
  if (typeof offset !== 'number' || (direction !== 0 && direction !== 1)) return undefined;
  return { offset, backward: direction === 1 };
}
