// The browser the end-to-end suites drive. Without it they skip on a developer's machine, but in CI
// (CI=true, as .ci/run sets) a missing browser fails the run: a green CI must mean the dashboard
// was tested, not that its tests were quietly left out.
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

/** false when Chromium is there; else the reason to skip, or (under CI=true) an error. */
export function skipWithoutBrowser(): string | false {
  if (existsSync(CHROMIUM)) return false;
  const reason = `Chromium not found at ${CHROMIUM}; install it (apt-get install -y chromium) to run the dashboard tests`;
  if (process.env.CI === 'true') throw new Error(`${reason}. CI=true: browser tests may not be skipped.`);
  return reason;
}
