// What the operator CLI can do, two ways: directly on the database (PostgreSQL, or an embedded
// DATA_DIR no service holds — the CLI then holds its lock), or through the operator API of the
// running service that holds DATA_DIR (or of --url), authenticated with OPERATOR_TOKEN.
import { hostname, userInfo } from 'node:os';
import type { Database } from '../infra/db/database.ts';
import type { RateLimits, AccountRole } from '../domain/accounts/accounts.ts';
import { listAudit, type Actor, type AuditEntry } from '../domain/operators/audit.ts';
import {
  adjustCredits,
  createUser,
  findUser,
  searchUsers,
  setUserDisabled,
  setUserLimits,
  setUserRole,
  userView,
  type CreditAdjustment,
  type LimitChange,
  type UserView,
} from '../domain/operators/users.ts';
import { createInvitation, type SignupMode } from '../domain/operators/invitations.ts';
import { ownLockStatus, runDoctor, type DoctorReport } from '../domain/operators/doctor.ts';
import { AppError } from '../errors.ts';

export interface OperatorClient {
  /** "database …" or "service at …", for the operator to see where a command ran. */
  readonly target: string;
  listUsers(search?: string): Promise<UserView[]>;
  createUser(input: { email: string; password: string; credits?: number; role?: AccountRole }): Promise<UserView>;
  setDisabled(user: string, disabled: boolean, reason: string | null): Promise<UserView>;
  setRole(user: string, role: AccountRole): Promise<UserView>;
  adjustCredits(user: string, adjustment: CreditAdjustment): Promise<UserView>;
  setLimits(user: string, limits: LimitChange): Promise<UserView>;
  audit(user: string | undefined, limit: number): Promise<AuditEntry[]>;
  invite(input: {
    email: string;
    credits?: number;
    role?: AccountRole;
  }): Promise<{ email: string; link: string; expiresAt: string }>;
  doctor(): Promise<DoctorReport>;
  close(): Promise<void>;
}

export class RemoteError extends Error {}

export function cliActor(): Actor {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (containers): keep "unknown"
  }
  return { label: `cli ${user}@${hostname()}`, accountId: null };
}

/** Where the service of this configuration listens, as a browser on its machine reaches it. */
export function listenUrl(config: { HOST: string; PORT: number }): string {
  const host = ['0.0.0.0', '::', ''].includes(config.HOST)
    ? '127.0.0.1'
    : config.HOST.includes(':')
      ? `[${config.HOST}]`
      : config.HOST;
  return `http://${host}:${config.PORT}`;
}

export function directClient(
  db: Database,
  settings: {
    defaults: RateLimits;
    signup: SignupMode;
    invitationTtlHours: number;
    publicBaseUrl: string | undefined;
    listenUrl: string;
    /** The embedded database's directory, as an absolute path (absent with DATABASE_URL). */
    dataDir?: string;
  },
): OperatorClient {
  const actor = cliActor();
  const view = (row: Parameters<typeof userView>[0]) => userView(row, settings.defaults);
  return {
    target:
      db.kind === 'postgres'
        ? 'PostgreSQL (DATABASE_URL)'
        : `the embedded database in ${settings.dataDir ?? 'DATA_DIR'} (this CLI holds it)`,
    async listUsers(search) {
      const all: UserView[] = [];
      for (let offset = 0; ; offset += 500) {
        const page = await searchUsers(db, { search, limit: 500, offset });
        all.push(...page.users.map(view));
        if (page.users.length < 500) return all;
      }
    },
    createUser: async (input) => view(await createUser(db, actor, input)),
    setDisabled: async (user, disabled, reason) => view(await setUserDisabled(db, actor, user, disabled, reason)),
    setRole: async (user, role) => view(await setUserRole(db, actor, user, role)),
    adjustCredits: async (user, adjustment) => view(await adjustCredits(db, actor, user, adjustment)),
    setLimits: async (user, limits) => view(await setUserLimits(db, actor, user, limits)),
    async audit(user, limit) {
      const accountId = user ? (await findUser(db, user)).id : undefined;
      return listAudit(db, { accountId, limit });
    },
    async invite(input) {
      const invitation = await createInvitation(db, actor, input, {
        mode: settings.signup,
        ttlHours: settings.invitationTtlHours,
      });
      // Without PUBLIC_BASE_URL: the address the service listens on by this configuration (it was
      // always port 3000), said on stderr to be a guess.
      const base = settings.publicBaseUrl ?? settings.listenUrl;
      if (!settings.publicBaseUrl)
        console.error(
          `PUBLIC_BASE_URL is not set: the link uses ${base}, where this configuration's service listens; set ` +
            'PUBLIC_BASE_URL to the address users reach.',
        );
      return {
        email: invitation.email,
        expiresAt: invitation.expiresAt,
        link: `${base.replace(/\/$/, '')}/dashboard/#/invite/${invitation.token}`,
      };
    },
    doctor: () => runDoctor(db, { lock: ownLockStatus(db) }),
    close: () => db.close(),
  };
}

export function remoteClient(baseUrl: string, token: string): OperatorClient {
  const base = baseUrl.replace(/\/$/, '');
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(base + path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new RemoteError(`cannot reach the service at ${base} (${(error as Error).message})`);
    }
    const text = await response.text();
    let data: unknown = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: reported below
    }
    if (!response.ok) {
      const err = (data ?? {}) as { error?: string; message?: string; requestId?: string };
      throw new RemoteError(
        `${err.message ?? `HTTP ${response.status}`}${err.error ? ` [${err.error}]` : ''}` +
          `${err.requestId ? ` (request ${err.requestId})` : ''}`,
      );
    }
    return data as T;
  }
  const user = (id: string) => `/operator/users/${encodeURIComponent(id)}`;
  return {
    target: `the running service at ${base}`,
    async listUsers(search) {
      const all: UserView[] = [];
      for (let offset = 0; ; offset += 500) {
        const page = await call<{ users: UserView[] }>(
          'GET',
          `/operator/users?limit=500&offset=${offset}${search ? `&search=${encodeURIComponent(search)}` : ''}`,
        );
        all.push(...page.users);
        if (page.users.length < 500) return all;
      }
    },
    createUser: (input) => call('POST', '/operator/users', input),
    setDisabled: (id, disabled, reason) =>
      call('POST', `${user(id)}/${disabled ? 'disable' : 'enable'}`, reason ? { reason } : {}),
    setRole: (id, role) => call('POST', `${user(id)}/role`, { role }),
    adjustCredits: (id, adjustment) => call('POST', `${user(id)}/credits`, adjustment),
    setLimits: (id, limits) => {
      const reset = limits.perMinute === null && limits.perHour === null && limits.perDay === null;
      return reset ? call('DELETE', `${user(id)}/limits`) : call('PUT', `${user(id)}/limits`, limits);
    },
    async audit(id, limit) {
      const accountId = id ? (await call<{ user: UserView }>('GET', user(id))).user.id : undefined;
      return (
        await call<{ entries: AuditEntry[] }>(
          'GET',
          `/operator/audit?limit=${limit}${accountId ? `&userId=${accountId}` : ''}`,
        )
      ).entries;
    },
    invite: (input) => call('POST', '/operator/invitations', input),
    doctor: () => call('GET', '/operator/doctor'),
    async close() {},
  };
}

/** Errors of either client as one message. */
export function messageOf(error: unknown): string | null {
  if (error instanceof AppError || error instanceof RemoteError) return error.message;
  return null;
}
