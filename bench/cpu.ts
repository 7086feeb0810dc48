// CPU time of a bench's phase, so figures taken on a loaded shared machine stay comparable:
// wall-clock rates fall with the load, CPU per unit of work much less.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // Linux USER_HZ is 100

/** utime+stime (and, for the postmaster, the reaped children's cutime+cstime) of /proc/<pid>/stat, in ms. */
function statCpu(pid: number, withReaped: boolean): { ms: number; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from 3 (state) on
    const n = (i: number) => Number(f[i - 3]);
    return { ms: (n(14) + n(15) + (withReaped ? n(16) + n(17) : 0)) * TICK_MS, ppid: n(4) };
  } catch {
    return undefined;
  }
}

/** Another process's CPU (a child node, redis-server) so far, in ms (0 once it is gone). */
export function processCpuMs(pid: number): number {
  return statCpu(pid, false)?.ms ?? 0;
}

/** The PostgreSQL server's CPU: the postmaster, its live backends, and every backend that already exited (reaped into the postmaster). */
export function postgresCpuMs(postmaster: number): number {
  let ms = statCpu(postmaster, true)?.ms ?? 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const child = statCpu(Number(name), false);
    if (child?.ppid === postmaster) ms += child.ms;
  }
  return ms;
}

export interface CpuSpent {
  /** This Node process (API, jobs, the fake Graph and the bench's own client). */
  nodeMs: number;
  /** The embedded PostgreSQL (undefined on DATABASE_URL: another machine's CPU). */
  postgresMs?: number;
}

/** Starts counting; `stop()` answers the CPU spent since. */
export function cpuMeter(postmasterPid?: number): { stop(): CpuSpent } {
  const node = process.cpuUsage();
  const pg = postmasterPid ? postgresCpuMs(postmasterPid) : undefined;
  return {
    stop() {
      const used = process.cpuUsage(node);
      return { nodeMs: (used.user + used.system) / 1000, postgresMs: postmasterPid && pg !== undefined ? postgresCpuMs(postmasterPid) - pg : undefined };
    },
  };
}

/** "1.23 ms Node + 0.45 ms PostgreSQL per <unit>". */
export function perUnit(spent: CpuSpent, count: number, unit: string): string {
  const each = (ms: number) => (ms / Math.max(count, 1)).toFixed(2);
  return `CPU ${each(spent.nodeMs)} ms Node${spent.postgresMs === undefined ? '' : ` + ${each(spent.postgresMs)} ms PostgreSQL`} per ${unit}`;
}
