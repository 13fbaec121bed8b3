// Builds every dependency once from the config: storage, caches, limiter, auth, upstream client,
// queue and worker. Embedded or scale-out implementations are chosen here and nowhere else.
import { randomBytes } from 'node:crypto';
import type { PgBoss } from 'pg-boss';
import type { Redis } from 'ioredis';
import type { Agent } from 'undici';
import type { Config } from './config.ts';
import { parseRetrySchedule } from './config.ts';
import type { Database } from './infra/db/database.ts';
import { openDatabase } from './infra/db/open-database.ts';
import type { Cache } from './infra/cache/cache.ts';
import { createMemoryCache } from './infra/cache/memory-cache.ts';
import { createRedisCache } from './infra/cache/redis-cache.ts';
import type { RateLimiter } from './infra/ratelimit/rate-limiter.ts';
import { createMemoryRateLimiter } from './infra/ratelimit/memory-rate-limiter.ts';
import { createRedisRateLimiter } from './infra/ratelimit/redis-rate-limiter.ts';
import { createSqlRateLimiter } from './infra/ratelimit/sql-rate-limiter.ts';
import { connectRedis } from './infra/redis.ts';
import { createMetrics, type Metrics } from './infra/metrics.ts';
import { insertDeferredJobs, startQueue } from './infra/queue.ts';
import { createJwtService, type JwtService } from './domain/auth/jwt.ts';
import {
  createAuthenticator,
  localRevocationBus,
  type Authenticator,
  type RevocationBus,
} from './domain/auth/authenticator.ts';
import { createYoutubeClient, type YoutubeClient } from './domain/shorts/youtube-client.ts';
import { createShortsService } from './domain/shorts/shorts-service.ts';
import type { ShortsRequestDeps } from './domain/requests/shorts-requests.ts';
import { createSettlementBatcher } from './domain/requests/charge-and-record.ts';
import { createQueuedRequestReader } from './domain/requests/request-store.ts';
import { startAutovacuum } from './infra/db/pglite-autovacuum.ts';
import { createQueuedSettlementBatcher } from './domain/requests/queued-settlements.ts';
import { createAttemptRecorder } from './domain/webhooks/delivery-log.ts';
import { createAcceptanceBatcher, type AcceptanceBatcher } from './domain/requests/acceptances.ts';
import { createWebhookAgent } from './domain/webhooks/guarded-agent.ts';
import { dispatchPendingEvents } from './domain/webhooks/events.ts';
import { JOBS_PER_FETCH, startWorkers } from './jobs/start-workers.ts';
import { createJobQueue, type JobQueue } from './jobs/job-queue.ts';
import { createKeyPool, parseKeyList, type KeyPool } from './domain/quota/key-pool.ts';
import type { ShortsResult } from './domain/shorts/shorts-result.ts';
import type { SourceMode } from './domain/shorts/shorts-service.ts';
import type { InnertubeClient } from './domain/shorts/innertube-source.ts';
import { createCircuitBreaker } from './infra/circuit-breaker.ts';
import {
  createLoginThrottle,
  memoryThrottleStore,
  redisThrottleStore,
  sqlThrottleStore,
  type LoginThrottle,
} from './domain/auth/login-throttle.ts';
import { createPasswordGate, type PasswordGate } from './domain/auth/password-gate.ts';
import { createRequestAttemptReader, enqueueDelivery, type DeliveryDeps } from './jobs/webhook-delivery-job.ts';
import { purgeExpiredResults } from './domain/requests/stored-results.ts';
import type { WatchDeps } from './domain/watches/watches.ts';
import { resumePaidWatches, sweepDueWatches, type SchedulerDeps } from './domain/watches/scheduler.ts';
import { releaseAllExpiredReservations } from './domain/credits/reservations.ts';
import { enqueueWatchCheck, eventRecorder } from './jobs/watch-check-job.ts';
import { subscribe, subscriptionsDue, type WebSubDeps } from './domain/watches/websub.ts';

export interface Services {
  config: Config;
  /** The one clock of the service (tests inject one through ServiceOptions.now). */
  clock: () => number;
  db: Database;
  redis: Redis | null;
  cache: Cache;
  rateLimiter: RateLimiter;
  loginThrottle: LoginThrottle;
  passwordGate: PasswordGate;
  jwt: JwtService;
  auth: Authenticator;
  youtube: YoutubeClient;
  keyPool: KeyPool;
  /** The upstream source in use (YOUTUBE_SOURCE with auto decided). */
  source: SourceMode;
  innertube: InnertubeClient | undefined;
  shortsRequests: ShortsRequestDeps;
  boss: PgBoss;
  /** The queue as routes see it (enqueue a fetch, redeliver). */
  jobs: JobQueue;
  /** Webhook requests are accepted in groups (#13). */
  acceptances: AcceptanceBatcher;
  delivery: DeliveryDeps;
  /** Watches (#15): the use cases' dependencies, and the scheduler's. */
  watches: WatchDeps & SchedulerDeps;
  /** WebSub push for watches; undefined without PUBLIC_BASE_URL (the hub could not reach us). */
  websub: WebSubDeps | undefined;
  metrics: Metrics;
  /** One sweep of the worker's timer (watches due, paused ones to resume, lapsed holds, lease renewals, the event outbox). */
  sweepOnce(): Promise<void>;
  /**
   * Aborted when a stopping server cuts the connections its drain left open (server.ts): a
   * synchronous request still running then cannot deliver its answer, so it is not charged.
   */
  readonly connectionsCut: AbortController;
  close(): Promise<void>;
}

export interface ServiceOptions {
  runWorker: boolean;
  /** The clock for quota days and reservations (tests inject one). */
  now?: () => number;
  /** Named in the DATA_DIR lock (server, worker, bench…). */
  role?: string;
  /** Aborts waiting for the DATA_DIR lock (a stop signal during start-up). */
  abortSignal?: AbortSignal;
  log: { error(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };
  /** A batch of jobs is about to run in this process (WorkerDeps.onJobs). */
  onJobs?: () => void;
}

async function jwtSecret(config: Config, db: Database): Promise<string> {
  if (config.JWT_SECRET) return config.JWT_SECRET;
  // Generated once and shared through the database, so every instance (and every restart) agrees.
  await db.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
    'jwt_secret',
    randomBytes(48).toString('base64url'),
  ]);
  const [row] = await db.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', ['jwt_secret']);
  return row!.value;
}

// ioredis does not prefix pub/sub channel names, so the prefix is added here.
function redisRevocationBus(
  publisher: Redis,
  subscriber: Redis,
  channel: string,
  log: ServiceOptions['log'],
): RevocationBus {
  return {
    async publish(hash) {
      // A lost message costs at most the cache lifetime: the other instances' caches expire anyway.
      await publisher
        .publish(channel, hash)
        .catch((error: unknown) => log.error({ err: error }, 'revocation publish failed'));
    },
    subscribe(listener) {
      // Commands fail fast rather than queue while the connection is not up (redis.ts), and it is
      // still connecting when the services are built: subscribing then failed at every start (an
      // error line, and no notices for the process's life). So subscribe once it is ready; ioredis
      // subscribes again by itself after a reconnect.
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

export async function createServices(config: Config, options: ServiceOptions): Promise<Services> {
  const metrics = createMetrics();
  const db = await openDatabase(
    config,
    {
      role: options.role ?? 'server',
      waitSeconds: config.LOCK_WAIT_SECONDS,
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      onWait: (holder) =>
        options.log.info(
          { holder },
          `waiting up to ${config.LOCK_WAIT_SECONDS} s for ${holder.role} pid ${holder.pid} to release ${config.DATA_DIR}`,
        ),
      onTakeover: (stale) => options.log.info({ stale }, 'took over the lock of a process that no longer runs'),
    },
    { onRetry: (code) => metrics.dbRetries.inc({ code }) },
  );
  const redis = config.REDIS_URL
    ? await connectRedis(config.REDIS_URL, config.REDIS_KEY_PREFIX, config.REDIS_COMMAND_TIMEOUT_MS)
    : null;
  const subscriber = config.REDIS_URL
    ? await connectRedis(config.REDIS_URL, config.REDIS_KEY_PREFIX, config.REDIS_COMMAND_TIMEOUT_MS)
    : null;
  // ioredis reports each failed reconnection as an 'error' event, printed raw to stderr when nobody
  // listens (found by review): logged once per outage, and its end, as JSON lines like the rest.
  for (const [name, connection] of [
    ['commands', redis],
    ['subscriber', subscriber],
  ] as const) {
    let down = false;
    connection?.on('error', (err: Error) => {
      if (!down) options.log.error({ err, connection: name }, 'Redis connection failed; reconnecting');
      down = true;
    });
    connection?.on('ready', () => {
      if (down) options.log.info({ connection: name }, 'Redis connection is back');
      down = false;
    });
  }
  const now = options.now ?? Date.now;
  const cache = redis ? createRedisCache(redis) : createMemoryCache(1000, undefined, now);
  // Stale copies are bounded by the shorts they hold, not by entries: one can hold 5,000.
  const staleBound = {
    maxWeight: config.STALE_MAX_SHORTS,
    weigh: (value: unknown) => 1 + ((value as { result?: ShortsResult }).result?.shorts.length ?? 0),
  };
  const staleCache = redis
    ? createRedisCache(redis, 'stale:', staleBound)
    : createMemoryCache(100_000, staleBound, now);
  // The windows follow the service's clock (injected in tests: a minute boundary must not reset a test's window).
  const rateLimiter = redis
    ? createRedisRateLimiter(redis, now)
    : db.kind === 'postgres'
      ? createSqlRateLimiter(db, now)
      : createMemoryRateLimiter(now);
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
  const jwt = createJwtService({
    secret: await jwtSecret(config, db),
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    ttlSeconds: config.JWT_TTL_SECONDS,
  });
  const auth = createAuthenticator(
    db,
    jwt,
    redis && subscriber
      ? redisRevocationBus(redis, subscriber, `${config.REDIS_KEY_PREFIX}api-key-revoked`, options.log)
      : localRevocationBus(),
    config.CREDENTIAL_CACHE_MS,
    now,
  );
  const apiKeys = parseKeyList(config.YOUTUBE_API_KEYS, config.YOUTUBE_API_KEY);
  // auto: hybrid (InnerTube lists, the Data API details) with a key; keyless InnerTube without one.
  const source: SourceMode =
    config.YOUTUBE_SOURCE === 'auto' ? (apiKeys.length > 0 ? 'hybrid' : 'innertube') : config.YOUTUBE_SOURCE;
  // youtubei.js is loaded only by the modes that read InnerTube: it is ~40 MiB of the process at import (#13).
  const innertube =
    source === 'data-api'
      ? undefined
      : await (await import('./infra/innertube/innertube-client.ts')).createInnertubeClient({
          baseUrl: config.YOUTUBE_INNERTUBE_BASE_URL,
          timeoutMs: config.YOUTUBE_TIMEOUT_MS,
          onCall: (call) => metrics.innertubeCalls.inc({ endpoint: call.endpoint, status: String(call.status) }),
        });
  const keyPool = createKeyPool(db, {
    keys: apiKeys,
    dailyUnits: config.YOUTUBE_KEY_DAILY_UNITS,
    reserveUnits: config.YOUTUBE_KEY_RESERVE_UNITS,
    now,
    onInvalid: (lease, reason) =>
      options.log.error(
        { key: `${lease.index}:${lease.keyId}`, reason },
        'YouTube rejected a Data API key: it is out of the pool for an hour (the other keys, if any, carry the load; with none left, requests that need the Data API answer 502 and nothing is charged). Check YOUTUBE_API_KEY / YOUTUBE_API_KEYS.',
      ),
    onExhausted: (lease) =>
      options.log.info(
        { key: `${lease.index}:${lease.keyId}` },
        'YouTube Data API key out of quota; it rests until midnight America/Los_Angeles',
      ),
  });
  const youtube = createYoutubeClient({
    keys: keyPool,
    baseUrl: config.YOUTUBE_API_BASE_URL,
    timeoutMs: config.YOUTUBE_TIMEOUT_MS,
    onCall: (call) => {
      metrics.upstreamCalls.inc({ endpoint: call.endpoint, status: String(call.status) });
      metrics.upstreamQuota.inc({ endpoint: call.endpoint, key: call.key }, call.units);
    },
  });
  const pricing = {
    creditsPerBlock: config.CREDITS_PER_BLOCK,
    shortsPerBlock: config.SHORTS_PER_CREDIT_BLOCK,
    minimumCredits: config.MIN_CREDITS_PER_REQUEST,
  };
  const shorts = createShortsService({
    client: youtube,
    cache,
    staleCache,
    cacheTtlMs: config.CACHE_TTL_SECONDS * 1000,
    negativeTtlMs: config.NEGATIVE_CACHE_SECONDS * 1000,
    staleTtlMs: config.STALE_RETENTION_SECONDS * 1000,
    maxShorts: config.MAX_SHORTS_PER_REQUEST,
    unitsPerCredit: config.QUOTA_UNITS_PER_CREDIT,
    pricing,
    now,
    onUpstream: (units) => options.log.info({ quotaUnits: units }, 'upstream fetch finished'),
    source,
    ...(innertube
      ? { innertube, breaker: createCircuitBreaker({ threshold: 3, baseMs: 30_000, maxMs: 600_000, now }) }
      : {}),
    playerCallsPerHour: config.INNERTUBE_PLAYER_CALLS_PER_HOUR,
    onInnertubeFailure: (kind, error) => {
      metrics.innertubeFailures.inc({ kind });
      options.log.error({ err: error, kind }, 'InnerTube call failed');
    },
  });
  const boss = await startQueue(db, {
    databaseUrl: config.DATABASE_URL,
    heartbeatSeconds: config.JOB_HEARTBEAT_SECONDS,
    onError: (error) => options.log.error({ err: error }, 'queue error'),
  });
  const shortsRequests: ShortsRequestDeps = {
    db,
    onServerFailure: (requestId, err) => options.log.error({ reqId: requestId, err }, 'webhook request failed'),
    shorts,
    maxShorts: config.MAX_SHORTS_PER_REQUEST,
    now,
    keylessOnly: source === 'innertube',
    findQueued: createQueuedRequestReader(db),
    settlements: createSettlementBatcher(db, {
      onBatchError: (err, size) => options.log.error({ err, size }, 'settlement batch failed; settled one by one'),
    }),
    queuedSettlements: createQueuedSettlementBatcher(db, {
      insertJobs: (tx, jobs) => insertDeferredJobs(boss, tx, jobs),
      onGroupError: (err, size) =>
        options.log.error({ err, size }, 'settling a group of webhook requests failed; settled one by one'),
    }),
    pricing,
    quota: {
      unitsPerCredit: config.QUOTA_UNITS_PER_CREDIT,
      allowanceUnits: config.QUOTA_ALLOWANCE_UNITS,
      pricing,
      onSettleFailure: ({ requestId, error, what }) => options.log.error({ reqId: requestId, err: error }, what),
    },
    onCharged: (credits) => metrics.creditsCharged.inc(credits),
  };
  const webhookAgent: Agent = createWebhookAgent({
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  });
  const delivery: DeliveryDeps = {
    db,
    boss,
    agent: webhookAgent,
    schedule: parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE),
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    readRequestAttempt: createRequestAttemptReader(db),
    recordAttempt: createAttemptRecorder(db),
    onAttempt: (result, job) => {
      metrics.webhookAttempts.inc({ outcome: result.outcome });
      options.log.info(
        {
          webhook: {
            ...job,
            outcome: result.outcome,
            statusCode: result.statusCode,
            latencyMs: result.latencyMs,
            error: result.error,
            detail: result.detail,
          },
        },
        'webhook attempt',
      );
    },
  };
  const websub: WebSubDeps | undefined = config.PUBLIC_BASE_URL
    ? {
        db,
        now,
        settings: {
          publicBaseUrl: config.PUBLIC_BASE_URL,
          hubUrl: config.WEBSUB_HUB_URL,
          topicBaseUrl: config.WEBSUB_TOPIC_BASE_URL,
          leaseSeconds: config.WEBSUB_LEASE_SECONDS,
          timeoutMs: config.YOUTUBE_TIMEOUT_MS,
        },
      }
    : undefined;
  /** Subscription requests the sweep sends at once (each waits up to the hub's timeout). */
  const SUBSCRIPTIONS_AT_ONCE = 4;
  const subscribeChannel = (channelId: string) => {
    if (!websub) return Promise.resolve();
    return subscribe(websub, channelId).catch((err: unknown) =>
      options.log.error(
        { err, channelId },
        'WebSub subscription request failed; polling continues and the request is repeated',
      ),
    );
  };
  const watches: WatchDeps & SchedulerDeps = {
    db,
    youtube,
    innertube,
    source,
    quota: shortsRequests.quota,
    pricing,
    now,
    recordEvent: eventRecorder(boss),
    enqueueCheck: (tx, job) => enqueueWatchCheck(boss, tx, job),
    settings: {
      maxPerAccount: config.WATCHES_PER_ACCOUNT,
      minIntervalSeconds: config.WATCH_MIN_INTERVAL_SECONDS,
      allowPrivateWebhooks: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    },
    onCheck: (check) => {
      metrics.watchChecks.inc({ trigger: check.trigger, outcome: check.outcome });
      metrics.watchUnits.inc(check.units);
      metrics.watchShorts.inc(check.newShorts);
      if (check.lagMs !== undefined)
        metrics.watchLag.observe({ trigger: check.trigger }, Math.max(0, check.lagMs) / 1000);
    },
    onChannelWatched: (channelId) => void subscribeChannel(channelId),
  };
  const workers = options.runWorker
    ? await startWorkers({
        boss,
        shortsRequests,
        delivery,
        watches,
        concurrency: config.WORKER_CONCURRENCY,
        jobsPerFetch: JOBS_PER_FETCH[db.kind],
        ...(db.listen ? { listen: db.listen } : {}),
        onWoken: (queue) => metrics.jobWakeups.inc({ queue }),
        ...(options.onJobs ? { onJobs: options.onJobs } : {}),
      })
    : undefined;
  if (workers) watches.wakeChecks = workers.watchChecks;
  // Worker processes sweep for due watches and resume those whose account can pay again (#15), and
  // queue the delivery of account events recorded without one (credits.low).
  let sweeping: Promise<void> | undefined;
  let subscribing = false;
  /** Renews leases and retries failed subscriptions, a few at a time, beside the sweep. */
  const renewSubscriptions = async () => {
    if (!websub || subscribing) return;
    subscribing = true;
    try {
      const due = await subscriptionsDue(websub);
      const next = () => due.shift();
      await Promise.all(
        Array.from({ length: Math.min(SUBSCRIPTIONS_AT_ONCE, due.length) }, async () => {
          for (let channelId = next(); channelId !== undefined; channelId = next()) await subscribeChannel(channelId);
        }),
      );
    } finally {
      subscribing = false;
    }
  };
  /** One sweep (the worker's timer runs it every WATCH_SWEEP_SECONDS; one at a time). */
  const sweepOnce = (): Promise<void> => {
    sweeping ??= (async () => {
      // Holds of requests whose process died are released first, so they neither keep a paused watch
      // paused nor refuse a charge past their lapse (reservations.ts).
      await releaseAllExpiredReservations(db, new Date(now()));
      await resumePaidWatches(watches);
      if ((await sweepDueWatches(watches)).length > 0) watches.wakeChecks?.();
      // Not awaited: a hub that answers slowly or never held up every scheduled check, resume and
      // event dispatch behind it (found by review: with 10 due subscriptions, no check for 10 s).
      void renewSubscriptions().catch((err: unknown) =>
        options.log.error({ err }, 'renewing WebSub subscriptions failed'),
      );
      // Account events written by charges (credits.low) get their delivery queued here (the outbox).
      if ((await dispatchPendingEvents(db, (tx, eventId) => enqueueDelivery(boss, tx, { eventId, attempt: 1 }))) > 0)
        workers?.deliveriesQueued();
    })()
      .catch((err: unknown) => options.log.error({ err }, 'watch sweep failed'))
      .finally(() => {
        sweeping = undefined;
      });
    return sweeping;
  };
  const sweepTimer = options.runWorker
    ? setInterval(() => void sweepOnce(), config.WATCH_SWEEP_SECONDS * 1000).unref()
    : undefined;
  // Worker processes drop stored results past RESULT_RETENTION_DAYS every hour (#14).
  const purge = () =>
    void purgeExpiredResults(db, config.RESULT_RETENTION_DAYS, now()).catch((err: unknown) =>
      options.log.error({ err }, 'dropping expired results failed'),
    );
  const purgeTimer = options.runWorker ? setInterval(purge, 3600_000).unref() : undefined;
  // And once a minute after start: a process restarted more often than hourly (deploys, a crash
  // loop) never dropped any (found by review).
  const firstPurge = options.runWorker ? setTimeout(purge, 60_000).unref() : undefined;

  // The embedded database has no autovacuum of its own (pglite-autovacuum.ts).
  const autovacuum =
    db.kind === 'pglite'
      ? startAutovacuum(db, {
          onRound: (round, ms) => {
            if (round.vacuumed.length + round.analyzed.length > 0)
              options.log.info(
                { vacuumed: round.vacuumed, analyzed: round.analyzed, ms: Math.round(ms) },
                'embedded database vacuumed',
              );
          },
          onError: (err) => options.log.error({ err }, 'vacuuming the embedded database failed'),
        })
      : undefined;

  const jobs = createJobQueue(db, boss, () => workers?.fetchesQueued());
  const acceptances = createAcceptanceBatcher(shortsRequests, {
    enqueueFetches: (tx, ids) => jobs.enqueueShortsFetches(tx, ids),
    onGroupError: (err, size) =>
      options.log.error({ err, size }, 'accepting a group of webhook requests failed; accepted one by one'),
  });
  return {
    config,
    clock: now,
    db,
    redis,
    cache,
    rateLimiter,
    loginThrottle,
    passwordGate,
    jwt,
    auth,
    youtube,
    keyPool,
    source,
    innertube,
    shortsRequests,
    acceptances,
    boss,
    jobs,
    delivery,
    watches,
    websub,
    metrics,
    sweepOnce,
    connectionsCut: new AbortController(),
    async close() {
      clearInterval(purgeTimer);
      clearTimeout(firstPurge);
      clearInterval(sweepTimer);
      await autovacuum?.stop();
      await workers?.stop();
      await boss
        .stop({ graceful: true, timeout: 10_000, close: true })
        .catch((error: unknown) => options.log.error({ err: error }, 'queue stop failed'));
      await Promise.allSettled([
        youtube.close(),
        innertube?.close(),
        webhookAgent.close(),
        cache.close(),
        staleCache.close(),
        rateLimiter.close(),
      ]);
      // After the upstream client: no call can take units any more, so what is left of the leases goes back.
      await keyPool
        .close()
        .catch((error: unknown) =>
          options.log.error({ err: error }, 'returning unspent key units failed (they count as spent today)'),
        );
      subscriber?.disconnect();
      redis?.disconnect();
      await db.close();
    },
  };
}
