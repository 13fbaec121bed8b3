// Credentials: the login throttle, the password hashing gate, sessions (JWT) and the authenticator
// of API keys and sessions, whose key revocations reach every instance (Redis pub/sub) or this one.
import { randomBytes } from 'node:crypto';
import type { Core } from './core.ts';
import type { Stores } from './stores.ts';
import { createSettingsStore } from '../infra/db/settings-store.ts';
import { redisRevocationBus } from '../infra/redis-revocation-bus.ts';
import { createJwtService, type JwtService } from '../domain/auth/jwt.ts';
import { createAuthenticator, localRevocationBus, type Authenticator } from '../domain/auth/authenticator.ts';
import {
  createLoginThrottle,
  memoryThrottleStore,
  redisThrottleStore,
  sqlThrottleStore,
  type LoginThrottle,
} from '../domain/auth/login-throttle.ts';
import { createPasswordGate, type PasswordGate } from '../domain/auth/password-gate.ts';
import { createFirstOperatorSetup, type FirstOperatorSetup } from '../domain/operators/first-operator.ts';
import { createAnswerSeal, type AnswerSeal } from '../domain/idempotency/answer-seal.ts';

export interface Access {
  loginThrottle: LoginThrottle;
  passwordGate: PasswordGate;
  jwt: JwtService;
  auth: Authenticator;
  /** The first operator's one-time setup link, while the service has no users. */
  firstOperator: FirstOperatorSetup;
  /** Seals the answers kept for Idempotency-Key retries, with a key derived from the same secret. */
  answerSeal: AnswerSeal;
}

export async function buildAuth(
  { config, db, clock: now, log }: Core,
  { redis, subscriber }: Pick<Stores, 'redis' | 'subscriber'>,
): Promise<Access> {
  const loginThrottle = createLoginThrottle(
    redis ? redisThrottleStore(redis) : db.kind === 'postgres' ? sqlThrottleStore(db) : memoryThrottleStore(),
    {
      maxFailures: config.LOGIN_MAX_FAILURES,
      windowSeconds: config.LOGIN_WINDOW_SECONDS,
    },
  );
  const passwordGate = createPasswordGate({
    concurrency: config.PASSWORD_HASH_CONCURRENCY,
    maxQueue: config.PASSWORD_HASH_QUEUE,
  });
  // Without JWT_SECRET, one is generated once and shared through the database, so every instance
  // (and every restart) signs and verifies with the same.
  const secret =
    config.JWT_SECRET ||
    (await createSettingsStore(db).getOrInsert('jwt_secret', randomBytes(48).toString('base64url')));
  const jwt = createJwtService({
    secret,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    ttlSeconds: config.JWT_TTL_SECONDS,
  });
  const auth = createAuthenticator(
    db,
    jwt,
    redis && subscriber ? redisRevocationBus(redis, subscriber, config.REDIS_KEY_PREFIX, log) : localRevocationBus(),
    config.CREDENTIAL_CACHE_MS,
    now,
  );
  return {
    loginThrottle,
    passwordGate,
    jwt,
    auth,
    firstOperator: createFirstOperatorSetup(db, secret),
    answerSeal: createAnswerSeal(secret),
  };
}
