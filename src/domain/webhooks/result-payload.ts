// The body of a shorts request's webhook, built from its stored row so every attempt sends the same
// bytes. shorts.failed is always the failure body. shorts.completed carries the whole result, or a
// thin form — the counts and the URL of the stored result's pages — when the request asked for it
// (its own webhookPayload or the account's default, recorded with the request) or when the whole
// result would be over the configured maximum: a 5,000-short result is several megabytes, which
// many receivers refuse; the thin body is a few hundred bytes whatever the result's size.
import type { ThinResult } from '../../contract/shorts.ts';
import type { RequestOptions, RequestRow } from '../requests/request-store.ts';

export interface ResultPayloadSettings {
  /** WEBHOOK_MAX_BODY_BYTES: a full body over this is sent thin (reason too_large). */
  maxBodyBytes: number;
  /** Where the receiver reaches this API (PUBLIC_BASE_URL, else the address it listens on), no trailing slash. */
  publicBaseUrl: string;
}

type PayloadRow = Pick<RequestRow, 'id' | 'status' | 'result' | 'created_at' | 'completed_at'> & {
  options: RequestOptions | null;
};

/** GET …/items of a request: the stored result, page by page, with the account's credentials. */
/**
 * What a webhook request records of its payload form: the request's own choice, else the account's
 * default, else full (recorded as nothing, so a full request's options are as before).
 */
export function recordedPayloadForm(
  requested: 'full' | 'thin' | undefined,
  accountDefault: 'full' | 'thin' | null | undefined,
): { webhookPayload?: 'thin' } {
  return (requested ?? accountDefault ?? 'full') === 'thin' ? { webhookPayload: 'thin' } : {};
}

export function resultUrlOf(publicBaseUrl: string, requestId: string): string {
  return `${publicBaseUrl}/api/youtube/shorts/${encodeURIComponent(requestId)}/items`;
}

export function resultWebhookBody(row: PayloadRow, settings: ResultPayloadSettings): string {
  const type = row.status === 'completed' ? 'shorts.completed' : 'shorts.failed';
  const timestamp = (row.completed_at ?? row.created_at).toISOString();
  const thin = (reason: ThinResult['reason']) =>
    JSON.stringify({ type, timestamp, data: thinResult(row, settings.publicBaseUrl, reason) });
  if (type === 'shorts.completed' && row.options?.webhookPayload === 'thin') return thin('requested');
  const full = JSON.stringify({ type, timestamp, data: row.result });
  // The length in UTF-16 units is at most the UTF-8 length: only a body that could be over is measured.
  if (type === 'shorts.completed' && full.length * 3 > settings.maxBodyBytes) {
    if (Buffer.byteLength(full) > settings.maxBodyBytes) return thin('too_large');
  }
  return full;
}

function thinResult(row: PayloadRow, publicBaseUrl: string, reason: ThinResult['reason']): ThinResult {
  const result = (row.result ?? {}) as { itemCount?: number; creditsCharged?: number; truncated?: boolean };
  return {
    requestId: row.id,
    itemCount: result.itemCount ?? 0,
    creditsCharged: result.creditsCharged ?? 0,
    truncated: result.truncated ?? false,
    resultUrl: resultUrlOf(publicBaseUrl, row.id),
    thin: true,
    reason,
  };
}
