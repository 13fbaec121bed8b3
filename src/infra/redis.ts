// One Redis connection per process for commands, plus one for pub/sub (a subscribed connection
// cannot run other commands). ioredis reconnects by itself; commands fail fast while it is down
// so requests answer 503 instead of hanging (see the error handler).
// ioredis is loaded only when a Redis is configured: the embedded mode has none, and the library
// was ~2 MiB of heap in every process.
import type { Redis } from 'ioredis';

export async function connectRedis(url: string, keyPrefix = '', commandTimeoutMs = 1000): Promise<Redis> {
  const { Redis } = await import('ioredis');
  return new Redis(url, {
    keyPrefix,
    // A Redis that accepts connections but never answers (stopped, overloaded, a half-open network
    // path) fails each command after this long instead of holding the request (docs/spec.md, security commitments).
    commandTimeout: commandTimeoutMs,
    keepAlive: 10_000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    lazyConnect: false,
  });
}

/**
 * Logs a connection's outages: ioredis reports each failed reconnection as an 'error' event, printed
 * raw to stderr when nobody listens, so an outage is logged once, and its end, as JSON lines like
 * the rest of the log. Returns the connection.
 */
export function logConnectionState(
  connection: Redis,
  name: string,
  log: { error(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void },
): Redis {
  let down = false;
  connection.on('error', (err: Error) => {
    if (!down) log.error({ err, connection: name }, 'Redis connection failed; reconnecting');
    down = true;
  });
  connection.on('ready', () => {
    if (down) log.info({ connection: name }, 'Redis connection is back');
    down = false;
  });
  return connection;
}

export function isRedisUnavailable(error: unknown): boolean {
  const message = (error as Error | null)?.message ?? '';
  const name = (error as Error | null)?.name ?? '';
  if (
    name === 'MaxRetriesPerRequestError' ||
    /Stream isn't writeable|Connection is closed|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|enableOfflineQueue|Command timed out/i.test(
      message,
    )
  )
    return true;
  // A Redis that answers but cannot take writes — at maxmemory (OOM), unable to save (MISCONF), a
  // replica after a failover (READONLY), loading or failing over — is unavailable too (found by
  // review: these answered 500).
  return name === 'ReplyError' && /^(OOM|MISCONF|READONLY|LOADING|MASTERDOWN|TRYAGAIN|CLUSTERDOWN)\b/.test(message);
}
