// What a process asks of its services, read by every builder.
/** How a process wants its services: with jobs or without, its clock, its log. */
export interface ServiceOptions {
  runWorker: boolean;
  /** The clock for quota days and reservations (tests inject one). */
  now?: () => number;
  /** Named in the DATA_DIR lock (server, worker, bench…). */
  role?: string;
  /** Aborts waiting for the DATA_DIR lock (a stop signal during start-up). */
  abortSignal?: AbortSignal;
  log: { error(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };
  /** A batch of jobs is about to run in this process (WorkerDeps.onJobs). */
  onJobs?: () => void;
}
