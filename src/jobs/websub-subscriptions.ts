// Watched channels' feeds subscribed at the WebSub hub: when a watch is created, and again by the
// sweep for leases about to end and subscriptions that failed. Push is an addition to polling,
// never a replacement: a failed subscription is logged and repeated, and checks go on meanwhile.
import { subscribe, subscriptionsDue, type WebSubDeps } from '../domain/watches/websub.ts';

/** Subscription requests a renewal sends at once (each waits up to the hub's timeout). */
const SUBSCRIPTIONS_AT_ONCE = 4;

export interface WebSubSubscriptions {
  /** Subscribes the channel's feed; never rejects (a failure is logged, the sweep repeats it). */
  subscribe(channelId: string): Promise<void>;
  /** Renews leases and retries failed subscriptions, a few at a time; a renewal still running makes this a no-op. */
  renew(): Promise<void>;
}

/** `websub` undefined (no PUBLIC_BASE_URL: the hub could not reach us): both do nothing. */
export function websubSubscriptions(
  websub: WebSubDeps | undefined,
  log: { error(obj: unknown, msg?: string): void },
): WebSubSubscriptions {
  const subscribeChannel = (channelId: string) => {
    if (!websub) return Promise.resolve();
    return subscribe(websub, channelId).catch((err: unknown) =>
      log.error(
        { err, channelId },
        'WebSub subscription request failed; polling continues and the request is repeated',
      ),
    );
  };
  let renewing = false;
  return {
    subscribe: subscribeChannel,
    async renew() {
      if (!websub || renewing) return;
      renewing = true;
      try {
        const due = await subscriptionsDue(websub);
        const next = () => due.shift();
        await Promise.all(
          Array.from({ length: Math.min(SUBSCRIPTIONS_AT_ONCE, due.length) }, async () => {
            for (let channelId = next(); channelId !== undefined; channelId = next()) await subscribeChannel(channelId);
          }),
        );
      } finally {
        renewing = false;
      }
    },
  };
}
