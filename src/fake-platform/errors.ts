// Google's error bodies, word for word as the live API sends them (collected from real responses
// quoted in public issue trackers and client test fixtures). Two families exist: errors raised by
// Google's API front end (API key checks, 5xx) carry `status` and sometimes `details`; errors raised
// by YouTube itself (quota, parameters, not found) carry only `code`, `message` and `errors`.

export interface GoogleErrorItem {
  message: string;
  domain: string;
  reason: string;
  location?: string;
  locationType?: string;
}

export interface GoogleErrorBody {
  error: {
    code: number;
    message: string;
    errors: GoogleErrorItem[];
    status?: string;
    details?: unknown[];
  };
}

export interface GoogleError {
  status: number;
  body: GoogleErrorBody;
}

interface Options {
  location?: string;
  locationType?: string;
  status?: string;
  details?: unknown[];
}

function googleError(
  code: number,
  message: string,
  domain: string,
  reason: string,
  options: Options = {},
): GoogleError {
  const item: GoogleErrorItem = { message, domain, reason };
  if (options.location !== undefined) item.location = options.location;
  if (options.locationType !== undefined) item.locationType = options.locationType;
  const error: GoogleErrorBody['error'] = { code, message, errors: [item] };
  if (options.status) error.status = options.status;
  if (options.details) error.details = options.details;
  return { status: code, body: { error } };
}

/** 403 once the project's daily units are spent. */
export const quotaExceeded = (): GoogleError =>
  googleError(
    403,
    'The request cannot be completed because you have exceeded your <a ' +
      'href="/youtube/v3/getting-started#quota">quota</a>.',
    'youtube.quota',
    'quotaExceeded',
  );

/** 403 for a channel YouTube closed or suspended (documented reasons channelClosed / channelSuspended). */
export const channelUnavailable = (reason: 'channelClosed' | 'channelSuspended'): GoogleError =>
  googleError(
    403,
    reason === 'channelClosed'
      ? 'The channel identified in the request has been closed.'
      : 'The channel identified in the request has been suspended.',
    'youtube.channel',
    reason,
    { location: 'id', locationType: 'parameter' },
  );

/** 400 for a key Google does not know. */
export const keyInvalid = (): GoogleError =>
  googleError(400, 'API key not valid. Please pass a valid API key.', 'global', 'badRequest', {
    status: 'INVALID_ARGUMENT',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'API_KEY_INVALID',
        domain: 'googleapis.com',
        metadata: { service: 'youtube.googleapis.com' },
      },
    ],
  });

/**
 * 403 for a key whose restrictions refuse the call (quoted from real answers: a browser key called
 * from a server, a key limited to other APIs): YouTube's reason is only "forbidden"; the cause is
 * in the ErrorInfo.
 */
export const keyRestricted = (
  reason: 'API_KEY_HTTP_REFERRER_BLOCKED' | 'API_KEY_SERVICE_BLOCKED' = 'API_KEY_HTTP_REFERRER_BLOCKED',
): GoogleError => {
  const message =
    reason === 'API_KEY_HTTP_REFERRER_BLOCKED'
      ? 'Requests from referer <empty> are blocked.'
      : 'Requests to this API youtube method youtube.api.v3.V3DataChannelService.List are blocked.';
  return googleError(403, message, 'global', 'forbidden', {
    status: 'PERMISSION_DENIED',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason,
        domain: 'googleapis.com',
        metadata: { service: 'youtube.googleapis.com', consumer: 'projects/000000000000' },
      },
    ],
  });
};

/** 403 for a request without any key (and no OAuth token). */
export const keyMissing = (): GoogleError =>
  googleError(403, 'The request is missing a valid API key.', 'global', 'forbidden', { status: 'PERMISSION_DENIED' });

export const playlistNotFound = (): GoogleError =>
  googleError(
    404,
    "The playlist identified with the request's <code>playlistId</code> parameter cannot be found.",
    'youtube.playlistItem',
    'playlistNotFound',
    {
      location: 'playlistId',
      locationType: 'parameter',
    },
  );

export const invalidPageToken = (): GoogleError =>
  googleError(400, 'The request specifies an invalid page token.', 'youtube.parameter', 'invalidPageToken', {
    location: 'pageToken',
    locationType: 'parameter',
  });

/** An unsigned-integer parameter that is not one ("-1", "abc"). */
export const invalidUnsignedInteger = (parameter: string, raw: string): GoogleError =>
  googleError(400, `Invalid unsigned integer value: '${raw}'.`, 'global', 'invalidParameter', {
    location: parameter,
    locationType: 'parameter',
  });

/** An integer parameter outside its range, e.g. maxResults=51. */
export const valueOutOfRange = (parameter: string, raw: string, min: number, max: number): GoogleError =>
  googleError(
    400,
    `Invalid value '${raw}'. Values must be within the range: [${min}, ${max}]`,
    'global',
    'invalidParameter',
    {
      location: parameter,
      locationType: 'parameter',
    },
  );

/** What YouTube answers to a filter it cannot serve, e.g. more than 50 ids in one videos.list call. */
export const invalidFilters = (): GoogleError =>
  googleError(400, 'The request specifies an invalid filter parameter.', 'youtube.parameter', 'invalidFilters', {
    location: 'parameters.',
    locationType: 'other',
  });

/** None of a method's filter parameters (id, forHandle, playlistId, …) was given. */
export const missingFilter = (expected: string[]): GoogleError =>
  googleError(
    400,
    `No filter selected. Expected one of: ${expected.join(', ')}`,
    'youtube.parameter',
    'missingRequiredParameter',
    {
      location: '',
      locationType: 'parameter',
    },
  );

/** More than one filter parameter in one request. */
export const incompatibleParameters = (names: string[]): GoogleError =>
  googleError(
    400,
    `Incompatible parameters specified in the request: ${names.join(', ')}`,
    'youtube.parameter',
    'incompatibleParameters',
    {
      location: 'parameters.',
      locationType: 'other',
    },
  );

export const missingPart = (): GoogleError =>
  googleError(400, 'Required parameter: part', 'global', 'required', { location: 'part', locationType: 'parameter' });

export const unknownPart = (part: string): GoogleError =>
  googleError(400, `'${part}'`, 'youtube.part', 'unknownPart', { location: 'part', locationType: 'parameter' });

/** Filters such as mine=true need an OAuth token, which an API key is not. */
export const authorizationRequired = (parameter: string): GoogleError =>
  googleError(
    401,
    `The request uses the <code>${parameter}</code> parameter but is not properly authorized.`,
    'youtube.parameter',
    'authorizationRequired',
    {
      location: parameter,
      locationType: 'parameter',
    },
  );

/** A transient failure inside Google: 500 "Backend Error" or 503 "The service is currently unavailable." */
export const backendError = (code: 500 | 503 = 503): GoogleError =>
  code === 500
    ? googleError(500, 'Backend Error', 'global', 'backendError', { status: 'INTERNAL' })
    : googleError(503, 'The service is currently unavailable.', 'global', 'backendError', { status: 'UNAVAILABLE' });

/** A path under /youtube/v3/ that names no method. */
export const methodNotFound = (path: string): GoogleError =>
  googleError(404, `Method not found: ${path}`, 'global', 'notFound', { status: 'NOT_FOUND' });
