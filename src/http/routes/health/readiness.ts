// GET /readyz: whether every configured store answers (decisive), with the upstream keys' state, each
// source's state and configuration warnings (reported, never decisive: stale results are still
// served). Each source's details (success rate, last error) only to an operator's credential.
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../../services.ts';
import { QUEUES } from '../../../infra/queue.ts';
import { withTimeout } from '../../../infra/timeout.ts';
import { startupNotes } from '../../../startup-notes.ts';
import { SourceHealthSchema } from '../../../contract/operator.ts';
import { authenticateOperator } from '../../../domain/operators/operator-auth.ts';
import type { SourceHealthView } from '../../../infra/source-health.ts';
import { json } from '../../schemas/common.ts';
import type { ReplyOf, RequestOf } from '../../types.ts';

// The public answer names the store and its state only; the error itself goes to the logs (docs/spec.md, security
// commitments).
const Check = Type.Object({ status: Type.Union([Type.Literal('ok'), Type.Literal('down'), Type.Literal('disabled')]) });
// Configuration problems, as codes only: /readyz is public, the wording (and what to do) is in the
// start-up log and the operator's dashboard (GET /operator/setup).
const Setup = Type.Object({
  warnings: Type.Array(
    Type.Union([Type.Literal('NO_DATA_API_KEY'), Type.Literal('DATA_API_KEYS_REJECTED'), Type.Literal('NO_USERS')]),
    {
      description:
        'NO_DATA_API_KEY: the source needs a Data API key and none is set; DATA_API_KEYS_REJECTED: YouTube ' +
        'rejected a configured key; NO_USERS: nobody can sign in yet. Not decisive for readiness.',
    },
  ),
});
const Upstream = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('exhausted'), Type.Literal('down')], {
    description:
      'ok: every key usable; degraded: some keys resting or rejected; exhausted: no key has quota left today ' +
      '(stale results are served); down: every key rejected.',
  }),
  keys: Type.Object({ active: Type.Integer(), exhausted: Type.Integer(), invalid: Type.Integer() }),
});

const Sources = Type.Array(
  Type.Object({
    source: Type.Union([Type.Literal('data-api'), Type.Literal('innertube')]),
    status: Type.Union([Type.Literal('ok'), Type.Literal('failing'), Type.Literal('paused')], {
      description:
        "ok: most recent calls succeeded (or none were made); failing: most of the last 15 minutes' calls " +
        'failed; paused: a breaker pauses its calls. Not decisive for readiness.',
    }),
  }),
);

export const readinessRoute = {
  method: 'GET',
  url: '/readyz',
  schema: {
    tags: ['operations'],
    summary: 'Readiness: database, queue and Redis (when configured) reachable.',
    response: {
      200: json(
        'Ready: every configured store answers.',
        Type.Object({
          status: Type.Literal('ok'),
          checks: Type.Object({ database: Check, queue: Check, redis: Check }),
          upstream: Type.Optional(Upstream),
          sources: Type.Optional(Sources),
          sourceDetails: Type.Optional(
            Type.Array(SourceHealthSchema, {
              description: 'Sent with an operator credential (OPERATOR_TOKEN or an operator session) only.',
            }),
          ),
          setup: Type.Optional(Setup),
        }),
      ),
      503: json(
        'Not ready: a store is down (named in checks).',
        Type.Object({
          status: Type.Literal('unavailable'),
          checks: Type.Object({ database: Check, queue: Check, redis: Check }),
          upstream: Type.Optional(Upstream),
          sources: Type.Optional(Sources),
          sourceDetails: Type.Optional(
            Type.Array(SourceHealthSchema, {
              description: 'Sent with an operator credential (OPERATOR_TOKEN or an operator session) only.',
            }),
          ),
          setup: Type.Optional(Setup),
        }),
      ),
    },
  },
} as const;

export async function readiness(
  request: RequestOf<typeof readinessRoute.schema>,
  reply: ReplyOf<typeof readinessRoute.schema>,
) {
  const { services } = request.server;
  const checks = await storeChecks(services, request.log);
  const ok = Object.values(checks).every((c) => c.status !== 'down');
  reply.code(ok ? 200 : 503);
  const databaseUp = checks.database.status === 'ok';
  const upstream = databaseUp ? await upstreamState(services, request.log) : undefined;
  const warnings = databaseUp ? await setupWarnings(services, request.log) : undefined;
  const health = services.health.view();
  const details = databaseUp && (await isOperator(request)) ? { sourceDetails: health } : {};
  return {
    status: ok ? ('ok' as const) : ('unavailable' as const),
    checks,
    ...(upstream ? { upstream } : {}),
    sources: health.map((h) => ({ source: h.source, status: sourceStatus(h) })),
    ...details,
    ...(warnings ? { setup: { warnings } } : {}),
  };
}

/** Each store probed at once, each bounded: a hung store is down, not a hung answer. */
async function storeChecks({ db, boss, redis }: Services, log: FastifyBaseLogger) {
  const check = async (name: string, probe: (() => Promise<unknown>) | null) => {
    if (!probe) return { status: 'disabled' as const };
    try {
      await withTimeout(probe(), 2000, name);
      return { status: 'ok' as const };
    } catch (error) {
      log.warn({ store: name, err: error }, 'readiness check failed');
      return { status: 'down' as const };
    }
  };
  const [database, queue, redisCheck] = await Promise.all([
    check('database', () => db.ping()),
    check('queue', () => boss.getQueue(QUEUES.webhookDelivery)),
    // A write, not a PING: a Redis that answers but refuses writes (at maxmemory, unable to save, a
    // replica after a failover) cannot serve the limits or the cache.
    check('redis', redis ? () => redis.set('readyz', '1', 'PX', 5000) : null),
  ]);
  return { database, queue, redis: redisCheck };
}

/** The key pool's state in one word and counts; undefined without keys or when the pool cannot say. */
async function upstreamState({ keyPool }: Services, log: FastifyBaseLogger) {
  if (keyPool.size === 0) return undefined;
  const keys = await keyPool.status().catch((error: unknown) => {
    // Reported, not decisive: without the pool's state the answer simply omits `upstream`.
    log.warn({ err: error }, 'key pool status unavailable');
    return undefined;
  });
  if (!keys) return undefined;
  const count = (state: string) => keys.filter((k) => k.state === state).length;
  return {
    status:
      count('invalid') === keys.length
        ? ('down' as const)
        : keys.every((k) => k.unitsRemaining === 0)
          ? ('exhausted' as const)
          : count('active') < keys.length
            ? ('degraded' as const)
            : ('ok' as const),
    keys: { active: count('active'), exhausted: count('exhausted'), invalid: count('invalid') },
  };
}

/** The start-up notes' codes that are warnings; undefined when the notes cannot be read in time. */
async function setupWarnings(services: Services, log: FastifyBaseLogger) {
  const notes = await withTimeout(startupNotes(services), 2000, 'setup notes').catch((error: unknown) => {
    log.warn({ err: error }, 'setup notes unavailable');
    return undefined;
  });
  return notes?.flatMap((n) =>
    n.code === 'NO_DATA_API_KEY' || n.code === 'DATA_API_KEYS_REJECTED' || n.code === 'NO_USERS' ? [n.code] : [],
  );
}

function sourceStatus(health: SourceHealthView): 'ok' | 'failing' | 'paused' {
  if (health.breakerOpen) return 'paused';
  return health.successRate !== null && health.successRate < 0.5 ? 'failing' : 'ok';
}

/** Whether the caller sent an operator's credential; anything else (none, a customer's) gets the public answer. */
async function isOperator(request: FastifyRequest): Promise<boolean> {
  const header = request.headers.authorization;
  if (!header) return false;
  const { db, auth, config } = request.server.services;
  return authenticateOperator({ db, auth, operatorToken: config.OPERATOR_TOKEN }, header).then(
    () => true,
    () => false,
  );
}
