// A fake of YouTube's WebSub (PubSubHubbub) hub, https://pubsubhubbub.appspot.com, and of the
// channel upload feeds it distributes (https://www.youtube.com/feeds/videos.xml?channel_id=UC…),
// with the real protocol (W3C WebSub / PubSubHubbub 0.4 as Google's hub speaks it):
// - POST /subscribe, form-encoded hub.callback, hub.mode (subscribe | unsubscribe), hub.topic,
//   optional hub.secret and hub.lease_seconds → 202 Accepted, then, asynchronously, the
//   verification of intent: GET <callback>?hub.mode=…&hub.topic=…&hub.challenge=…&hub.lease_seconds=…;
//   only a 2xx answer whose body is the challenge makes (or ends) the subscription.
// - When a channel publishes, every live subscriber of its topic gets a POST of the Atom feed with
//   the new entry (yt:videoId, yt:channelId), signed X-Hub-Signature: sha1=<HMAC-SHA1 of the body
//   with hub.secret> when a secret was given, with Link rel=hub and rel=self headers.
// - GET /feeds/videos.xml?channel_id=UC… serves the channel's feed (its 15 newest uploads).
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GeneratedChannel } from './channel-generator.ts';
import type { ChannelRegistry } from './registry.ts';

export interface HubSubscription {
  topic: string;
  callback: string;
  secret: string | undefined;
  leaseSeconds: number;
  expiresAt: number;
}

export interface HubNotification {
  callback: string;
  status: number;
  videoId: string;
}

const DEFAULT_LEASE = 432_000;
const MAX_LEASE = 864_000;

const xmlEscape = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** The topic (feed URL) of a channel on this fake's origin. */
export function feedTopic(origin: string, channelId: string): string {
  return `${origin}/feeds/videos.xml?channel_id=${channelId}`;
}

function entryXml(channel: GeneratedChannel, index: number): string {
  const video = channel.video(index);
  const published = new Date(video.snippet.publishedAt).toISOString().replace(/\.\d{3}Z$/, '+00:00');
  return `  <entry>
    <id>yt:video:${video.id}</id>
    <yt:videoId>${video.id}</yt:videoId>
    <yt:channelId>${channel.id}</yt:channelId>
    <title>${xmlEscape(video.snippet.title)}</title>
    <link rel="alternate" href="https://www.youtube.com/shorts/${video.id}"/>
    <author>
      <name>${xmlEscape(channel.resource.snippet.title)}</name>
      <uri>https://www.youtube.com/channel/${channel.id}</uri>
    </author>
    <published>${published}</published>
    <updated>${published}</updated>
  </entry>
`;
}

/** The Atom document YouTube's feeds and hub notifications use. */
export function atomFeed(origin: string, hubUrl: string, channel: GeneratedChannel, indexes: number[]): string {
  return `<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns="http://www.w3.org/2005/Atom">
  <link rel="hub" href="${xmlEscape(hubUrl)}"/>
  <link rel="self" href="${xmlEscape(feedTopic(origin, channel.id))}"/>
  <title>YouTube video feed</title>
  <updated>${new Date().toISOString().replace(/Z$/, '+00:00')}</updated>
${indexes.map((i) => entryXml(channel, i)).join('')}</feed>
`;
}

interface HubState {
  registry: ChannelRegistry;
  origin: () => string;
  /** Live and lapsed subscriptions by topic and callback (hubKey). */
  subscriptions: Map<string, HubSubscription>;
  notifications: HubNotification[];
  verifications: Array<{ mode: string; topic: string; callback: string; status: number; confirmed: boolean }>;
  /** Verifications and notifications under way, for settled(). */
  pending: Set<Promise<void>>;
}

const hubKey = (topic: string, callback: string) => `${topic} ${callback}`;
const hubUrlOf = (state: HubState) => `${state.origin()}/subscribe`;

function track(state: HubState, work: Promise<void>): void {
  state.pending.add(work);
  void work.finally(() => state.pending.delete(work));
}

/** The verification of intent: only a 2xx answer whose body is the challenge makes (or ends) the subscription. */
async function verify(
  state: HubState,
  mode: string,
  topic: string,
  callback: string,
  secret: string | undefined,
  leaseSeconds: number,
): Promise<void> {
  const challenge = randomBytes(16).toString('hex');
  const url = new URL(callback);
  url.searchParams.set('hub.mode', mode);
  url.searchParams.set('hub.topic', topic);
  url.searchParams.set('hub.challenge', challenge);
  if (mode === 'subscribe') url.searchParams.set('hub.lease_seconds', String(leaseSeconds));
  let status = 0;
  let confirmed = false;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'manual' });
    status = res.status;
    confirmed = res.ok && (await res.text()) === challenge;
  } catch {
    // An unreachable callback confirms nothing.
  }
  state.verifications.push({ mode, topic, callback, status, confirmed });
  if (!confirmed) return;
  if (mode === 'subscribe')
    state.subscriptions.set(hubKey(topic, callback), {
      topic,
      callback,
      secret,
      leaseSeconds,
      expiresAt: Date.now() + leaseSeconds * 1000,
    });
  else state.subscriptions.delete(hubKey(topic, callback));
}

async function handleSubscribe(
  state: HubState,
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
): Promise<void> {
  const form = new URLSearchParams(body);
  const mode = form.get('hub.mode');
  const topic = form.get('hub.topic');
  const callback = form.get('hub.callback');
  const secret = form.get('hub.secret') ?? undefined;
  const requested = Number(form.get('hub.lease_seconds') ?? DEFAULT_LEASE);
  const bad = (message: string) => {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(message);
  };
  if (req.method !== 'POST') return bad('Invalid request method');
  if (mode !== 'subscribe' && mode !== 'unsubscribe') return bad('Invalid value for hub.mode');
  if (!topic || !/^https?:\/\//.test(topic)) return bad('Invalid value for hub.topic');
  if (!callback || !/^https?:\/\//.test(callback)) return bad('Invalid value for hub.callback');
  if (secret !== undefined && Buffer.byteLength(secret) >= 200) return bad('Invalid value for hub.secret');
  const leaseSeconds =
    Number.isFinite(requested) && requested > 0 ? Math.min(Math.floor(requested), MAX_LEASE) : DEFAULT_LEASE;
  res.writeHead(202, { 'content-type': 'text/plain; charset=utf-8' });
  res.end();
  track(state, verify(state, mode, topic, callback, secret, leaseSeconds));
}

function feed(state: HubState, res: ServerResponse, channelId: string | null): void {
  const channel = channelId ? state.registry.byId(channelId) : undefined;
  if (!channel) {
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    return void res.end('<html><body>Error 404 (Not Found)</body></html>');
  }
  const indexes = Array.from({ length: Math.min(15, channel.shortsCount) }, (_, i) => i);
  res.writeHead(200, { 'content-type': 'text/xml; charset=UTF-8' });
  res.end(atomFeed(state.origin(), hubUrlOf(state), channel, indexes));
}

function notify(state: HubState, channel: GeneratedChannel): void {
  const topic = feedTopic(state.origin(), channel.id);
  const body = atomFeed(state.origin(), hubUrlOf(state), channel, [0]);
  for (const sub of state.subscriptions.values()) {
    if (sub.topic !== topic || sub.expiresAt < Date.now()) continue;
    const headers: Record<string, string> = {
      'content-type': 'application/atom+xml',
      link: `<${hubUrlOf(state)}>; rel=hub, <${topic}>; rel=self`,
      'user-agent': 'FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)',
    };
    if (sub.secret !== undefined)
      headers['x-hub-signature'] = `sha1=${createHmac('sha1', sub.secret).update(body).digest('hex')}`;
    track(state, deliver(state, sub.callback, headers, body, channel.videoId(0)));
  }
}

/** One notification POST, logged with its status (0: no answer). */
function deliver(
  state: HubState,
  callback: string,
  headers: Record<string, string>,
  body: string,
  videoId: string,
): Promise<void> {
  return fetch(callback, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000), redirect: 'manual' })
    .then(async (res) => {
      await res.arrayBuffer();
      state.notifications.push({ callback, status: res.status, videoId });
    })
    .catch(() => {
      state.notifications.push({ callback, status: 0, videoId });
    });
}

export function createFakeHub(registry: ChannelRegistry, origin: () => string) {
  const state: HubState = {
    registry,
    origin,
    subscriptions: new Map(),
    notifications: [],
    verifications: [],
    pending: new Set(),
  };
  return {
    hubUrl: () => hubUrlOf(state),
    /** POST /subscribe: answers 202 and verifies the intent asynchronously, or 400 for a bad request. */
    handleSubscribe: (req: IncomingMessage, res: ServerResponse, body: string): Promise<void> =>
      handleSubscribe(state, req, res, body),
    /** GET /feeds/videos.xml?channel_id=…: the channel's 15 newest uploads. */
    feed: (res: ServerResponse, channelId: string | null): void => feed(state, res, channelId),
    /** A channel published its newest video: every live subscriber of its topic is notified. */
    notify: (channel: GeneratedChannel): void => notify(state, channel),
    subscriptions: () => [...state.subscriptions.values()].map((s) => ({ ...s })),
    notifications: () => state.notifications.map((n) => ({ ...n })),
    verifications: () => state.verifications.map((v) => ({ ...v })),
    /** Waits for verifications and notifications under way. */
    settled: async () => {
      while (state.pending.size > 0) await Promise.allSettled([...state.pending]);
    },
  };
}

export type FakeHub = ReturnType<typeof createFakeHub>;
