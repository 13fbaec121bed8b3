// The API process: config → services → app → listen; drains and closes on SIGINT/SIGTERM.
import closeWithGrace from 'close-with-grace';
import { loadConfig, ConfigError } from './config.ts';
import { buildApp, fastifyOptions, LOG_REDACTIONS } from './app.ts';
import { createServices } from './services.ts';

async function main() {
  const config = loadConfig(process.env);
  const app = await buildApp(
    await createServices(config, {
      runWorker: config.RUN_WORKER,
      log: { error: (obj, msg) => app.log.error(obj, msg), info: (obj, msg) => app.log.info(obj, msg) },
    }),
    fastifyOptions({ level: config.LOG_LEVEL, redact: { paths: LOG_REDACTIONS, censor: '[redacted]' } }),
  );
  closeWithGrace({ delay: 15_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    await app.services.close();
  });
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`channel-shorts listening at ${address} (dashboard ${address}/dashboard/, docs ${address}/docs)`);
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
