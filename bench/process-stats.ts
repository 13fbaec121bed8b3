// What a process used, read from /proc (Linux): CPU time is robust against other load on a shared
// machine, where wall-clock throughput swings by ±30 % between runs.
import { readdirSync, readFileSync } from 'node:fs';

/** The command name and the user and system (kernel) CPU seconds in a /proc …/stat line. */
function parseStat(stat: string): { name: string; user: number; system: number } {
  const fields = stat.replace(/^.*\) /, '').split(' ');
  return { name: /\((.*)\)/.exec(stat)?.[1] ?? '?', user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

/** User and system (kernel) CPU seconds of a process, apart. */
export function userSystemSeconds(pid: number): { user: number; system: number } {
  const { user, system } = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  return { user, system };
}

/** utime + stime of a process in seconds. */
export function cpuSeconds(pid: number): number {
  const { user, system } = userSystemSeconds(pid);
  return user + system;
}

/** CPU seconds per thread name (main thread, PGlite's worker, libuv pool, V8 helpers) of a process. */
export function threadCpuSeconds(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const { name, user, system } = parseStat(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
      byName.set(name, (byName.get(name) ?? 0) + user + system);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return byName;
}

/** CPU seconds of every process on the machine whose command name matches (e.g. the PostgreSQL server's and Redis's). */
export function commandCpuSeconds(command: RegExp): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const { name, user, system } = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      if (command.test(name)) total += user + system;
    } catch {
      // the process ended between the listing and the read
    }
  }
  return total;
}

/** A process's peak (VmHWM) and current (VmRSS) resident memory, in bytes. */
export function residentMemory(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { peak: kb('VmHWM'), now: kb('VmRSS') };
}
