// What an operator should know when the service starts: how it reads YouTube, and whether anyone
// can use it yet. Logged once at start by src/server.ts (one line each), so a newcomer's first
// `npm start` says what to do next instead of failing later on the first request.
import type { Services } from './services.ts';

export interface StartupNote {
  level: 'info' | 'warn';
  message: string;
}

export async function startupNotes(services: Pick<Services, 'db' | 'keyPool' | 'source' | 'config'>): Promise<StartupNote[]> {
  const notes: StartupNote[] = [];
  if (services.keyPool.size === 0) {
    notes.push(services.source !== 'innertube'
      ? { level: 'warn', message: `YOUTUBE_SOURCE=${services.source} but no YouTube Data API key is set (YOUTUBE_API_KEY or YOUTUBE_API_KEYS): every shorts request that needs the Data API will answer 502 until one is (YOUTUBE_SOURCE=auto runs keyless without a key).` }
      : { level: 'info', message: 'No YouTube Data API key is set: running keyless through YouTube\'s web API (InnerTube). Counts are approximate and publish dates are read only at a window\'s edge (docs/sources.md); set YOUTUBE_API_KEY for exact data at 1 quota unit per 50 shorts (hybrid).' });
  } else {
    notes.push({ level: 'info', message: `Reading YouTube in ${services.source} mode with ${services.keyPool.size} Data API key${services.keyPool.size === 1 ? '' : 's'} (docs/sources.md, docs/quota.md).` });
  }
  const [users] = await services.db.query<{ count: number | string }>('SELECT count(*) AS count FROM accounts');
  if (Number(users?.count ?? 0) === 0) {
    notes.push({
      level: 'warn',
      message: services.config.SIGNUP === 'open'
        ? 'No users yet: anyone may sign up at /dashboard/#/signup (SIGNUP=open). Make yourself an operator with: npm run cli -- users create --email you@example.com --password "a long passphrase" --role operator'
        : 'No users yet: create the first one with: npm run cli -- users create --email you@example.com --password "a long passphrase" --credits 100 (add --role operator for the operator area); the CLI goes through this running service.',
    });
  }
  return notes;
}
