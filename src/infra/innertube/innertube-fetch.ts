// The fetch youtubei.js is given: every HTTP request of the library goes through it.
// https://www.youtube.com is rewritten to the configured base URL (the fake platform in tests and
// the demo), each call gets a timeout covering its body too, is reported to `onCall`, and non-2xx
// answers become typed failures (CallFailure) before the library sees them, so the kind of a
// failure never has to be guessed from a library message. Redirects are followed by hand: one to
// YouTube's cookie-consent page (consent.youtube.com, what addresses in the EU and some datacenters
// are sent to) is a consent wall, never a page to read.
import { type Dispatcher, fetch as undiciFetch, Headers, type Request, type RequestInit, Response } from 'undici';

export const YOUTUBE_ORIGIN = 'https://www.youtube.com';

export interface InnertubeCallReport {
  /** resolve_url, browse, player, config, or the path after /youtubei/v1/. */
  endpoint: string;
  /** HTTP status; 0 when no answer came (timeout, network). */
  status: number;
  durationMs: number;
}

/** A non-2xx answer or no answer at all, raised inside our fetch so its cause stays known. */
export class CallFailure extends Error {
  readonly endpoint: string;
  readonly status: number;
  readonly reason: 'http' | 'timeout' | 'network' | 'consent';

  constructor(
    endpoint: string,
    status: number,
    reason: 'http' | 'timeout' | 'network' | 'consent',
    message: string,
    cause?: unknown,
  ) {
    super(message, { cause });
    this.endpoint = endpoint;
    this.status = status;
    this.reason = reason;
  }
}

export interface FetchTarget {
  /** Stands for https://www.youtube.com. */
  base: URL;
  /** The connection pool: direct, or through the outbound proxy (a ProxyAgent). */
  agent: Dispatcher;
  /** Per HTTP call, body included. */
  timeoutMs: number;
  onCall?: ((call: InnertubeCallReport) => void) | undefined;
}

function endpointName(pathname: string): string {
  const rest = /^\/youtubei\/v1\/(.+?)\/?$/.exec(pathname)?.[1];
  if (!rest) return pathname;
  return rest === 'navigation/resolve_url' ? 'resolve_url' : rest;
}

/** What the library asked for, addressed to the base URL when it asked youtube.com. */
async function outgoing(target: FetchTarget, input: string | URL | Request, init: RequestInit | undefined) {
  // By shape rather than instanceof: the class is whichever Request youtubei.js was given.
  const request = typeof input === 'object' && !(input instanceof URL) ? input : undefined;
  const original = new URL(request ? request.url : String(input));
  const basePath = target.base.pathname.replace(/\/+$/, '');
  const url =
    original.origin === YOUTUBE_ORIGIN
      ? new URL(`${target.base.origin}${basePath}${original.pathname}${original.search}`)
      : original;
  const headers: Array<[string, string]> = [];
  new Headers(init?.headers ?? request?.headers).forEach((value, name) => {
    headers.push([name, value]);
  });
  return {
    url,
    endpoint: endpointName(original.pathname),
    method: init?.method ?? request?.method ?? 'GET',
    headers,
    body: init?.body ?? (request?.body ? await request.text() : undefined),
  };
}

/**
 * The library calls fetch(Request, {body, headers, redirect, credentials}) for API calls and
 * fetch(url string, {method, headers, body}) for its config call.
 */
export async function fetchThrough(
  target: FetchTarget,
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  const { url, endpoint, method, headers, body } = await outgoing(target, input, init);
  const started = performance.now();
  const signal = AbortSignal.timeout(target.timeoutMs);
  let status = 0;
  try {
    let request = { url, method, body: body as string | undefined };
    let response = await send(target, request, headers, signal);
    for (let hop = 0; isRedirect(response.status) && hop < MAX_REDIRECTS; hop++) {
      await response.body?.cancel();
      request = followed(target, endpoint, request, response);
      response = await send(target, request, headers, signal);
    }
    status = response.status;
    // Read the body here, so the timeout covers it and the report says when the call really ended.
    const bytes = await response.arrayBuffer();
    target.onCall?.({ endpoint, status, durationMs: performance.now() - started });
    if (status < 200 || status > 299)
      throw new CallFailure(endpoint, status, 'http', `YouTube answered ${endpoint} with HTTP ${status}.`);
    const responseHeaders: Array<[string, string]> = [];
    response.headers.forEach((value, name) => {
      responseHeaders.push([name, value]);
    });
    return new Response(bytes, { status, statusText: response.statusText, headers: responseHeaders });
  } catch (error) {
    if (error instanceof CallFailure && error.reason !== 'consent') throw error;
    status = error instanceof CallFailure ? error.status : status;
    target.onCall?.({ endpoint, status, durationMs: performance.now() - started });
    if (error instanceof CallFailure) throw error;
    throw noAnswer(target, endpoint, status, signal, error);
  }
}

const MAX_REDIRECTS = 3;
const isRedirect = (status: number) => status >= 300 && status < 400 && status !== 304;

interface Outgoing {
  url: URL;
  method: string;
  body: string | undefined;
}

function send(target: FetchTarget, request: Outgoing, headers: Array<[string, string]>, signal: AbortSignal) {
  return undiciFetch(request.url, {
    method: request.method,
    headers,
    body: request.body,
    signal,
    dispatcher: target.agent,
    redirect: 'manual',
  });
}

/**
 * Where a redirect leads (youtube.com addresses to the base URL, as every call). YouTube's consent
 * page is not followed: it answers HTML that no InnerTube call can use, whatever the hop count; nor
 * is any other host (google.com/sorry, a captcha): the call's headers are for YouTube only.
 */
function followed(target: FetchTarget, endpoint: string, from: Outgoing, response: Response) {
  const location = response.headers.get('location');
  if (!location)
    throw new CallFailure(
      endpoint,
      response.status,
      'http',
      `YouTube answered ${endpoint} with HTTP ${response.status}.`,
    );
  const next = new URL(location, from.url);
  if (/^consent\.(youtube|google)\.[a-z.]+$/i.test(next.hostname))
    throw new CallFailure(
      endpoint,
      response.status,
      'consent',
      `YouTube sent the ${endpoint} call to its cookie-consent page (${next.hostname}).`,
    );
  const basePath = target.base.pathname.replace(/\/+$/, '');
  const url =
    next.origin === YOUTUBE_ORIGIN ? new URL(`${target.base.origin}${basePath}${next.pathname}${next.search}`) : next;
  if (url.origin !== target.base.origin)
    throw new CallFailure(
      endpoint,
      response.status,
      'http',
      `YouTube answered ${endpoint} with HTTP ${response.status} to ${next.hostname}${next.pathname}.`,
    );
  // 303, and 301/302 after a POST as browsers do: the next request is a GET without a body.
  const asGet =
    response.status === 303 || ((response.status === 301 || response.status === 302) && from.method === 'POST');
  return asGet ? { url, method: 'GET', body: undefined } : { url, method: from.method, body: from.body };
}

/** A call that got no (complete) answer: a timeout, or the network failed. */
function noAnswer(target: FetchTarget, endpoint: string, status: number, signal: AbortSignal, error: unknown) {
  // The agent's own header and body timeouts (the same length) may fire before the signal does.
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code;
  const timedOut =
    signal.aborted ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'));
  if (timedOut)
    return new CallFailure(
      endpoint,
      status,
      'timeout',
      `YouTube did not answer ${endpoint} within ${target.timeoutMs} ms.`,
      error,
    );
  return new CallFailure(
    endpoint,
    status,
    'network',
    `Could not reach YouTube for ${endpoint}: ${(error as Error).message}${code ? ` (${code})` : ''}.`,
    error,
  );
}
