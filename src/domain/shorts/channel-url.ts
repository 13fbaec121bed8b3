// Turns any common form of a YouTube channel address into what the Data API can look up.
import { AppError } from '../../errors.ts';

export type ChannelRef =
  | { type: 'id'; value: string }
  | { type: 'handle'; value: string }
  | { type: 'username'; value: string }
  /** /c/name, or a bare /name (`bare`): YouTube resolves some legacy names only in the form they were given. */
  | { type: 'custom'; value: string; bare?: true };

const HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com']);
const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
// Handles: 3-30 characters of letters (any script), digits, underscore, hyphen, period and the
// Latin middle dot (·, as in Catalan l·l), which YouTube's handle guidelines allow.
const HANDLE = /^[\p{L}\p{M}\p{N}_.\u00B7-]{3,30}$/u;
const NAME = /^[\p{L}\p{M}\p{N}_.-]{1,100}$/u;
// First path segments that are YouTube pages, not vanity channel names.
const RESERVED = new Set([
  'watch',
  'shorts',
  'playlist',
  'results',
  'feed',
  'embed',
  'live',
  'hashtag',
  'post',
  'account',
  'premium',
  'gaming',
  'about',
  'redirect',
  'signin',
  'logout',
  'upload',
  't',
  'kids',
  'music',
  'tv',
  'attribution_link',
  'clip',
  'source',
  'channel',
  'user',
  'c',
]);
const TAB_SUFFIXES = new Set([
  'shorts',
  'videos',
  'streams',
  'featured',
  'playlists',
  'community',
  'about',
  'live',
  'releases',
  'podcasts',
  'posts',
  'courses',
  'store',
  'search',
  'channels',
]);

export const ACCEPTED_FORMS =
  'Accepted forms: https://www.youtube.com/@handle, https://www.youtube.com/channel/UC…, ' +
  'https://www.youtube.com/user/name, https://www.youtube.com/c/name or https://www.youtube.com/name (also on ' +
  'm./music. hosts or without https://, with a trailing /shorts, /videos… tab and any query string), a bare ' +
  '@handle or a bare channel id UC….';

function invalid(reason: string): AppError {
  return new AppError('INVALID_CHANNEL_URL', `${reason} ${ACCEPTED_FORMS}`);
}

// An address as people type it: without a scheme ("youtube.com/@x", "m.youtube.com/@x"), a bare
// handle ("@x") or a bare channel id ("UC…").
const SCHEMELESS = /^(?:(?:www|m|music)\.)?youtube\.com(?:[/?#]|$)/i;
const BARE_HANDLE = /^@[^/?#\s]+(?:[/?#]\S*)?$/u;
const BARE_ID = /^UC[A-Za-z0-9_-]{22}$/;
// User-info: "user:password@" after "scheme://" (any host), or before a YouTube host typed without a scheme.
const AFTER_SCHEME = /^([a-z][a-z0-9+.-]*:[/\\]{2})[^/\\?#]*@/i;
const BEFORE_HOST = /^[^/\\?#\s]*@(?=(?:(?:www|m|music)\.)?youtube\.com(?:[/?#]|$))/i;

/**
 * The channel address as it is recorded, logged and read: trimmed, with a scheme and host where
 * the caller typed a bare handle, a bare channel id or a host without https://, and without the
 * user name and password a URL may carry (credentials have no place in an address that is
 * stored, logged and shown in the dashboard). Never throws: what it cannot read stays as given,
 * less any credentials, and parseChannelUrl says why it is not a channel address.
 */
export function normalizeChannelUrl(input: string): string {
  const text = input.trim();
  if (BARE_HANDLE.test(text)) return `https://www.youtube.com/${text}`;
  if (BARE_ID.test(text)) return `https://www.youtube.com/channel/${text}`;
  let address = text.replace(AFTER_SCHEME, '$1').replace(BEFORE_HOST, '');
  if (SCHEMELESS.test(address)) address = `https://${address}`;
  // Whatever spelling the patterns missed, the URL parser finds (as any client would read it).
  const url = URL.parse(address);
  if (url && (url.username || url.password)) {
    url.username = '';
    url.password = '';
    return url.href;
  }
  return address;
}

export function parseChannelUrl(input: string): ChannelRef {
  const address = normalizeChannelUrl(input);
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw invalid(`"${truncate(address)}" is not a channel address.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid(`The scheme ${url.protocol} is not supported.`);
  const host = url.hostname.toLowerCase();
  if (host === 'youtu.be') throw invalid('youtu.be links point to a video, not a channel.');
  if (!HOSTS.has(host)) throw invalid(`${host} is not a YouTube host.`);
  let segments: string[];
  try {
    segments = url.pathname
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
  } catch {
    throw invalid('The path contains malformed percent-encoding.');
  }
  const [first, second] = segments;
  if (!first) throw invalid('The URL has no channel path.');
  const rest = (from: number) => {
    const extra = segments.slice(from);
    if (extra.length > 1 || (extra[0] !== undefined && !TAB_SUFFIXES.has(extra[0].toLowerCase())))
      throw invalid(`Unexpected path "${url.pathname}".`);
  };
  if (first.startsWith('@')) {
    const handle = first.slice(1).normalize('NFC');
    if (!HANDLE.test(handle)) throw invalid(`"@${truncate(handle)}" is not a valid handle.`);
    rest(1);
    return { type: 'handle', value: handle };
  }
  const lower = first.toLowerCase();
  if (lower === 'channel') {
    if (!second || !CHANNEL_ID.test(second))
      throw invalid('A /channel/ URL must carry a channel id starting with UC followed by 22 characters.');
    rest(2);
    return { type: 'id', value: second };
  }
  if (lower === 'user' || lower === 'c') {
    if (!second || !NAME.test(second)) throw invalid(`A /${lower}/ URL must carry a channel name.`);
    rest(2);
    return { type: lower === 'user' ? 'username' : 'custom', value: second.normalize('NFC') };
  }
  if (lower === 'shorts' || lower === 'watch') throw invalid('That URL points to a video, not a channel.');
  if (RESERVED.has(lower) || !NAME.test(first)) throw invalid(`"/${truncate(first)}" is not a channel path.`);
  rest(1);
  return { type: 'custom', value: first.normalize('NFC'), bare: true };
}

function truncate(text: string): string {
  return text.length > 80 ? text.slice(0, 80) + '…' : text;
}
