// Bearer credential → caller (and its account). API keys are recognised by their prefix and checked
// against the store by hash, read with their account in one statement; results are cached for
// CREDENTIAL_CACHE_MS (a second) so the hot path rarely touches the database, and revocations are
// announced (locally, and through Redis to other instances) to drop the cached entry at once.
// Anything else is treated as a session JWT, whose account is looked up (and cached) by id.
import type { Queryable } from '../../infra/db/database.ts';
import { AppError } from '../../errors.ts';
import { hashApiKey, isWellFormedApiKey, looksLikeApiKey } from '../keys/api-key-format.ts';
import { findKeyWithAccount, touchApiKey, type KeyWithAccount } from '../keys/api-keys.ts';
import { getAccount, type AccountRow } from '../accounts/accounts.ts';
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

/** The caller and its account (undefined: the account behind the credential no longer exists). */
export interface Identified {
  caller: Caller;
  account: AccountRow | undefined;
}

export interface RevocationBus {
  publish(keyHash: string): Promise<void>;
  subscribe(onRevoked: (keyHash: string) => void): void;
}

const TOUCH_INTERVAL_MS = 60_000;

/**
 * cacheMs: CREDENTIAL_CACHE_MS, how long a key lookup is trusted (revocations on this instance drop it at once).
 * now: the clock expiry is judged by; the cached lookup keeps the expiry time, so a key stops at its expiry, not a
 * cache lifetime later.
 */
export function createAuthenticator(
  db: Queryable,
  jwt: JwtService,
  bus: RevocationBus,
  cacheMs: number,
  now: () => number = Date.now,
) {
  // A key's entry holds the account read with it: it lapses and is revoked with the key, so a
  // disabled account reaches every instance within cacheMs, as before.
  const cache = createLookupCache<KeyWithAccount | undefined>({ ttlMs: cacheMs, now });
  // Sessions' accounts, by id (disabling one reaches every instance within cacheMs).
  const accounts = createLookupCache<AccountRow | undefined>({ ttlMs: cacheMs, now });
  const lastTouched = new Map<string, number>();
  bus.subscribe((hash) => cache.delete(hash));

  function resolveKey(token: string): Promise<KeyWithAccount | undefined> {
    return cache.get(hashApiKey(token), () => findKeyWithAccount(db, token));
  }

  /** The caller; for an API key also its account, read with the key (null: not read, a session). */
  async function resolve(
    header: string | undefined,
  ): Promise<{ caller: Caller; keyAccount: AccountRow | undefined | null }> {
    if (!header) throw new AppError('UNAUTHORIZED', 'Send "Authorization: Bearer <API key or session token>".');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new AppError('UNAUTHORIZED', 'The Authorization header must use the Bearer scheme.');
    const token = match[1]!;
    if (looksLikeApiKey(token)) {
      if (!isWellFormedApiKey(token))
        throw new AppError('UNAUTHORIZED', 'The API key is malformed (checksum mismatch).');
      const found = await resolveKey(token);
      if (!found) throw new AppError('UNAUTHORIZED', 'The API key is not valid.');
      const { key } = found;
      if (key.revoked) throw new AppError('UNAUTHORIZED', 'The API key has been revoked.');
      const at = now();
      if (key.expiresAt !== null && key.expiresAt <= at)
        throw new AppError(
          'UNAUTHORIZED',
          `The API key expired at ${new Date(key.expiresAt).toISOString()}; create a new one in the dashboard.`,
        );
      if ((lastTouched.get(key.keyId) ?? 0) + TOUCH_INTERVAL_MS < at) {
        lastTouched.set(key.keyId, at);
        // Last-use time is informational: written at most once a minute per key, off the request path.
        // A failed write is retried on the key's next use (forget the touch), never logged per request.
        touchApiKey(db, key.keyId).catch(() => lastTouched.delete(key.keyId));
      }
      return {
        caller: { accountId: key.accountId, keyId: key.keyId, via: 'api_key', scopes: key.scopes },
        keyAccount: found.account,
      };
    }
    return {
      caller: { accountId: await jwt.verify(token), keyId: null, via: 'session', scopes: null },
      keyAccount: null,
    };
  }

  return {
    /** Who is calling (the operator API reads the account itself, uncached). */
    async authenticate(header: string | undefined): Promise<Caller> {
      return (await resolve(header)).caller;
    },
    /** Who is calling and their account, each cached for cacheMs (a request's authentication). */
    async identify(header: string | undefined): Promise<Identified> {
      const { caller, keyAccount } = await resolve(header);
      const account =
        keyAccount !== null ? keyAccount : await accounts.get(caller.accountId, () => getAccount(db, caller.accountId));
      return { caller, account };
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
