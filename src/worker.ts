// A worker-only process for the scale-out mode: runs queued fetches and webhook deliveries.
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { loadConfig, ConfigError } from './config.ts';
import { createServices } from './services.ts';
import { LOG_REDACT } from './http/logging.ts';
import { DataDirLockedError } from './infra/db/data-dir-lock.ts';
import { deferSignalsDuringStartup } from './infra/startup-signals.ts';
import { startIdleRelease } from './infra/idle-memory.ts';
import { serveMetrics } from './infra/metrics-server.ts';

async function main() {
  const startup = deferSignalsDuringStartup();
  const config = loadConfig(process.env);
  const log = pino({ level: config.LOG_LEVEL, redact: LOG_REDACT });
  // Its activity is jobs: a few seconds after the last batch it gives back what a burst made it
  // grow by, as the API process does after its last request (infra/idle-memory.ts).
  const idle = startIdleRelease({ warn: (err, msg) => log.warn({ err }, msg) });
  const services = await createServices(config, {
    runWorker: true,
    role: 'worker',
    log,
    abortSignal: startup.aborted,
    onJobs: () => idle.activity(),
  });
  // Its counters (webhook attempts, upstream calls, watch checks…) are its own: scraped here.
  const metricsServer =
    config.WORKER_METRICS_PORT === undefined
      ? undefined
      : await serveMetrics({
          registry: services.metrics.registry,
          host: config.HOST,
          port: config.WORKER_METRICS_PORT,
          token: config.METRICS_TOKEN,
          warn: (err, msg) => log.warn({ err }, msg),
        }).catch(async (error: NodeJS.ErrnoException) => {
          // Its jobs have started: stopped cleanly, then one clear line, as the API process says it (a stack trace).
          await services.close();
          if (error.code === 'EADDRINUSE' || error.code === 'EACCES') {
            console.error(
              `Cannot listen on ${config.HOST}:${config.WORKER_METRICS_PORT} (WORKER_METRICS_PORT): ${
                error.code === 'EADDRINUSE' ? 'the port is already in use' : 'permission denied'
              }. Pick another port, or leave WORKER_METRICS_PORT unset.`,
            );
            process.exit(1);
          }
          throw error;
        });
  log.info(
    metricsServer
      ? `channel-shorts worker started; metrics at ${metricsServer.url}/metrics`
      : 'channel-shorts worker started (set WORKER_METRICS_PORT to scrape its metrics)',
  );
  closeWithGrace({ delay: 15_000 }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'worker shutting down after an error');
    else log.info({ signal }, 'worker shutting down');
    idle.stop();
    await metricsServer?.close();
    await services.close();
  });
  startup.ready();
}

main().catch((error) => {
  console.error(error instanceof ConfigError || error instanceof DataDirLockedError ? error.message : error);
  process.exit(1);
});
