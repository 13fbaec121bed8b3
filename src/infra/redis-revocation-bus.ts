// API key revocations told to every instance through Redis pub/sub (the authenticator's revocation
// bus in scale-out mode). A lost message costs at most the cache lifetime: the other instances'
// caches expire anyway.
import type { Redis } from 'ioredis';

/**
 * `subscriber` is a connection of its own (a subscribed connection runs no other command). ioredis
 * does not prefix pub/sub channel names, so the key prefix is added to the channel's here.
 */
export function redisRevocationBus(
  publisher: Redis,
  subscriber: Redis,
  keyPrefix: string,
  log: { error(obj: unknown, msg?: string): void },
): { publish(hash: string): Promise<void>; subscribe(listener: (hash: string) => void): void } {
  const channel = `${keyPrefix}api-key-revoked`;
  return {
    async publish(hash) {
      await publisher
        .publish(channel, hash)
        .catch((error: unknown) => log.error({ err: error }, 'revocation publish failed'));
    },
    subscribe(listener) {
      // Commands fail fast rather than queue while the connection is not up (redis.ts), and it may
      // still be connecting when this is called: subscribing then would fail once and leave the
      // process without notices for its life. So subscribe once it is ready; ioredis subscribes
      // again by itself after a reconnect.
      const start = () =>
        void subscriber
          .subscribe(channel)
          .catch((error: unknown) =>
            log.error(
              { err: error },
              'revocation subscribe failed; revocations by other instances wait for the cache to expire',
            ),
          );
      if (subscriber.status === 'ready') start();
      else subscriber.once('ready', start);
      subscriber.on('message', (ch: string, message: string) => {
        if (ch === channel) listener(message);
      });
    },
  };
}
