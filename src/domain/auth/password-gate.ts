// Bounds how many password checks (argon2id: ~19 MiB and tens of ms of CPU each) run at once, and
// how many may wait. A flood of logins then costs a bounded amount of CPU and memory; what does not
// fit in the queue is refused at once with 503 and Retry-After instead of slowing everyone down.
import { AppError } from '../../errors.ts';

export interface PasswordGate {
  run<T>(work: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

export function createPasswordGate(options: { concurrency: number; maxQueue: number }): PasswordGate {
  let active = 0;
  const queue: Array<() => void> = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active--;
  };
  return {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    async run(work) {
      if (active >= options.concurrency) {
        if (queue.length >= options.maxQueue) {
          throw new AppError(
            'SERVICE_UNAVAILABLE',
            'Too many logins are being checked right now; try again in a second.',
            { headers: { 'retry-after': '1' } },
          );
        }
        // The slot is handed over directly by release(), so active stays at the limit.
        await new Promise<void>((resolve) => queue.push(resolve));
      } else {
        active++;
      }
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}
