// Local placeholder images, for a demo that runs offline: with `localImages`, every image URL the
// fake answers with (YouTube's thumbnail, avatar and banner hosts) points at the fake itself, which
// draws a small SVG for it, a colour from the URL so that neighbouring cards differ. The shapes stay
// YouTube's: only the host of each URL changes. Off by default, so tests see YouTube's own URLs.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';

const IMAGE_HOSTS = ['i.ytimg.com', 'yt3.ggpht.com', 'yt3.googleusercontent.com'];
const HOSTS = new RegExp(`https://(${IMAGE_HOSTS.map((h) => h.replaceAll('.', '\\.')).join('|')})/`, 'g');
export const IMAGE_PATH = /^\/__images\/([a-z0-9.]+)\/(.+)$/;

/** The body with each YouTube image host replaced by this fake's /__images/<host>/ path. */
export function localImageUrls(body: string, origin: string): string {
  return body.replace(HOSTS, (_match, host: string) => `${origin}/__images/${host}/`);
}

/**
 * Rewrites the string bodies this response ends with (the JSON answers, which carry no
 * Content-Length: a longer body needs none changed), before they are sent.
 */
export function rewriteImageHosts(res: ServerResponse, origin: () => string): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((chunk?: unknown, ...rest: unknown[]) =>
    end(typeof chunk === 'string' ? localImageUrls(chunk, origin()) : chunk, ...rest)) as typeof res.end;
}

/** GET /__images/<host>/<path>: a placeholder SVG, portrait for video thumbnails, square otherwise. */
export function imageRoute(_req: IncomingMessage, res: ServerResponse, match: RegExpExecArray): void {
  const [, host, path] = match;
  const digest = createHash('sha256').update(`${host}/${path}`).digest();
  const hue = (digest[0]! * 360) / 256;
  const [width, height] = host === 'i.ytimg.com' ? [405, 720] : [480, 480];
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 65% 55%)"/>` +
    `<stop offset="1" stop-color="hsl(${(hue + 60) % 360} 60% 35%)"/></linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#g)"/>` +
    `<circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 7}" fill="rgb(255 255 255 / 0.85)"/>` +
    `<path d="M${width / 2 - 14},${height / 2 - 20} L${width / 2 + 22},${height / 2} L${width / 2 - 14},${height / 2 + 20} Z" ` +
    `fill="hsl(${hue} 50% 35%)"/></svg>`;
  res.writeHead(200, {
    'content-type': 'image/svg+xml',
    'cache-control': 'public, max-age=86400',
    'content-length': Buffer.byteLength(svg),
  });
  res.end(svg);
}
