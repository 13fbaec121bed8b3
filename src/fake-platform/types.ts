// The shapes of the fake's faults and of the calls it records, shared by its server and its routes.
import type { Endpoint } from './endpoints.ts';
import type { InnertubeEndpoint } from './innertube.ts';

export type FaultKind =
  | 'quotaExceeded'
  | 'keyInvalid'
  | 'keyRestricted'
  | 'backendError'
  | 'hang'
  | 'reset'
  | 'malformed';
/**
 * InnerTube faults: 'botCheck' (player answers LOGIN_REQUIRED "Sign in to confirm you’re not a bot";
 * other endpoints are unaffected), 'forbidden' (HTTP 403 PERMISSION_DENIED, as browse answers
 * blocked addresses), 'consentRedirect' (302 to consent.youtube.com, as addresses in the EU meet),
 * 'rateLimited' (HTTP 429), 'malformed' (a truncated JSON body), 'layoutChanged' (valid JSON whose
 * Shorts items have a shape youtubei.js does not know), 'backendError' (503 by default; 404, 500,
 * 501), 'hang' and 'reset'.
 */
export type InnertubeFaultKind =
  | 'botCheck'
  | 'forbidden'
  | 'consentRedirect'
  | 'rateLimited'
  | 'malformed'
  | 'layoutChanged'
  | 'backendError'
  | 'hang'
  | 'reset';

export interface Fault {
  endpoint?: Endpoint | '*';
  kind: FaultKind;
  /** How many matching requests it affects: default 1; Infinity for all until cleared. */
  times?: number;
  /** How many matching requests it lets through first (a failure mid-way): default 0. */
  after?: number;
  /** For backendError: 503 "service unavailable" (default) or 500 "Backend Error". */
  status?: 500 | 503;
}

export interface InnertubeFault {
  protocol: 'innertube';
  endpoint?: InnertubeEndpoint | '*';
  kind: InnertubeFaultKind;
  /** How many matching requests it affects: default 1; Infinity for all until cleared. */
  times?: number;
  /** How many matching requests it lets through first (e.g. 2 on browse: the third tab page fails): default 0. */
  after?: number;
  /** For backendError: 503 (default), 404, 500 or 501. */
  status?: 404 | 500 | 501 | 503;
}

export interface FakeCall {
  /** channels, playlistItems, videos, search, or the unknown method's name. */
  endpoint: string;
  params: Record<string, string>;
  units: number;
  /** HTTP status sent; 0 when no response was sent (hang, reset). */
  status: number;
}

export interface InnertubeCall {
  /** resolve_url, browse, player, config, or the unknown path's name. */
  endpoint: string;
  /** What the request asked for: url, browseId, params, continuation or videoId. */
  request: Record<string, string>;
  /** HTTP status sent; 0 when no response was sent (hang, reset). */
  status: number;
}
