// How many of one account's probes may run at once in this process.
//
// A probe takes its units from the account's daily allowance of unpaid work before it spends them,
// and gives them back only when its request commits to a price (quota-meter.ts). Probes in flight
// therefore hold allowance units they will most likely give back. With nothing to stop them, a
// burst of an account's cold requests took the whole allowance in their first calls (50 requests ×
// 1 unit): each then found none left for its second call and failed with 429 — their units now
// unpaid for good, the allowance spent, the account locked out of new channels until midnight
// although it had the credits to pay for every one of them.
//
// So a probe starts only while the allowance left covers it and every probe of the account already
// running at their largest (PROBE_UNITS each); the others wait, holding nothing, for a running one
// to end (commit or fail). A probe whose account has none running always starts: when the
// allowance really is spent, it is refused at its first call as before. Waiting is bounded
// (MAX_WAIT_MS; then the probe starts anyway, as it did before this gate), so a slot a request
// failed to give back delays, never blocks. Per process: instances of a scaled-out deployment each
// admit their own share, which still bounds a burst by the number of instances.

/** The most an ordinary probe spends: the address resolved, the channel, the first listing page. */
export const PROBE_UNITS = 3;
const MAX_WAIT_MS = 15_000;

interface AccountProbes {
  running: number;
  waiting: Array<() => void>;
}

export interface ProbeGate {
  /**
   * Waits until a probe of `accountId` may start; returns its release (idempotent). `allowanceLeft`
   * reads what the account has left of today's allowance (asked only when other probes run).
   */
  enter(accountId: string, allowanceLeft: () => Promise<number>): Promise<() => void>;
}

export function createProbeGate({ maxWaitMs = MAX_WAIT_MS, now = Date.now } = {}): ProbeGate {
  const accounts = new Map<string, AccountProbes>();

  const admit = (accountId: string, probes: AccountProbes) => {
    probes.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      probes.running--;
      const next = probes.waiting.shift();
      if (next) next();
      else if (probes.running === 0) accounts.delete(accountId);
    };
  };

  return {
    async enter(accountId, allowanceLeft) {
      const deadline = now() + maxWaitMs;
      for (;;) {
        // Looked up on every turn: an account's entry is dropped once nothing runs or waits.
        let probes = accounts.get(accountId);
        if (!probes) {
          probes = { running: 0, waiting: [] };
          accounts.set(accountId, probes);
        }
        if (probes.running === 0 || now() >= deadline) return admit(accountId, probes);
        // The allowance read includes what the running probes took so far: conservative, it only ever makes a probe
        // wait.
        const left = await allowanceLeft();
        if (accounts.get(accountId) !== probes) continue;
        if (left >= (probes.running + 1) * PROBE_UNITS) return admit(accountId, probes);
        const queue = probes;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(
            () => {
              const at = queue.waiting.indexOf(wake);
              if (at >= 0) queue.waiting.splice(at, 1);
              resolve();
            },
            Math.max(0, deadline - now()),
          );
          const wake = () => {
            clearTimeout(timer);
            resolve();
          };
          queue.waiting.push(wake);
        });
      }
    },
  };
}
