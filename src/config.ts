// One schema for every setting. Read once at boot (loadConfig) and passed down; nothing else reads process.env.
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import ipaddr from 'ipaddr.js';
import { MAX_INTEGER } from './infra/db/database.ts';

export const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  LOG_LEVEL: Type.Union(
    [
      Type.Literal('fatal'),
      Type.Literal('error'),
      Type.Literal('warn'),
      Type.Literal('info'),
      Type.Literal('debug'),
      Type.Literal('trace'),
      Type.Literal('silent'),
    ],
    { default: 'info' },
  ),
  LOG_FORMAT: Type.Union([Type.Literal('auto'), Type.Literal('json'), Type.Literal('text')], {
    default: 'auto',
    description: 'json: one JSON object per line; text: readable lines; auto: text on a terminal, else json.',
  }),
  PUBLIC_BASE_URL: Type.Optional(
    Type.String({ description: 'Base URL shown in docs and the dashboard; defaults to the request origin.' }),
  ),
  DATA_DIR: Type.String({ default: './data', description: 'Where the embedded database (PGlite) keeps its files.' }),
  DATABASE_URL: Type.Optional(
    Type.String({ description: 'PostgreSQL URL; when set, PostgreSQL replaces the embedded database.' }),
  ),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, default: 10 }),
  REDIS_URL: Type.Optional(
    Type.String({
      description: 'Redis URL; when set, rate-limit counters, caches and single-flight are shared through Redis.',
    }),
  ),
  REDIS_KEY_PREFIX: Type.String({
    default: 'cs:',
    description: 'Prefix of every Redis key, so several deployments can share one Redis.',
  }),
  JWT_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      description: 'HS256 signing secret; generated and stored in the database when unset.',
    }),
  ),
  JWT_ISSUER: Type.String({ default: 'channel-shorts' }),
  JWT_AUDIENCE: Type.String({ default: 'channel-shorts-api' }),
  JWT_TTL_SECONDS: Type.Integer({ minimum: 60, default: 3600 }),
  LOGIN_MAX_FAILURES: Type.Integer({
    minimum: 1,
    default: 5,
    description: 'Failed logins per email (and per IP x 4) within LOGIN_WINDOW_SECONDS before 429.',
  }),
  LOGIN_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 900 }),
  YOUTUBE_API_KEY: Type.String({
    default: '',
    description: 'One YouTube Data API v3 key (joined to YOUTUBE_API_KEYS).',
  }),
  YOUTUBE_API_KEYS: Type.String({
    default: '',
    description: 'Comma-separated pool of Data API keys; each call uses the first with quota left today.',
  }),
  YOUTUBE_KEY_DAILY_UNITS: Type.Integer({
    minimum: 1,
    default: 10000,
    description: 'Daily quota of each key (Google default 10,000).',
  }),
  YOUTUBE_KEY_RESERVE_UNITS: Type.Integer({
    minimum: 0,
    default: 100,
    description: "Units of each key held back from use (drift between our count and Google's).",
  }),
  QUOTA_UNITS_PER_CREDIT: Type.Integer({
    minimum: 1,
    default: 4,
    description: 'Upstream units one credit pays for; a request may spend no more than its credits pay for.',
  }),
  // At least one probe's units (probe-gate.ts PROBE_UNITS): a probe spends them before the price is known, so with
  // less every uncached request failed.
  QUOTA_ALLOWANCE_UNITS: Type.Integer({
    minimum: 3,
    default: 50,
    description:
      'Unpaid upstream units per account per quota day (failed lookups, refusals after a probe); at least 3, ' +
      'what one probe may spend before the price is known.',
  }),
  NEGATIVE_CACHE_SECONDS: Type.Integer({
    minimum: 0,
    default: 600,
    description:
      'How long an address or id that resolved to no channel is remembered (no quota spent on it meanwhile).',
  }),
  STALE_RETENTION_SECONDS: Type.Integer({
    minimum: 0,
    default: 604800,
    description: 'How long results are kept for stale serving when no key has quota left (0 = off).',
  }),
  STALE_MAX_SHORTS: Type.Integer({
    minimum: 0,
    default: 50000,
    description: 'Bound of the stale copies, in shorts (about 1.2 KB each), per process in embedded mode or in Redis.',
  }),
  YOUTUBE_API_BASE_URL: Type.String({ default: 'https://www.googleapis.com/youtube/v3' }),
  YOUTUBE_SOURCE: Type.Union(
    [Type.Literal('auto'), Type.Literal('data-api'), Type.Literal('hybrid'), Type.Literal('innertube')],
    {
      default: 'auto',
      description:
        'auto: hybrid with a Data API key, innertube without. data-api: the Data API only. hybrid: InnerTube ' +
        'resolves and lists (0 units), videos.list details (exact). innertube: keyless, counts approximate.',
    },
  ),
  YOUTUBE_INNERTUBE_BASE_URL: Type.String({
    default: 'https://www.youtube.com',
    description: "Origin of YouTube's web API (InnerTube); the fake platform in tests and the demo.",
  }),
  INNERTUBE_PLAYER_CALLS_PER_HOUR: Type.Integer({
    minimum: 0,
    default: 300,
    description: 'Keyless publish-date lookups per hour per process (YouTube bot-checks beyond about 300).',
  }),
  INNERTUBE_PROXY_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      description:
        "An HTTP or HTTPS proxy for YouTube's web API (InnerTube) only, e.g. http://user:pass@proxy.example:3128: " +
        'for servers whose address YouTube bot-checks or blocks. The Data API and webhooks never use it.',
    }),
  ),
  INNERTUBE_PAGE_RETRIES: Type.Integer({
    minimum: 0,
    maximum: 10,
    default: 2,
    description:
      'Times a Shorts-tab page after the first is asked again when YouTube failed transiently (no answer, 5xx, ' +
      '429); still failing, the shorts read so far are answered, truncated.',
  }),
  INNERTUBE_RETRY_BACKOFF_MS: Type.Integer({
    minimum: 0,
    default: 500,
    description: 'Pause before the first such retry, doubled before each next one (jittered).',
  }),
  YOUTUBE_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10000 }),
  MAX_SHORTS_PER_REQUEST: Type.Integer({ minimum: 1, default: 5000 }),
  CREDITS_PER_BLOCK: Type.Integer({
    minimum: 0,
    default: 1,
    description: 'Credits charged per started block of SHORTS_PER_CREDIT_BLOCK shorts.',
  }),
  SHORTS_PER_CREDIT_BLOCK: Type.Integer({ minimum: 1, default: 50 }),
  MIN_CREDITS_PER_REQUEST: Type.Integer({ minimum: 0, default: 1 }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 60 }),
  RATE_LIMIT_PER_HOUR: Type.Integer({ minimum: 1, default: 1000 }),
  RATE_LIMIT_PER_DAY: Type.Integer({ minimum: 1, default: 10000 }),
  READ_RATE_LIMIT_PER_MINUTE: Type.Integer({
    minimum: 0,
    default: 600,
    description:
      'Calls per minute per account outside the metered routes (stored result pages, ledger, requests ' +
      'log, keys...); 0: unlimited.',
  }),
  CREDENTIAL_CACHE_MS: Type.Integer({
    minimum: 0,
    maximum: 60_000,
    default: 1000,
    description:
      'How long an instance trusts what it read about an API key or an account (revocation, disabling, limit ' +
      'changes reach other instances within this); 0 reads the database on every request (tests).',
  }),
  CACHE_TTL_SECONDS: Type.Integer({
    minimum: 0,
    default: 300,
    description: 'Upstream response cache lifetime; 0 disables it.',
  }),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Type.Boolean({
    default: false,
    description: 'Allow webhook URLs on private/loopback networks (tests, on-prem receivers).',
  }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 15000 }),
  WEBHOOK_RETRY_SCHEDULE: Type.String({
    default: '5,300,1800,7200,18000,36000,36000',
    description: 'Seconds between attempts after the first (Svix schedule).',
  }),
  WEBHOOK_SECRET_OVERLAP_SECONDS: Type.Integer({ minimum: 0, default: 86400 }),
  WEBHOOK_MAX_BODY_BYTES: Type.Integer({
    minimum: 1024,
    default: 5_000_000,
    description:
      'A full shorts.completed body larger than this is sent thin instead (thin: true, reason "too_large"), ' +
      'the receiver paging the stored result.',
  }),
  WEBHOOK_DISABLE_AFTER_DAYS: Type.Integer({
    minimum: 0,
    default: 5,
    description:
      'A webhook destination whose every attempt has failed for this many days is paused (new attempts held, a ' +
      'webhook.destination.paused account event); 0 never pauses.',
  }),
  WORKER_CONCURRENCY: Type.Integer({ minimum: 1, default: 10 }),
  JOB_HEARTBEAT_SECONDS: Type.Integer({
    minimum: 10,
    default: 30,
    description: 'A job whose worker sends no heartbeat for this long (crashed process) is retried.',
  }),
  RUN_WORKER: Type.Boolean({ default: true, description: 'Whether an API process also runs the job worker.' }),
  // security (docs/spec.md, security commitments; README, Security)
  TRUSTED_PROXIES: Type.String({
    default: '',
    description:
      'Comma-separated CIDRs/addresses of reverse proxies whose X-Forwarded-For is believed; empty = none ' +
      '(the TCP peer is the client).',
  }),
  PASSWORD_HASH_CONCURRENCY: Type.Integer({
    minimum: 1,
    default: 4,
    description: 'Password checks (argon2id) run at once; more wait in a queue.',
  }),
  PASSWORD_HASH_QUEUE: Type.Integer({
    minimum: 0,
    default: 32,
    description: 'Password checks that may wait; beyond it login answers 503 with Retry-After.',
  }),
  REDIS_COMMAND_TIMEOUT_MS: Type.Integer({
    minimum: 50,
    default: 1000,
    description: 'A Redis command not answered within this time fails (503) instead of hanging.',
  }),
  DATABASE_STATEMENT_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: 10000,
    description: 'PostgreSQL statement_timeout and client-side query timeout.',
  }),
  DATABASE_CONNECT_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: 5000,
    description: 'Time to obtain a PostgreSQL connection (new, or free in the pool) before 503.',
  }),
  HTTP_HEADERS_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: 10000,
    description: 'A client must send its request headers within this time.',
  }),
  HTTP_REQUEST_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    default: 30000,
    description: 'A client must send its whole request within this time.',
  }),
  CORS_ORIGINS: Type.String({
    default: '',
    description: 'Comma-separated browser origins allowed to call the API cross-origin; empty = CORS off.',
  }),
  WORKER_METRICS_PORT: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 65535,
      description:
        "npm run worker: serve the worker's own /metrics and /healthz on this port (HOST); 0 " +
        'picks a free one. Unset: none.',
    }),
  ),
  METRICS_TOKEN: Type.Optional(
    Type.String({ minLength: 16, description: 'When set, /metrics needs "Authorization: Bearer <METRICS_TOKEN>".' }),
  ),
  WEBHOOK_SECRET_ROTATIONS_PER_HOUR: Type.Integer({
    minimum: 1,
    default: 5,
    description: 'Webhook secret rotations an account may make per clock hour.',
  }),
  // operators (README, Operators; docs/architecture.md)
  LOCK_WAIT_SECONDS: Type.Integer({
    minimum: 0,
    maximum: 3600,
    default: 0,
    description: 'How long a process waits for another holder of DATA_DIR to exit before refusing (0: refuse at once).',
  }),
  OPERATOR_TOKEN: Type.Optional(
    Type.String({
      minLength: 32,
      description:
        'Bearer secret for the operator API (/operator/...) used by the CLI against a running service; high ' +
        'entropy, e.g. openssl rand -base64 32.',
    }),
  ),
  SIGNUP: Type.Union([Type.Literal('off'), Type.Literal('invite'), Type.Literal('open')], {
    default: 'off',
    description: 'off: operators create users; invite: operators also send invitation links; open: anyone may sign up.',
  }),
  SIGNUP_CREDITS: Type.Integer({
    minimum: 0,
    maximum: MAX_INTEGER,
    default: 0,
    description: 'Starting credits of a user who signs up (SIGNUP=open).',
  }),
  SUPPORT_CONTACT: Type.String({
    default: '',
    maxLength: 500,
    description:
      'An email address or URL shown to customers where they can get more credits (the low-balance banner, ' +
      'GET /api/pricing); empty: "ask your operator".',
  }),
  INVITATION_TTL_HOURS: Type.Integer({
    minimum: 1,
    maximum: 8760,
    default: 72,
    description: 'How long an invitation link stays valid.',
  }),
  // features
  // At most 100 years: a larger count of days overflowed the dates computed from it, and every page of a stored result
  // answered 500.
  RESULT_RETENTION_DAYS: Type.Integer({
    minimum: 1,
    maximum: 36_500,
    default: 7,
    description:
      'How long a stored result (webhook requests, synchronous ones with store: true) can be read page by page ' +
      'after it completed; then 410.',
  }),
  // statistics over time (docs/guides/statistics.md)
  STATS_SNAPSHOT_MIN_SECONDS: Type.Integer({
    minimum: 0,
    maximum: 86_400,
    default: 600,
    description:
      "At most one stored snapshot of a Short's counts per this many seconds (upstream reads only; cache hits " +
      'store nothing); 0 keeps every read.',
  }),
  STATS_RETENTION_DAYS: Type.Integer({
    minimum: 1,
    maximum: 3650,
    default: 90,
    description:
      'Snapshots older than this are rolled up to one per Short per day (the last of the day), by the sweeper.',
  }),
  // watches (docs/watches.md)
  WATCHES_PER_ACCOUNT: Type.Integer({ minimum: 0, default: 20, description: 'Watches one account may have.' }),
  WATCH_MIN_INTERVAL_SECONDS: Type.Integer({
    minimum: 1,
    default: 900,
    description: 'Shortest check interval of a watch (also the default interval).',
  }),
  WATCH_SWEEP_SECONDS: Type.Number({
    minimum: 0.1,
    default: 5,
    description:
      'How often each worker looks for watches that are due (and paused watches whose account can pay again).',
  }),
  WEBSUB_HUB_URL: Type.String({
    default: 'https://pubsubhubbub.appspot.com/subscribe',
    description: "The WebSub hub watched channels' upload feeds are subscribed at (needs PUBLIC_BASE_URL).",
  }),
  WEBSUB_TOPIC_BASE_URL: Type.String({
    default: 'https://www.youtube.com',
    description:
      'Origin of the feeds subscribed to (topic <origin>/feeds/videos.xml?channel_id=…); the fake ' +
      'platform in tests and the demo.',
  }),
  WEBSUB_LEASE_SECONDS: Type.Integer({
    minimum: 60,
    default: 432000,
    description: 'Lease asked of the hub; subscriptions are renewed when a tenth of it is left.',
  }),
});

export type Config = Static<typeof ConfigSchema>;

export class ConfigError extends Error {}

/** Parse settings from an environment-like map; throws ConfigError naming every bad variable. */
/** The words a setting may be, when it is a choice among literals. */
function choicesOf(schema: unknown): string[] | undefined {
  const variants = (schema as { anyOf?: Array<{ const?: unknown }> } | undefined)?.anyOf;
  const words = variants?.map((v) => v.const).filter((c): c is string => typeof c === 'string');
  return words && words.length > 0 && words.length === variants!.length ? words : undefined;
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const known = Object.keys(ConfigSchema.properties);
  const input: Record<string, unknown> = {};
  for (const name of known) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') input[name] = raw;
  }
  const converted = Value.Convert(ConfigSchema, Value.Default(ConfigSchema, input));
  if (!Value.Check(ConfigSchema, converted)) {
    // One line per setting: a choice among words says which (a union of literals otherwise
    // reports "must be equal to constant" once per literal, never the allowed values).
    const problems = new Map<string, string>();
    for (const e of Value.Errors(ConfigSchema, converted)) {
      const name = e.instancePath.replace(/^\//, '') || '(root)';
      if (problems.has(name)) continue;
      const choices = choicesOf(ConfigSchema.properties[name as keyof typeof ConfigSchema.properties]);
      problems.set(name, choices ? `must be one of ${choices.join(', ')} (got "${String(input[name])}")` : e.message);
    }
    throw new ConfigError(
      `Invalid configuration: ${[...problems].map(([name, problem]) => `${name}: ${problem}`).join('; ')}`,
    );
  }
  const config = converted as Config;
  parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE);
  parseTrustedProxies(config.TRUSTED_PROXIES);
  parseList(config.CORS_ORIGINS).forEach((origin) => {
    if (!/^https?:\/\/[^/\s]+$/.test(origin))
      throw new ConfigError(
        `Invalid configuration: CORS_ORIGINS entries must be origins like https://app.example.com, got "${origin}"`,
      );
  });
  if (config.HTTP_HEADERS_TIMEOUT_MS > config.HTTP_REQUEST_TIMEOUT_MS)
    throw new ConfigError('Invalid configuration: HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  // Sent as "Authorization: Bearer <token>": a space or a character outside visible ASCII can never
  // arrive as one token (a passphrase with spaces was accepted, then refused on every call).
  for (const name of ['OPERATOR_TOKEN', 'METRICS_TOKEN'] as const) {
    const token = config[name];
    if (token && !/^[\x21-\x7e]+$/.test(token))
      throw new ConfigError(
        `Invalid configuration: ${name} must be one word of visible ASCII characters (no spaces), ` +
          'e.g. openssl rand -base64 32',
      );
  }
  return config;
}

export function parseRetrySchedule(text: string): number[] {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const seconds = parts.map(Number);
  if (seconds.length === 0 || seconds.some((n) => !Number.isFinite(n) || n < 0)) {
    throw new ConfigError(
      `Invalid configuration: WEBHOOK_RETRY_SCHEDULE must be comma-separated non-negative seconds, got "${text}"`,
    );
  }
  return seconds;
}

export function parseList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** TRUSTED_PROXIES: addresses or CIDRs (IPv4 or IPv6), validated with ipaddr.js. */
export function parseTrustedProxies(text: string): string[] {
  const entries = parseList(text);
  for (const entry of entries) {
    const valid = entry.includes('/')
      ? (() => {
          try {
            ipaddr.parseCIDR(entry);
            return true;
          } catch {
            return false;
          }
        })()
      : ipaddr.isValid(entry);
    if (!valid)
      throw new ConfigError(
        `Invalid configuration: TRUSTED_PROXIES entries must be IP addresses or CIDRs, got "${entry}"`,
      );
  }
  return entries;
}
