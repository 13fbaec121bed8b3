// Reading YouTube: the source in use, the Data API key pool and client, and the InnerTube client
// when the source reads InnerTube.
import type { Core } from './core.ts';
import type { InnertubeClient } from '../infra/innertube/innertube-types.ts';
import { createSourceHealth, type SourceHealth, type SourceName } from '../infra/source-health.ts';
import { createKeyPool, parseKeyList, type KeyPool } from '../domain/quota/key-pool.ts';
import { checkKey, createYoutubeClient, type YoutubeClient } from '../domain/shorts/youtube-client.ts';
import type { SourceMode } from '../domain/shorts/shorts-service.ts';

export interface Upstream {
  /** The upstream source in use (YOUTUBE_SOURCE with auto decided). */
  source: SourceMode;
  /** The InnerTube client; undefined in data-api mode, which never reads InnerTube. */
  innertube: InnertubeClient | undefined;
  keyPool: KeyPool;
  /** The Data API client (tests close it as a stopping service does). */
  youtube: YoutubeClient;
  /** Each source's recent calls and breakers (/readyz, /metrics, the operator API). */
  health: SourceHealth;
  /** Closes both clients, then gives back what is left of the keys' leases. */
  close(): Promise<void>;
}

export async function buildUpstream({ config, db, metrics, clock: now, log }: Core): Promise<Upstream> {
  const apiKeys = parseKeyList(config.YOUTUBE_API_KEYS, config.YOUTUBE_API_KEY);
  // auto: hybrid (InnerTube lists, the Data API details) with a key; keyless InnerTube without one.
  const source: SourceMode =
    config.YOUTUBE_SOURCE === 'auto' ? (apiKeys.length > 0 ? 'hybrid' : 'innertube') : config.YOUTUBE_SOURCE;
  const sources: SourceName[] = [
    ...(source !== 'innertube' || apiKeys.length > 0 ? (['data-api'] as const) : []),
    ...(source !== 'data-api' ? (['innertube'] as const) : []),
  ];
  const health = createSourceHealth({ sources, now });
  // youtubei.js is loaded only by the modes that read InnerTube: it is ~40 MiB of the process at import.
  const innertube =
    source === 'data-api'
      ? undefined
      : await (await import('../infra/innertube/innertube-client.ts')).createInnertubeClient({
          baseUrl: config.YOUTUBE_INNERTUBE_BASE_URL,
          timeoutMs: config.YOUTUBE_TIMEOUT_MS,
          proxyUrl: config.INNERTUBE_PROXY_URL || undefined,
          pageRetry: { retries: config.INNERTUBE_PAGE_RETRIES, backoffMs: config.INNERTUBE_RETRY_BACKOFF_MS },
          onCall: (call) => metrics.innertubeCalls.inc({ endpoint: call.endpoint, status: String(call.status) }),
          onOutcome: ({ failure }) =>
            health.record(
              'innertube',
              failure
                ? { ok: false, class: failure.kind, ...(failure.status ? { status: failure.status } : {}) }
                : { ok: true },
            ),
        });
  const keyPool = createKeyPool(db, {
    keys: apiKeys,
    dailyUnits: config.YOUTUBE_KEY_DAILY_UNITS,
    reserveUnits: config.YOUTUBE_KEY_RESERVE_UNITS,
    now,
    onInvalid: (lease, reason) =>
      log.error(
        { key: `${lease.index}:${lease.keyId}`, reason },
        'YouTube rejected a Data API key: it is out of the pool until a re-check passes (after a minute, then ' +
          'twice as long each time, at most an hour; the other keys, if any, carry the ' +
          'load; with none left, requests that need the Data API answer 502 and nothing is charged). Check ' +
          'YOUTUBE_API_KEY / YOUTUBE_API_KEYS.',
      ),
    recheck: (key) => checkKey({ baseUrl: config.YOUTUBE_API_BASE_URL, timeoutMs: config.YOUTUBE_TIMEOUT_MS }, key),
    onRestored: (lease) =>
      log.info(
        { key: `${lease.index}:${lease.keyId}` },
        'A rejected YouTube Data API key passed its re-check: back in the pool',
      ),
    onExhausted: (lease) =>
      log.info(
        { key: `${lease.index}:${lease.keyId}` },
        'YouTube Data API key out of quota; it rests until midnight America/Los_Angeles',
      ),
  });
  const youtube = createYoutubeClient({
    keys: keyPool,
    baseUrl: config.YOUTUBE_API_BASE_URL,
    timeoutMs: config.YOUTUBE_TIMEOUT_MS,
    onCall: (call) => {
      health.record('data-api', dataApiOutcome(call.status));
      metrics.upstreamCalls.inc({ endpoint: call.endpoint, status: String(call.status) });
      metrics.upstreamQuota.inc({ endpoint: call.endpoint, key: call.key }, call.units);
    },
  });
  return {
    source,
    health,
    innertube,
    keyPool,
    youtube,
    async close() {
      await Promise.allSettled([youtube.close(), innertube?.close()]);
      // After the clients: no call can take units any more, so what is left of the leases goes back.
      await keyPool
        .close()
        .catch((error: unknown) =>
          log.error({ err: error }, 'returning unspent key units failed (they count as spent today)'),
        );
    },
  };
}

/**
 * A Data API call's outcome for the source's health. A 404 is an answer (a channel without Shorts has
 * no Shorts playlist); a 403 is the key's trouble (quota, restrictions), a 429 the project's rate.
 */
function dataApiOutcome(status: number): { ok: true } | { ok: false; class: string; status?: number } {
  if (status === 0) return { ok: false, class: 'no-answer' };
  if (status < 400 || status === 404) return { ok: true };
  const kind = status === 403 ? 'forbidden' : status === 429 ? 'rate-limited' : 'http-error';
  return { ok: false, class: kind, status };
}
