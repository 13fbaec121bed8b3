// What every part of the service is built with: the config, its clock, metrics and log, and the
// stores (stores.ts).
import type { Config } from '../config.ts';
import type { Database } from '../infra/db/database.ts';
import { createMetrics, type Metrics } from '../infra/metrics.ts';
import { openStores, type Stores } from './stores.ts';
import type { ServiceOptions } from './options.ts';

export interface Core {
  config: Config;
  db: Database;
  metrics: Metrics;
  /** The one clock of the service (tests inject one through ServiceOptions.now). */
  clock: () => number;
  log: ServiceOptions['log'];
}

export async function openCore(config: Config, options: ServiceOptions): Promise<{ core: Core; stores: Stores }> {
  const now = options.now ?? Date.now;
  const metrics = createMetrics();
  const stores = await openStores(config, options, metrics, now);
  return { core: { config, db: stores.db, metrics, clock: now, log: options.log }, stores };
}
