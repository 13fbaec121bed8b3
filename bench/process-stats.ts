// What a process used, read from /proc (Linux): CPU time is robust against other load on a shared
// machine, where wall-clock throughput swings by ±30 % between runs.
import { readdirSync, readFileSync } from 'node:fs';

/** utime + stime of a process in seconds. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** User and system (kernel) CPU seconds of a process, apart. */
export function userSystemSeconds(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

/** CPU seconds per thread name (main thread, PGlite's worker, libuv pool, V8 helpers) of a process. */
export function threadCpuSeconds(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = /\((.*)\)/.exec(stat)?.[1] ?? '?';
      const fields = stat.replace(/^.*\) /, '').split(' ');
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return byName;
}
