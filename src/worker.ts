// A worker-only process for the scale-out mode: runs queued fetches and webhook deliveries.
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { loadConfig, ConfigError } from './config.ts';
import { createServices } from './services.ts';
import { LOG_REDACT } from './http/logging.ts';
import { DataDirLockedError } from './infra/db/data-dir-lock.ts';
import { deferSignalsDuringStartup } from './infra/startup-signals.ts';
import { startIdleRelease } from './infra/idle-memory.ts';

async function main() {
  const startup = deferSignalsDuringStartup();
  const config = loadConfig(process.env);
  const log = pino({ level: config.LOG_LEVEL, redact: LOG_REDACT });
  // Its activity is jobs: a few seconds after the last batch it gives back what a burst made it
  // grow by, as the API process does after its last request (infra/idle-memory.ts).
  const idle = startIdleRelease({ warn: (err, msg) => log.warn({ err }, msg) });
  const services = await createServices(config, { runWorker: true, role: 'worker', log, abortSignal: startup.aborted, onJobs: () => idle.activity() });
  log.info('channel-shorts worker started');
  closeWithGrace({ delay: 15_000 }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'worker shutting down after an error');
    else log.info({ signal }, 'worker shutting down');
    idle.stop();
    await services.close();
  });
  startup.ready();
}

main().catch((error) => {
  console.error(error instanceof ConfigError || error instanceof DataDirLockedError ? error.message : error);
  process.exit(1);
});
