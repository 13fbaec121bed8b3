// Statistics over time: the recorder every fresh upstream read hands its counts to (shorts reads,
// watch checks, tracked channels) and what the statistics routes read with.
import type { Core } from './core.ts';
import { createSnapshotRecorder, type SnapshotRecorder } from '../domain/stats/snapshots.ts';

export interface StatsParts {
  snapshots: SnapshotRecorder;
}

export function buildStats({ config, db, log }: Core): StatsParts {
  const snapshots = createSnapshotRecorder(db, {
    minSeconds: config.STATS_SNAPSHOT_MIN_SECONDS,
    // A snapshot is a by-product of the read: its failure never fails the request that read.
    onError: (err, points) => log.error({ err, points }, 'storing statistics snapshots failed'),
  });
  return { snapshots };
}
