// Builds the spec's response bodies of POST /api/youtube/shorts; their shapes are defined once in
// src/contract/ (SuccessBody, FailureBody).
import type { AppError } from '../../errors.ts';
import type { FailureBody } from '../../contract/common.ts';
import type { Short, SuccessBody } from '../../contract/shorts.ts';
import type { ShortsResult } from '../shorts/shorts-result.ts';

export type { FailureBody, SuccessBody };

/** A request's maxCredits and the shorts it pays for reading (below the service's maximum). */
export interface CreditCap {
  maxCredits: number;
  shorts: number;
}

export function successBody(
  requestId: string,
  result: ShortsResult,
  creditsCharged: number,
  maxShorts: number,
  stale = false,
  cap?: CreditCap,
): SuccessBody {
  const body: SuccessBody = {
    success: true,
    requestId,
    data: { channel: result.channel, shorts: result.shorts },
    itemCount: result.shorts.length,
    creditsCharged,
    truncated: result.truncated,
    fetchedAt: result.fetchedAt,
    stale,
    source: result.source,
  };
  if (result.approximateFields) body.approximateFields = result.approximateFields;
  const notes: string[] = [];
  if (result.truncated && result.truncatedBy === 'balance') {
    // Counted as read: a sorted or filtered answer returns fewer than it read ("the newest 3" after reading 150).
    notes.push(
      result.arrangedFrom !== undefined
        ? `The account's available credits paid for reading the newest ${result.arrangedFrom} shorts; older ones ` +
            `were not read, so the sort and duration filters were applied to those ${result.arrangedFrom} only. ` +
            'Add credits, or narrow the window with oldestDate.'
        : `The account's available credits paid for reading the newest ${result.shorts.length} shorts; older ` +
            'ones were not read. Add credits, or narrow the window with oldestDate or limit.',
    );
  } else if (result.truncated && result.truncatedBy === 'upstream') {
    notes.push(
      `Reading stopped after the newest ${result.arrangedFrom ?? result.shorts.length} shorts: ${result.truncatedWhy} ` +
        'Older ones were not read; the price counts the shorts returned. Request again to read them.',
    );
  } else if (result.truncated && cap !== undefined) {
    // The cap is below the service's maximum, so it is what stopped the read.
    notes.push(
      `maxCredits (${cap.maxCredits}) pays for reading the newest ${cap.shorts} shorts; older ones were not read` +
        (result.arrangedFrom !== undefined ? ', so the sort and duration filters were applied to those only' : '') +
        '. Raise maxCredits, or narrow the window with oldestDate.',
    );
  } else if (result.truncated && result.arrangedFrom !== undefined) {
    notes.push(
      `This channel has more matching shorts than the ${maxShorts} one request reads; the sort and duration ` +
        `filters were applied to the newest ${result.arrangedFrom}. Narrow the window with ` +
        'oldestDate to rank older shorts.',
    );
  } else if (result.truncated) {
    notes.push(
      `This channel has more matching shorts than the ${maxShorts} one request returns; these are the newest. ` +
        'Request again with oldestDate set to narrow the window.',
    );
  }
  if (stale)
    notes.push(`The video platform quota is spent for today, so this is the copy read at ${result.fetchedAt}.`);
  if (result.approximateFields)
    notes.push(
      `Read without the Data API (keyless): ${result.approximateFields.join(', ')} are approximate (from display ` +
        "text) and fields YouTube's web pages do not give are absent.",
    );
  // Keyless shorts have no publish date (but those a window's edge looked up): nothing to sort by.
  if (result.source === 'innertube' && result.arrangedFrom === undefined)
    notes.push(
      "Newest first here is the order of YouTube's Shorts tab, not a sort by publish date (keyless data has " +
        'none): a premiere is listed where it was uploaded.',
    );
  if (notes.length > 0) body.message = notes.join(' ');
  return body;
}

export function failureBody(requestId: string, error: AppError): FailureBody {
  return { success: false, error: error.code, message: error.message, requestId };
}

// Hot path: a cached result is the same object on every hit (embedded cache, Redis near cache), so
// its `data` JSON is rendered and UTF-8 encoded once and shared by every response, instead of
// re-serialising and re-encoding ~1 KB per short each time.
const renderedData = new WeakMap<ShortsResult, Buffer>();

/**
 * A rendered body: the request's own head and tail around the shared data, never concatenated.
 * A copy per response (131 KiB for 100 shorts) was 3 % of the hot path's CPU on the HTTP
 * thread and most of its garbage; 20 clients fetching a 3,000-short channel held 20 private copies
 * of ~3.5 MB each in flight. The route writes the three chunks in one writev (http/send-rendered.ts).
 */
export interface RenderedJson {
  chunks: [head: Buffer, data: Buffer, tail: Buffer];
  length: number;
}

/**
 * Shorts rendered ahead: a fresh result's JSON took ~100 ms for 3,000 shorts after the last
 * upstream answer, on the cold path's critical path. The request reading upstream renders each
 * batch of shorts as its details arrive (FetchHooks.onShorts), while the next pages travel, and the
 * body is then put together from them. Keyed by the short itself, so a sorted or filtered result
 * of the same shorts uses them too; dropped once used (the whole body is kept, above).
 */
const renderedShorts = new WeakMap<Short, Buffer>();

export function prerenderShorts(shorts: readonly Short[]): void {
  for (const short of shorts) renderedShorts.set(short, Buffer.from(JSON.stringify(short), 'utf8'));
}

const COMMA = Buffer.from(',');
const END = Buffer.from(']}');

/** Exactly JSON.stringify({ channel, shorts }), from the shorts rendered ahead where there are some. */
function renderData(result: ShortsResult): Buffer {
  const parts: Buffer[] = [Buffer.from(`{"channel":${JSON.stringify(result.channel)},"shorts":[`, 'utf8')];
  result.shorts.forEach((short, i) => {
    if (i > 0) parts.push(COMMA);
    const ahead = renderedShorts.get(short);
    renderedShorts.delete(short);
    parts.push(ahead ?? Buffer.from(JSON.stringify(short), 'utf8'));
  });
  parts.push(END);
  return Buffer.concat(parts);
}

export function renderSuccessJson(body: SuccessBody, result: ShortsResult): RenderedJson {
  let data = renderedData.get(result);
  if (data === undefined) {
    data = renderData(result);
    renderedData.set(result, data);
  }
  const message = body.message === undefined ? '' : `,"message":${JSON.stringify(body.message)}`;
  const head = Buffer.from(`{"success":true,"requestId":${JSON.stringify(body.requestId)},"data":`, 'utf8');
  const approximate =
    body.approximateFields === undefined ? '' : `,"approximateFields":${JSON.stringify(body.approximateFields)}`;
  const tail = Buffer.from(
    `,"itemCount":${body.itemCount},"creditsCharged":${body.creditsCharged},"truncated":${body.truncated},` +
      `"fetchedAt":${JSON.stringify(body.fetchedAt)},"stale":${body.stale},"source":${JSON.stringify(body.source)}` +
      `${approximate}${message}}`,
    'utf8',
  );
  return { chunks: [head, data, tail], length: head.length + data.length + tail.length };
}
