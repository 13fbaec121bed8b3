// Bearer credential → caller. API keys are recognised by their prefix and checked against the
// store by hash; results are cached for CREDENTIAL_CACHE_MS (a second) so the hot path rarely touches the database,
// and revocations are announced (locally, and through Redis to other instances) to drop the
// cached entry at once. Anything else is treated as a session JWT.
import type { Queryable } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import { hashApiKey, isWellFormedApiKey, looksLikeApiKey } from '../keys/api-key-format.ts';
import { findKeyBySecret, touchApiKey, type ResolvedKey } from '../keys/api-keys.ts';
import type { JwtService } from './jwt.ts';
import type { KeyScope } from '../keys/scopes.ts';
import { createLookupCache } from '../../infra/cache/lookup-cache.ts';

export interface Caller {
  accountId: string;
  keyId: string | null;
  via: 'api_key' | 'session';
  /** What an API key may do; null for a session (everything). */
  scopes: readonly KeyScope[] | null;
}

export interface RevocationBus {
  publish(keyHash: string): Promise<void>;
  subscribe(onRevoked: (keyHash: string) => void): void;
}

const TOUCH_INTERVAL_MS = 60_000;

/**
 * cacheMs: CREDENTIAL_CACHE_MS, how long a key lookup is trusted (revocations on this instance drop it at once).
 * now: the clock expiry is judged by; the cached lookup keeps the expiry time, so a key stops at its expiry, not a cache lifetime later.
 */
export function createAuthenticator(db: Queryable, jwt: JwtService, bus: RevocationBus, cacheMs: number, now: () => number = Date.now) {
  const cache = createLookupCache<ResolvedKey | undefined>({ ttlMs: cacheMs, now });
  const lastTouched = new Map<string, number>();
  bus.subscribe((hash) => cache.delete(hash));

  function resolveKey(token: string): Promise<ResolvedKey | undefined> {
    return cache.get(hashApiKey(token), () => findKeyBySecret(db, token));
  }

  return {
    async authenticate(header: string | undefined): Promise<Caller> {
      if (!header) throw new AppError('UNAUTHORIZED', 'Send "Authorization: Bearer <API key or session token>".');
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match) throw new AppError('UNAUTHORIZED', 'The Authorization header must use the Bearer scheme.');
      const token = match[1]!;
      if (looksLikeApiKey(token)) {
        if (!isWellFormedApiKey(token)) throw new AppError('UNAUTHORIZED', 'The API key is malformed (checksum mismatch).');
        const key = await resolveKey(token);
        if (!key) throw new AppError('UNAUTHORIZED', 'The API key is not valid.');
        if (key.revoked) throw new AppError('UNAUTHORIZED', 'The API key has been revoked.');
        const at = now();
        if (key.expiresAt !== null && key.expiresAt <= at) throw new AppError('UNAUTHORIZED', `The API key expired at ${new Date(key.expiresAt).toISOString()}; create a new one in the dashboard.`);
        if ((lastTouched.get(key.keyId) ?? 0) + TOUCH_INTERVAL_MS < at) {
          lastTouched.set(key.keyId, at);
          // Last-use time is informational: written at most once a minute per key, off the request path.
          // A failed write is retried on the key's next use (forget the touch), never logged per request.
          touchApiKey(db, key.keyId).catch(() => lastTouched.delete(key.keyId));
        }
        return { accountId: key.accountId, keyId: key.keyId, via: 'api_key', scopes: key.scopes };
      }
      return { accountId: await jwt.verify(token), keyId: null, via: 'session', scopes: null };
    },
    /** Forget a key everywhere now (called after revocation). */
    async revoked(keyHash: string): Promise<void> {
      cache.delete(keyHash);
      await bus.publish(keyHash);
    },
  };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;

export function localRevocationBus(): RevocationBus {
  const listeners: Array<(hash: string) => void> = [];
  return {
    async publish(hash) {
      for (const listener of listeners) listener(hash);
    },
    subscribe(listener) {
      listeners.push(listener);
    },
  };
}
