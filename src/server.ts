// The API process: config → services → app → listen; drains and closes on SIGINT/SIGTERM.
import type { IncomingMessage } from 'node:http';
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { loadConfig, ConfigError } from './config.ts';
import { buildApp } from './app.ts';
import { fastifyOptions, LOG_REDACT } from './http/logging.ts';
import { logsAsText, textLogStream } from './http/log-text.ts';
import { createServices } from './services.ts';
import { DataDirLockedError } from './infra/db/data-dir-lock.ts';
import { deferSignalsDuringStartup } from './infra/startup-signals.ts';
import { startupNotes, type StartupNote } from './startup-notes.ts';
import { startIdleRelease } from './infra/idle-memory.ts';

const DRAIN_MS = 5_000;
/** After the drain: how long a request already settling has to write its answer before connections are cut. */
const SETTLING_GRACE_MS = 500;
const NOT_TRAFFIC = new Set(['/healthz', '/readyz', '/metrics']);
const SHUTDOWN_DEADLINE_MS = 20_000;

async function main() {
  const startup = deferSignalsDuringStartup();
  const config = loadConfig(process.env);
  // Until the app (and its logger) exists, e.g. while waiting for the DATA_DIR lock: a logger of the
  // same settings, so those lines have their level, time and errors' messages (// JSON.stringify of an Error gave
  // "err":{}).
  let built: FastifyInstance | undefined;
  // On a terminal the lines are text a person reads (LOG_FORMAT); elsewhere JSON, for collectors.
  const text = logsAsText(config.LOG_FORMAT);
  const early = text
    ? pino({ level: config.LOG_LEVEL, redact: LOG_REDACT }, textLogStream())
    : pino({ level: config.LOG_LEVEL, redact: LOG_REDACT });
  const app = await buildApp(
    await createServices(config, {
      runWorker: config.RUN_WORKER,
      abortSignal: startup.aborted,
      log: {
        error: (obj, msg) => (built?.log ?? early).error(obj, msg),
        info: (obj, msg) => (built?.log ?? early).info(obj, msg),
      },
    }),
    fastifyOptions(
      { level: config.LOG_LEVEL, redact: LOG_REDACT, ...(text ? { stream: textLogStream() } : {}) },
      config,
    ),
  );
  built = app;
  // A few seconds after the last request, both threads give back what the load made their heaps
  // grow by, and malloc then what the collections freed.
  const idle = startIdleRelease({
    reduceDatabaseThread: app.services.db.reduceMemory?.bind(app.services.db),
    warn: (err, msg) => app.log.warn({ err }, msg),
  });
  app.server.on('request', (req: IncomingMessage) => {
    // Probes and scrapes are not traffic: counted, a scrape every 15 s would have an idle service
    // collect every 30 s for nothing.
    if (!NOT_TRAFFIC.has((req.url ?? '').split('?')[0]!)) idle.activity();
  });
  // The one "listening at" line (in place of Fastify's own).
  const address = await app.listen({
    port: config.PORT,
    host: config.HOST,
    listenTextResolver: (at) => `channel-shorts listening at ${at} (dashboard ${at}/dashboard/, docs ${at}/docs)`,
  });
  // The CLI finds the running service here and goes through its operator API.
  app.services.db.dataDirLock?.setUrl(address);
  closeWithGrace({ delay: SHUTDOWN_DEADLINE_MS }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    // In-flight requests get DRAIN_MS to finish; a client that never finishes sending its request
    // (or a load balancer holding a half-open connection) must not keep the process from closing
    // its queue and database cleanly, so whatever is left is then cut.
    idle.stop();
    let closing: NodeJS.Timeout | undefined;
    const cut = setTimeout(() => {
      // Requests still running now lose their connection: they are settled as failed, not charged.
      // One already settling finishes writing its answer first (cut in the same
      // instant, it was charged and its answer lost).
      app.services.connectionsCut.abort();
      closing = setTimeout(() => app.server.closeAllConnections(), SETTLING_GRACE_MS);
    }, DRAIN_MS);
    await app.close();
    clearTimeout(cut);
    clearTimeout(closing);
    await app.services.close();
  });
  // A stop signal that came while starting is handled now, by the handler above.
  startup.ready();
  for (const note of await startupNotes(app.services).catch(() => [])) {
    const link = note.code === 'NO_USERS' ? await setupLink(app, config.PUBLIC_BASE_URL ?? address) : undefined;
    app.log[note.level](link ?? note.message);
  }
}

/**
 * While the service has no users, what to do next is the first operator's setup link, printed at
 * every start (the same link each time, on every instance) and nowhere else.
 */
async function setupLink(app: FastifyInstance, base: string): Promise<StartupNote['message'] | undefined> {
  const token = await app.services.firstOperator.token().catch(() => undefined);
  if (!token) return undefined;
  return (
    `No users yet: open ${base.replace(/\/+$/, '')}/dashboard/setup?token=${token} to create the first operator ` +
    '(the link works until the first user exists; keep it private). Or use the CLI: npm run cli -- users create ' +
    '--email you@example.com --password "a long passphrase" --role operator'
  );
}

main().catch((error) => {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    // One clear line instead of a stack trace: the most common first-run problem.
    const config = loadConfig(process.env);
    console.error(
      `Cannot listen on ${config.HOST}:${config.PORT}: ${
        code === 'EADDRINUSE'
          ? 'the port is already in use (another channel-shorts, or npm run demo?)'
          : 'permission denied'
      }. Stop the other process or set PORT.`,
    );
  } else {
    console.error(error instanceof ConfigError || error instanceof DataDirLockedError ? error.message : error);
  }
  process.exit(1);
});
