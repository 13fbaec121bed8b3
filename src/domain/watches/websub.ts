// Push for watches: each watched channel's upload feed is subscribed at YouTube's WebSub
// (PubSubHubbub) hub, so an upload is announced within seconds instead of waiting for the schedule.
// Polling stays the safety net: a lost notification, an expired lease or an unreachable
// PUBLIC_BASE_URL only delay a short until the next scheduled check.
//
// Protocol (W3C WebSub, as Google's hub speaks it): a form POST to the hub (hub.mode=subscribe,
// hub.topic=<feed URL>, hub.callback=<our URL>, hub.secret, hub.lease_seconds) → 202; the hub then
// GETs the callback with hub.challenge, which we echo only for a subscription we asked for (verified
// intent); notifications are Atom documents POSTed to the callback, signed X-Hub-Signature:
// sha1=<HMAC of the body with hub.secret>; leases are renewed when a tenth of them is left.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
// The undici package's fetch, as for every other outgoing call: Node's global one is a second copy
// of undici, loaded on first use (~3 MiB, src/infra/http-globals.ts).
import { fetch } from 'undici';
import type { Queryable } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';

export interface WebSubSettings {
  /** PUBLIC_BASE_URL: where the hub reaches this service. */
  publicBaseUrl: string;
  hubUrl: string;
  /** Origin of the feeds (https://www.youtube.com; the fake platform in tests). */
  topicBaseUrl: string;
  leaseSeconds: number;
  timeoutMs: number;
}

export interface WebSubDeps {
  db: Queryable;
  now: () => number;
  settings: WebSubSettings;
}

interface SubscriptionRow {
  channel_id: string;
  secret: string;
  state: 'requested' | 'verified' | 'failed';
  requested_at: Date;
  verified_at: Date | null;
  lease_expires_at: Date | null;
  last_error: string | null;
}

/** A failed subscription request is tried again after this long. */
const RETRY_FAILED_MS = 5 * 60_000;
/** A request the hub never verified is repeated after this long. */
const RETRY_UNVERIFIED_MS = 60 * 60_000;

export function topicFor(settings: WebSubSettings, channelId: string): string {
  return `${settings.topicBaseUrl.replace(/\/+$/, '')}/feeds/videos.xml?channel_id=${channelId}`;
}

/**
 * The callback's last path segment, derived from the subscription's secret: the hub's verification
 * of intent is believed only at the callback we gave the hub, which nobody else learns. Before, the
 * callback was the channel's id alone, and anyone could GET it: mark a subscription the hub never
 * verified as verified for a century (push then never renewed) or as denied.
 */
export function callbackToken(secret: string, channelId: string): string {
  return createHmac('sha256', secret).update(`websub-callback:${channelId}`).digest('base64url').slice(0, 32);
}

export function callbackFor(settings: WebSubSettings, channelId: string, secret: string): string {
  const base = settings.publicBaseUrl.replace(/\/+$/, '');
  return `${base}/websub/youtube/${channelId}/${callbackToken(secret, channelId)}`;
}

/** The longest lease recorded, whatever the hub says (YouTube's hub grants up to 10 days). */
export const MAX_LEASE_SECONDS = 30 * 86_400;

/** Asks the hub for (or to renew) the subscription of a channel's feed; the hub verifies it asynchronously. */
export async function subscribe(deps: WebSubDeps, channelId: string): Promise<void> {
  const now = new Date(deps.now());
  // One secret per subscription, kept across renewals (notifications in flight stay verifiable).
  const [row] = await deps.db.query<SubscriptionRow>(
    `INSERT INTO websub_subscriptions (channel_id, secret, state, requested_at) VALUES ($1, $2, 'requested', $3)
     ON CONFLICT (channel_id) DO UPDATE SET state = CASE WHEN websub_subscriptions.state = 'verified' THEN 'verified'
       ELSE 'requested' END, requested_at = $3, last_error = NULL
     RETURNING *`,
    [channelId, randomBytes(24).toString('base64url'), now],
  );
  const form = new URLSearchParams({
    'hub.callback': callbackFor(deps.settings, channelId, row!.secret),
    'hub.mode': 'subscribe',
    'hub.topic': topicFor(deps.settings, channelId),
    'hub.verify': 'async',
    'hub.secret': row!.secret,
    'hub.lease_seconds': String(deps.settings.leaseSeconds),
  });
  let problem: string | undefined;
  try {
    const res = await fetch(deps.settings.hubUrl, {
      method: 'POST',
      body: form,
      signal: AbortSignal.timeout(deps.settings.timeoutMs),
      redirect: 'manual',
    });
    const text = await res.text();
    if (res.status !== 202 && res.status !== 204)
      problem = `The hub answered HTTP ${res.status}: ${text.slice(0, 200)}`;
  } catch (error) {
    problem = `The hub could not be reached: ${(error as Error).message}`;
  }
  if (problem) {
    await deps.db.query(
      "UPDATE websub_subscriptions SET state = CASE WHEN state = 'verified' THEN state ELSE 'failed' END, " +
        'last_error = $2 WHERE channel_id = $1',
      [channelId, problem],
    );
    throw new AppError('UPSTREAM_ERROR', problem);
  }
}

export interface VerificationQuery {
  'hub.mode': string;
  'hub.topic': string;
  'hub.challenge'?: string | undefined;
  'hub.lease_seconds'?: number | undefined;
  'hub.reason'?: string | undefined;
}

/** Whether `token` is the callback token of the channel's subscription (constant time). */
function tokenMatches(
  row: SubscriptionRow | undefined,
  channelId: string,
  token: string | undefined,
): row is SubscriptionRow {
  if (!row || !token) return false;
  return sameBytes(Buffer.from(token), Buffer.from(callbackToken(row.secret, channelId)));
}

/**
 * The hub's verification of intent, at the callback `token` we gave it (callbackToken). Returns the
 * challenge to echo when we asked for this; throws NOT_FOUND otherwise (the hub then gives up), so
 * nobody can subscribe us to anything, nor change what we record of a subscription.
 */
export async function verifyIntent(
  deps: WebSubDeps,
  channelId: string,
  token: string | undefined,
  query: VerificationQuery,
): Promise<string> {
  if (query['hub.topic'] !== topicFor(deps.settings, channelId))
    throw new AppError('NOT_FOUND', 'Not a topic this callback subscribes to.');
  const [row] = await deps.db.query<SubscriptionRow>('SELECT * FROM websub_subscriptions WHERE channel_id = $1', [
    channelId,
  ]);
  if (!tokenMatches(row, channelId, token)) throw new AppError('NOT_FOUND', 'Not a callback this service gave a hub.');
  const watched = (await deps.db.query('SELECT 1 FROM watches WHERE channel_id = $1 LIMIT 1', [channelId])).length > 0;
  const mode = query['hub.mode'];
  if (mode === 'denied') {
    await deps.db.query("UPDATE websub_subscriptions SET state = 'failed', last_error = $2 WHERE channel_id = $1", [
      channelId,
      `The hub denied the subscription${query['hub.reason'] ? `: ${query['hub.reason']}` : ''}.`,
    ]);
    return query['hub.challenge'] ?? '';
  }
  const challenge = query['hub.challenge'];
  if (!challenge) throw new AppError('VALIDATION_FAILED', 'hub.challenge is required.');
  if (mode === 'subscribe') {
    if (!watched) throw new AppError('NOT_FOUND', 'No subscription of this channel was requested.');
    const lease = Math.min(query['hub.lease_seconds'] ?? deps.settings.leaseSeconds, MAX_LEASE_SECONDS);
    const now = deps.now();
    await deps.db.query(
      "UPDATE websub_subscriptions SET state = 'verified', verified_at = $2, lease_expires_at = $3, " +
        'last_error = NULL WHERE channel_id = $1',
      [channelId, new Date(now), new Date(now + lease * 1000)],
    );
    return challenge;
  }
  if (mode === 'unsubscribe') {
    // Only a channel nobody watches any more is let go.
    if (watched) throw new AppError('NOT_FOUND', 'This channel is still watched.');
    await deps.db.query('DELETE FROM websub_subscriptions WHERE channel_id = $1', [channelId]);
    return challenge;
  }
  throw new AppError('VALIDATION_FAILED', 'hub.mode must be subscribe, unsubscribe or denied.');
}

/** Equal bytes, compared in constant time (signatures and callback tokens). */
function sameBytes(given: Buffer, expected: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** X-Hub-Signature: <sha1|sha256|sha384|sha512>=<hex HMAC of the raw body with hub.secret>. */
export function signatureValid(secret: string, header: string | undefined, body: Buffer): boolean {
  const match = /^(sha1|sha256|sha384|sha512)=([0-9a-f]+)$/i.exec(header?.trim() ?? '');
  if (!match) return false;
  const expected = createHmac(match[1]!.toLowerCase(), secret).update(body).digest();
  return sameBytes(Buffer.from(match[2]!, 'hex'), expected);
}

/**
 * The entries of a YouTube upload feed notification: video and channel ids. The documents are
 * small and fixed in shape (Atom with the yt: namespace), and these two elements are all a check
 * needs, so they are read with a strict pattern instead of a general XML parser. Deleted entries
 * (at:deleted-entry) carry neither and are ignored.
 */
export interface NotificationEntry {
  videoId: string;
  channelId: string;
  /** The entry's <updated> (ISO 8601), as sent; '' when it has none. */
  updated: string;
}

export function parseNotification(xml: string): NotificationEntry[] {
  const entries: NotificationEntry[] = [];
  for (const [entry] of xml.matchAll(/<entry[\s>][\s\S]*?<\/entry>/g)) {
    const videoId = /<yt:videoId>\s*([A-Za-z0-9_-]{11})\s*<\/yt:videoId>/.exec(entry)?.[1];
    const channelId = /<yt:channelId>\s*(UC[A-Za-z0-9_-]{22})\s*<\/yt:channelId>/.exec(entry)?.[1];
    const updated = /<updated>\s*([0-9T:.+Z-]{10,40})\s*<\/updated>/.exec(entry)?.[1] ?? '';
    if (videoId && channelId) entries.push({ videoId, channelId, updated });
  }
  return entries;
}

/**
 * The entries not acted on before, each remembered at once: a notification is processed once per
 * (video, <updated>), whatever the video turns out to be (a replay of one about a video that is not a
 * Short would otherwise queue a check each time). An entry updated longer ago than a lease is
 * dropped: no hub sends those, so it can only be a replay.
 */
async function firstSightings(deps: WebSubDeps, channelId: string, entries: NotificationEntry[]): Promise<string[]> {
  const now = deps.now();
  const oldest = now - deps.settings.leaseSeconds * 1000;
  const fresh = entries.filter((e) => {
    const updated = Date.parse(e.updated);
    return Number.isNaN(updated) ? e.updated === '' : updated >= oldest;
  });
  if (fresh.length === 0) return [];
  await deps.db.query('DELETE FROM websub_notifications_seen WHERE received_at < $1', [new Date(oldest)]);
  const rows = await deps.db.query<{ video_id: string }>(
    `INSERT INTO websub_notifications_seen (channel_id, video_id, updated, received_at)
     SELECT $1, v, u, $4 FROM unnest($2::text[], $3::text[]) AS x(v, u)
     ON CONFLICT DO NOTHING RETURNING video_id`,
    [channelId, fresh.map((e) => e.videoId), fresh.map((e) => e.updated), new Date(now)],
  );
  return [...new Set(rows.map((r) => r.video_id))];
}

export type NotificationOutcome =
  | { outcome: 'accepted'; videoIds: string[] }
  | { outcome: 'bad-signature' }
  | { outcome: 'unknown-topic' };

/**
 * Checks a notification's signature and reads it; the caller then checks the channel's watches.
 * `token`: the callback's, when it came to one with a token (a lease taken before callbacks had
 * one notifies the callback without; the signature is what authenticates a notification).
 */
export async function readNotification(
  deps: WebSubDeps,
  channelId: string,
  token: string | undefined,
  signature: string | undefined,
  body: Buffer,
): Promise<NotificationOutcome> {
  const [row] = await deps.db.query<SubscriptionRow>('SELECT * FROM websub_subscriptions WHERE channel_id = $1', [
    channelId,
  ]);
  if (!row || (token !== undefined && !tokenMatches(row, channelId, token))) return { outcome: 'unknown-topic' };
  if (!signatureValid(row.secret, signature, body)) return { outcome: 'bad-signature' };
  const entries = parseNotification(body.toString('utf8')).filter((e) => e.channelId === channelId);
  return { outcome: 'accepted', videoIds: await firstSightings(deps, channelId, entries) };
}

/**
 * Channels whose subscription needs asking for: watched but never subscribed, failed a while ago,
 * requested but never verified, with a tenth of the lease left, or with a lease longer than any
 * hub grants.
 */
export async function subscriptionsDue(deps: WebSubDeps): Promise<string[]> {
  const now = deps.now();
  const rows = await deps.db.query<{ channel_id: string }>(
    `SELECT DISTINCT w.channel_id FROM watches w LEFT JOIN websub_subscriptions s ON s.channel_id = w.channel_id
      WHERE s.channel_id IS NULL
         OR (s.state = 'failed' AND s.requested_at < $1)
         OR (s.state = 'requested' AND s.requested_at < $2)
         OR (s.state = 'verified' AND s.lease_expires_at < $3 AND s.requested_at < $4)
         -- A lease no hub grants (recorded from a forged verification before callbacks had a token): asked for again.
         OR (s.state = 'verified' AND s.lease_expires_at > $5 AND s.requested_at < $4)`,
    [
      new Date(now - RETRY_FAILED_MS),
      new Date(now - RETRY_UNVERIFIED_MS),
      new Date(now + (deps.settings.leaseSeconds * 1000) / 10),
      new Date(now - RETRY_FAILED_MS),
      new Date(now + MAX_LEASE_SECONDS * 1000),
    ],
  );
  return rows.map((r) => r.channel_id);
}
