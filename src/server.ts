// The API process: config → services → app → listen; drains and closes on SIGINT/SIGTERM.
import closeWithGrace from 'close-with-grace';
import { loadConfig, ConfigError } from './config.ts';
import { buildApp, fastifyOptions, LOG_REDACTIONS } from './app.ts';
import { createServices } from './services.ts';

const DRAIN_MS = 5_000;
const SHUTDOWN_DEADLINE_MS = 20_000;

async function main() {
  const config = loadConfig(process.env);
  const app = await buildApp(
    await createServices(config, {
      runWorker: config.RUN_WORKER,
      log: { error: (obj, msg) => app.log.error(obj, msg), info: (obj, msg) => app.log.info(obj, msg) },
    }),
    fastifyOptions({ level: config.LOG_LEVEL, redact: { paths: LOG_REDACTIONS, censor: '[redacted]' } }, config),
  );
  closeWithGrace({ delay: SHUTDOWN_DEADLINE_MS }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    // In-flight requests get DRAIN_MS to finish; a client that never finishes sending its request
    // (or a load balancer holding a half-open connection) must not keep the process from closing
    // its queue and database cleanly, so whatever is left is then cut.
    const cut = setTimeout(() => app.server.closeAllConnections(), DRAIN_MS);
    await app.close();
    clearTimeout(cut);
    await app.services.close();
  });
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`channel-shorts listening at ${address} (dashboard ${address}/dashboard/, docs ${address}/docs)`);
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
