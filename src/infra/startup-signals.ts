// A SIGTERM/SIGINT that arrives while a process is still starting (opening the database, running
// migrations, starting the queue) would otherwise kill it on the spot: mid-migration, with the
// DATA_DIR lock left behind, and — under npm — before anything was drained. Until the real shutdown
// handler is installed, the signal is only remembered; `ready()` then re-raises it, so the process
// starts completely and stops at once through its normal, clean shutdown.
const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

export function deferSignalsDuringStartup(): {
  ready(): void /** Aborted by the first signal (e.g. to stop waiting for a lock). */;
  aborted: AbortSignal;
} {
  let received: NodeJS.Signals | null = null;
  const controller = new AbortController();
  const remember = (signal: NodeJS.Signals) => {
    received ??= signal;
    controller.abort(new Error(`stopped by ${signal} while starting`));
  };
  for (const signal of SIGNALS) process.on(signal, remember);
  return {
    aborted: controller.signal,
    ready() {
      for (const signal of SIGNALS) process.removeListener(signal, remember);
      if (received) process.kill(process.pid, received);
    },
  };
}
