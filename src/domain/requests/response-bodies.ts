// The spec's three response bodies for POST /api/youtube/shorts.
import type { AppError } from '../../errors.ts';
import type { Channel, Short, ShortsResult } from '../shorts/shorts-types.ts';

export interface SuccessBody {
  success: true;
  requestId: string;
  data: { channel: Channel; shorts: Short[] };
  itemCount: number;
  creditsCharged: number;
  /** Extension: true when the channel has more matching shorts than one request returns. */
  truncated: boolean;
  message?: string;
}

export interface FailureBody {
  success: false;
  error: string;
  message: string;
  requestId: string;
}

export interface AcceptedBody {
  success: true;
  requestId: string;
  status: 'processing';
  message: string;
}

export function successBody(requestId: string, result: ShortsResult, creditsCharged: number, maxShorts: number): SuccessBody {
  const body: SuccessBody = { success: true, requestId, data: { channel: result.channel, shorts: result.shorts }, itemCount: result.shorts.length, creditsCharged, truncated: result.truncated };
  if (result.truncated) {
    body.message = `This channel has more matching shorts than the ${maxShorts} one request returns; these are the newest. Request again with oldestDate set to narrow the window.`;
  }
  return body;
}

export function failureBody(requestId: string, error: AppError): FailureBody {
  return { success: false, error: error.code, message: error.message, requestId };
}

// Hot path: a cached result is the same object on every hit (embedded cache), so its `data` JSON is
// rendered once and spliced into each response instead of re-serialising ~1 KB per short each time.
const renderedData = new WeakMap<ShortsResult, string>();

export function renderSuccessJson(body: SuccessBody, result: ShortsResult): string {
  let data = renderedData.get(result);
  if (data === undefined) {
    data = JSON.stringify({ channel: result.channel, shorts: result.shorts });
    renderedData.set(result, data);
  }
  const message = body.message === undefined ? '' : `,"message":${JSON.stringify(body.message)}`;
  return `{"success":true,"requestId":${JSON.stringify(body.requestId)},"data":${data},"itemCount":${body.itemCount},"creditsCharged":${body.creditsCharged},"truncated":${body.truncated}${message}}`;
}
