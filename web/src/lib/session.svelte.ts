// The signed-in session: a JWT from POST /auth/login kept in sessionStorage (gone when the tab
// closes) with its expiry. A timer signs out at expiresAt; api.ts signs out on any 401.
const STORAGE_KEY = 'channel-shorts.session';
export const SESSION_EXPIRED = 'Your session expired, please sign in again.';

export interface Session {
  token: string;
  userId: string;
  email: string;
  expiresAt: string;
}

function isSession(value: unknown): value is Session {
  const v = value as Session | null;
  return (
    !!v &&
    typeof v.token === 'string' &&
    typeof v.email === 'string' &&
    typeof v.expiresAt === 'string' &&
    !Number.isNaN(Date.parse(v.expiresAt))
  );
}

function restore(): Session | null {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null');
    if (isSession(value) && Date.parse(value.expiresAt) > Date.now()) return value;
  } catch {
    // unreadable storage: start signed out
  }
  sessionStorage.removeItem(STORAGE_KEY);
  return null;
}

export const session = $state<{
  current: Session | null;
  /** Shown on the login screen, e.g. why the user was signed out. */
  notice: string;
  /** The API key created in this tab, kept in memory only, for the quick start. */
  newKey: string | null;
}>({ current: restore(), notice: '', newKey: null });

let expiryTimer: ReturnType<typeof setTimeout> | undefined;

function scheduleExpiry() {
  clearTimeout(expiryTimer);
  if (!session.current) return;
  const ms = Date.parse(session.current.expiresAt) - Date.now();
  // setTimeout holds at most ~24.8 days; re-check then if a token ever lives longer.
  expiryTimer = setTimeout(
    () => {
      if (session.current && Date.parse(session.current.expiresAt) <= Date.now()) signOut(SESSION_EXPIRED);
      else scheduleExpiry();
    },
    Math.max(0, Math.min(ms, 2 ** 31 - 1)),
  );
}

export function signIn(value: Session) {
  session.current = value;
  session.notice = '';
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(value));
  scheduleExpiry();
}

export function signOut(notice = '') {
  clearTimeout(expiryTimer);
  sessionStorage.removeItem(STORAGE_KEY);
  session.current = null;
  session.newKey = null;
  session.notice = notice;
}

/** Timers are throttled in background tabs: check again whenever the tab becomes visible. */
function checkExpiry() {
  if (session.current && Date.parse(session.current.expiresAt) <= Date.now()) signOut(SESSION_EXPIRED);
}

scheduleExpiry();
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') checkExpiry();
});
// Another tab of the same session cannot share sessionStorage, so nothing to sync across tabs.
