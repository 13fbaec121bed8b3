// Child process for lock tests: try to take DATA_DIR's lock, say "won" or "lost <message>", and
// hold a won lock until killed (or for holdMs); optionally as `role`, announcing `url` on SIGUSR2.
import { acquireDataDirLock, DataDirLockedError } from '../../src/infra/db/data-dir-lock.ts';

const [dataDir, holdMs = '60000', role = 'test-holder', url] = process.argv.slice(2);
try {
  const lock = await acquireDataDirLock(dataDir!, { role });
  console.log('won');
  if (url) process.once('SIGUSR2', () => lock.setUrl(url));
  setTimeout(() => {
    lock.release();
  }, Number(holdMs));
} catch (error) {
  if (!(error instanceof DataDirLockedError)) throw error;
  console.log(`lost ${error.message}`);
  process.exitCode = 3;
}
