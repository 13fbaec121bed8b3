// One process owns an embedded data directory. PGlite is a single-process database: a second opener
// (a CLI while the service runs, a restart overlapping a draining process) silently works on its own
// copy of the pages and the two overwrite each other. So whoever opens DATA_DIR first creates
// `DATA_DIR/channel-shorts.lock` atomically (O_CREAT|O_EXCL) naming its pid, host, process start time
// and role; everyone else refuses (or waits, bounded) and names the holder.
//
// A lock left by a killed process is taken over: on the same host the holder is dead when its pid
// is gone, or when that pid now belongs to a different process (PID reuse: /proc/<pid>/stat start
// time differs from the one recorded). Removing a stale lock happens only under a short-lived
// takeover mutex (`.takeover`, also O_EXCL) and only if the file still holds the very content
// judged stale, so two processes taking over at once cannot delete each other's fresh lock.
//
// Why not proper-lockfile: it judges staleness by mtime only (a killed holder blocks the next start
// for the stale period; a holder paused longer than that loses its lock) and records no holder.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

export const LOCK_FILE_NAME = 'channel-shorts.lock';

export interface LockHolder {
  pid: number;
  hostname: string;
  /** When the holder took the lock (ISO). */
  acquiredAt: string;
  /** /proc/<pid>/stat field 22 (clock ticks since boot); null where /proc is unavailable. */
  processStart: string | null;
  role: string;
  /** The holder's HTTP address once it listens (the CLI talks to it instead of opening the files). */
  url: string | null;
}

export class DataDirLockedError extends Error {
  readonly holder: LockHolder;
  readonly lockPath: string;
  /** waitedSeconds: null when it did not wait at all. */
  constructor(lockPath: string, holder: LockHolder, waitedSeconds: number | null) {
    super(
      `${lockPath.replace(/\/channel-shorts\.lock$/, '')} is in use by ${describeHolder(holder)}` +
        `${waitedSeconds !== null ? ` (waited ${waitedSeconds} s)` : ''}. One process owns the ` +
        'embedded database at a time: ' +
        `stop it first${holder.url ? `, or run the CLI against it (it finds ${holder.url} in the lock)` : ''}.`,
    );
    this.name = 'DataDirLockedError';
    this.holder = holder;
    this.lockPath = lockPath;
  }
}

export function describeHolder(holder: LockHolder): string {
  return (
    `${holder.role} pid ${holder.pid} on ${holder.hostname} ` +
    `since ${holder.acquiredAt}${holder.url ? ` at ${holder.url}` : ''}`
  );
}

/** Start time of a process (Linux /proc), to tell a live holder from a new process that got its pid. */
export function processStartTime(pid: number | 'self'): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: fields restart after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null; // field 22 overall
  } catch {
    // No /proc (not Linux) or no such process: the start time is unknown, and callers treat it so.
    return null;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the recorded holder is certainly gone. A holder on another host is never judged dead. */
export function holderIsDead(holder: LockHolder): boolean {
  if (holder.hostname !== hostname()) return false;
  if (holder.pid === process.pid)
    return holder.processStart !== null && holder.processStart !== processStartTime('self');
  if (!pidAlive(holder.pid)) return true;
  if (holder.processStart === null) return false;
  const now = processStartTime(holder.pid);
  return now !== null && now !== holder.processStart;
}

function parseHolder(text: string): LockHolder | null {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid !== 'number' || typeof value.hostname !== 'string') return null;
    return {
      pid: value.pid,
      hostname: value.hostname,
      acquiredAt: String(value.acquiredAt ?? 'unknown'),
      processStart: typeof value.processStart === 'string' ? value.processStart : null,
      role: String(value.role ?? 'process'),
      url: typeof value.url === 'string' ? value.url : null,
    };
  } catch {
    // An unreadable lock file (half written by a crash) has no holder to wait for.
    return null;
  }
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function ageMs(path: string): number | null {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    // Gone between the read and the stat: no age, the caller looks again.
    return null;
  }
}

/** The current holder of a data directory's lock, if any (live or not). */
export function readLockHolder(dataDir: string): LockHolder | null {
  const text = readText(join(resolve(dataDir), LOCK_FILE_NAME));
  return text === null ? null : parseHolder(text);
}

export interface DataDirLock {
  readonly path: string;
  readonly holder: LockHolder;
  /** Record the address this process listens on (atomic replace of the lock's content). */
  setUrl(url: string): void;
  release(): void;
}

export interface LockOptions {
  role: string;
  /** 0: refuse at once when held; otherwise poll for the holder to go away for at most this long. */
  waitSeconds?: number;
  /** Called once when the lock is found held and we start waiting. */
  onWait?: (holder: LockHolder) => void;
  /** Called when a stale lock (dead holder) is removed. */
  onTakeover?: (stale: LockHolder | null) => void;
  /** Stop waiting (e.g. the process was asked to stop): the holder is then reported as if refused. */
  abortSignal?: AbortSignal;
}

const PARTIAL_WRITE_GRACE_MS = 2000;
const TAKEOVER_MUTEX_STALE_MS = 10_000;
const POLL_MS = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function writeExclusive(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Remove the lock file if it still holds exactly `seen`, under the takeover mutex. */
async function removeIfUnchanged(path: string, seen: string): Promise<boolean> {
  const mutex = `${path}.takeover`;
  for (let tries = 0; ; tries++) {
    if (writeExclusive(mutex, String(process.pid))) break;
    const age = ageMs(mutex);
    // A takeover lasts microseconds; a mutex this old belongs to a process killed mid-takeover.
    if (age !== null && age > TAKEOVER_MUTEX_STALE_MS) unlinkQuiet(mutex);
    else await sleep(20);
    if (tries > 1000) throw new Error(`cannot take the lock takeover mutex ${mutex}`);
  }
  try {
    if (readText(path) !== seen) return false;
    unlinkQuiet(path);
    return true;
  } finally {
    unlinkQuiet(mutex);
  }
}

export async function acquireDataDirLock(dataDir: string, options: LockOptions): Promise<DataDirLock> {
  const dir = resolve(dataDir);
  await mkdir(dir, { recursive: true });
  const path = join(dir, LOCK_FILE_NAME);
  const holder: LockHolder = {
    pid: process.pid,
    hostname: hostname(),
    acquiredAt: new Date().toISOString(),
    processStart: processStartTime('self'),
    role: options.role,
    url: null,
  };
  const started = Date.now();
  const deadline = started + (options.waitSeconds ?? 0) * 1000;
  let waiting = false;
  for (;;) {
    if (writeExclusive(path, JSON.stringify(holder))) break;
    const text = readText(path);
    if (text === null) continue; // released between our attempt and the read
    const current = parseHolder(text);
    if (current === null) {
      // Created but not yet written (the writer is between open and write), or left half-written
      // by a process killed at that instant: the latter is stale once it is old enough.
      const age = ageMs(path);
      if (age !== null && age > PARTIAL_WRITE_GRACE_MS) {
        if (await removeIfUnchanged(path, text)) options.onTakeover?.(null);
      } else await sleep(POLL_MS);
      continue;
    }
    if (holderIsDead(current)) {
      if (await removeIfUnchanged(path, text)) options.onTakeover?.(current);
      continue;
    }
    if (Date.now() >= deadline || options.abortSignal?.aborted)
      throw new DataDirLockedError(path, current, waiting ? Math.round((Date.now() - started) / 1000) : null);
    if (!waiting) {
      waiting = true;
      options.onWait?.(current);
    }
    await sleep(POLL_MS);
  }

  let released = false;
  const ownContent = () => JSON.stringify(holder);
  const onExit = () => lock.release();
  process.once('exit', onExit);
  const lock: DataDirLock = {
    path,
    holder,
    setUrl(url) {
      if (released) return;
      const previous = ownContent();
      if (readText(path) !== previous) return; // not ours any more: never overwrite another holder
      holder.url = url;
      const tmp = `${path}.${process.pid}.tmp`;
      writeExclusiveOrReplace(tmp, ownContent());
      renameSync(tmp, path);
    },
    release() {
      if (released) return;
      released = true;
      process.removeListener('exit', onExit);
      if (readText(path) === ownContent()) unlinkQuiet(path);
    },
  };
  return lock;
}

function writeExclusiveOrReplace(path: string, content: string): void {
  unlinkQuiet(path);
  if (!writeExclusive(path, content)) throw new Error(`cannot write ${path}`);
}
