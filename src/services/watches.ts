// Watches: the use cases' and the scheduler's dependencies, and WebSub push when PUBLIC_BASE_URL is
// set (without it the hub could not reach us, and watches are polled only).
import type { PgBoss } from 'pg-boss';
import type { Core } from './core.ts';
import type { WatchDeps } from '../domain/watches/watches.ts';
import type { SchedulerDeps } from '../domain/watches/scheduler.ts';
import type { WebSubDeps } from '../domain/watches/websub.ts';
import { enqueueWatchCheck, eventRecorder } from '../jobs/watch-check-job.ts';
import { websubSubscriptions, type WebSubSubscriptions } from '../jobs/websub-subscriptions.ts';

export interface WatchParts {
  watches: WatchDeps & SchedulerDeps;
  websub: WebSubDeps | undefined;
  subscriptions: WebSubSubscriptions;
}

export function buildWatches(
  { config, db, metrics, clock: now, log }: Core,
  parts: Pick<WatchDeps, 'youtube' | 'innertube' | 'source' | 'quota' | 'pricing' | 'snapshots'> & { boss: PgBoss },
): WatchParts {
  const { boss } = parts;
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
  const subscriptions = websubSubscriptions(websub, log);
  const watches: WatchDeps & SchedulerDeps = {
    db,
    youtube: parts.youtube,
    innertube: parts.innertube,
    source: parts.source,
    quota: parts.quota,
    pricing: parts.pricing,
    snapshots: parts.snapshots,
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
    onChannelWatched: (channelId) => void subscriptions.subscribe(channelId),
  };
  return { watches, websub, subscriptions };
}
