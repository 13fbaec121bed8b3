// Child process for lock tests: try to take DATA_DIR's lock, say "won" or "lost <message>", and
// hold a won lock until killed (or for HOLD_MS).
import { acquireDataDirLock, DataDirLockedError } from '../../src/infra/db/data-dir-lock.ts';

const [dataDir, holdMs = '60000'] = process.argv.slice(2);
try {
  const lock = await acquireDataDirLock(dataDir!, { role: 'test-holder' });
  console.log('won');
  setTimeout(() => {
    lock.release();
  }, Number(holdMs));
} catch (error) {
  if (!(error instanceof DataDirLockedError)) throw error;
  console.log(`lost ${error.message}`);
  process.exitCode = 3;
}
