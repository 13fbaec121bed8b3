// What an operator should know about the configuration: how the service reads YouTube, whether
// YouTube accepts its Data API keys, and whether anyone can use it yet. Logged once at start by
// src/server.ts (one line each), so a newcomer's first `npm start` says what to do next instead of
// failing later on the first request; the same notes are the operator's dashboard banner
// (GET /operator/setup) and, as codes only, part of /readyz.
import type { Services } from './services.ts';

export type StartupNoteCode = 'KEYLESS' | 'DATA_API_KEYS' | 'NO_DATA_API_KEY' | 'DATA_API_KEYS_REJECTED' | 'NO_USERS';

export interface StartupNote {
  code: StartupNoteCode;
  level: 'info' | 'warn';
  message: string;
}

export async function startupNotes(
  services: Pick<Services, 'db' | 'keyPool' | 'source' | 'config'>,
): Promise<StartupNote[]> {
  const notes: StartupNote[] = [];
  if (services.keyPool.size === 0) {
    notes.push(
      services.source !== 'innertube'
        ? {
            code: 'NO_DATA_API_KEY',
            level: 'warn',
            message:
              `YOUTUBE_SOURCE=${services.source} but no YouTube Data API key is set (YOUTUBE_API_KEY or ` +
              'YOUTUBE_API_KEYS): every shorts request that needs the Data API will answer 502 until one is ' +
              '(YOUTUBE_SOURCE=auto runs keyless without a key).',
          }
        : {
            code: 'KEYLESS',
            level: 'info',
            message:
              "No YouTube Data API key is set: running keyless through YouTube's web API (InnerTube). Counts are " +
              "approximate and publish dates are read only at a window's edge (docs/sources.md); set " +
              'YOUTUBE_API_KEY for exact data at 1 quota unit per 50 shorts (hybrid).',
          },
    );
  } else {
    notes.push({
      code: 'DATA_API_KEYS',
      level: 'info',
      message:
        `Reading YouTube in ${services.source} mode with ${services.keyPool.size} Data API ` +
        `key${services.keyPool.size === 1 ? '' : 's'} (docs/sources.md, docs/quota.md).`,
    });
    // Rejections are remembered in the database (upstream_key_status), so a restart still knows.
    const rejected = (await services.keyPool.status()).filter((k) => k.state === 'invalid');
    if (rejected.length > 0) {
      const all = rejected.length === services.keyPool.size;
      notes.push({
        code: 'DATA_API_KEYS_REJECTED',
        level: 'warn',
        message:
          `YouTube rejected ${
            all
              ? `${rejected.length === 1 ? 'the' : 'every'} Data API key`
              : `${rejected.length} of ${services.keyPool.size} Data API keys`
          } (${rejected.map((k) => `${k.label}: ${k.invalidReason ?? 'rejected'}`).join(', ')}): ${
            all
              ? 'shorts requests that need the Data API answer 502 (nothing is charged)'
              : 'the other keys carry the load'
          }; a rejected key is tried again after an hour. Check YOUTUBE_API_KEY / YOUTUBE_API_KEYS (the key, its ` +
          "project's YouTube Data API v3 access, its restrictions) and restart.",
      });
    }
  }
  // EXISTS, not count(*): /readyz asks this on every probe.
  const [users] = await services.db.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM accounts) AS any');
  if (!users?.any) {
    notes.push({
      code: 'NO_USERS',
      level: 'warn',
      message:
        services.config.SIGNUP === 'open'
          ? 'No users yet: anyone may sign up at /dashboard/#/signup (SIGNUP=open). Make yourself an operator ' +
            'with: npm run cli -- users create --email you@example.com --password "a long passphrase" --role operator'
          : 'No users yet: create the first one with: npm run cli -- users create --email you@example.com ' +
            '--password "a long passphrase" --credits 100 (add --role operator for the operator area); ' +
            `${
              services.config.DATABASE_URL || services.config.OPERATOR_TOKEN
                ? 'the CLI goes through this running service.'
                : // The CLI reaches an embedded service only through its operator API, never by opening DATA_DIR while
                  // the service holds it.
                  'this service was started without OPERATOR_TOKEN, so the CLI cannot reach it: restart it with ' +
                  'OPERATOR_TOKEN set (a secret of 32+ characters, given to the CLI too), or stop it and run the ' +
                  'command, which then opens DATA_DIR itself.'
            }`,
    });
  }
  return notes;
}
