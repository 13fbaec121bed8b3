// The signed-in session: a JWT from POST /auth/login kept in sessionStorage (gone when the tab
// closes) with its expiry. A timer signs out at expiresAt; api.ts signs out on any 401.
const STORAGE_KEY = 'channel-shorts.session';
// The last email signed in with, to pre-fill the sign-in form (an email, not a secret: kept across tabs and restarts).
const LAST_EMAIL_KEY = 'channel-shorts.last-email';
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
/** When the current token was issued, as far as this page knows (a restored one: when the page loaded). */
let issuedAt = Date.now();

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
  // A sign-in and a renewal both hold a token issued just now.
  issuedAt = Date.now();
  session.current = value;
  session.notice = '';
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(value));
  try {
    localStorage.setItem(LAST_EMAIL_KEY, value.email);
  } catch {
    // storage refused (private mode): the form simply starts empty next time
  }
  scheduleExpiry();
}

/** The email of the last sign-in in this browser, or ''. */
export function lastEmail(): string {
  try {
    return localStorage.getItem(LAST_EMAIL_KEY) ?? '';
  } catch {
    return '';
  }
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

// Renewal: a session past half its life is renewed (POST /auth/session) when its user does
// something, at most once a minute; an idle one expires as before.
let renewing = false;
let lastRenewCheck = 0;

async function renewIfDue() {
  const current = session.current;
  const now = Date.now();
  if (!current || renewing || now - lastRenewCheck < 60_000) return;
  lastRenewCheck = now;
  const expires = Date.parse(current.expiresAt);
  if (now < issuedAt + (expires - issuedAt) / 2 || now >= expires) return;
  renewing = true;
  try {
    const response = await fetch('/auth/session', {
      method: 'POST',
      headers: { authorization: `Bearer ${current.token}`, accept: 'application/json' },
      cache: 'no-store',
    });
    if (!response.ok || session.current?.token !== current.token) return;
    const renewed = (await response.json()) as { token: string; expiresAt: string };
    signIn({ ...current, token: renewed.token, expiresAt: renewed.expiresAt });
  } catch {
    // offline for a moment: the next activity tries again; the session ends at expiresAt otherwise
  } finally {
    renewing = false;
  }
}

for (const type of ['pointerdown', 'keydown'] as const)
  document.addEventListener(type, () => void renewIfDue(), { passive: true });

scheduleExpiry();
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') checkExpiry();
});
// Another tab of the same session cannot share sessionStorage, so nothing to sync across tabs.
