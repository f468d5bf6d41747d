// Whether the machine was quiet while a bench ran, in one place for every bench.
// The 1-minute load average after a run says little: a bench that keeps two cores busy raises it
// itself. So "quiet" is judged on what the bench cannot cause: the load before it started, and the CPU
// time every process OUTSIDE the bench's own process tree (the bench, its receiver, sandbox, server
// and browser children) used while it ran, read from /proc. Where /proc is missing (macOS), the load
// average before and after is all there is, and the verdict says so.
import { cpus, loadavg } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';

/** At most this much load per core before the run, and this share of the machine used by others. */
export const QUIET_LOAD_PER_CORE = 0.5;
export const QUIET_OTHER_CPU_SHARE = 0.05;
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

interface Proc {
  ppid: number;
  ticks: number;
}

/** pid -> its parent and CPU ticks (user + system), for every process /proc shows; undefined without /proc. */
function processes(): Map<number, Proc> | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const out = new Map<number, Proc>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command (which may hold spaces and parentheses): state ppid ... utime stime.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(pid), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // gone since the listing
    }
  }
  return out;
}

/** This process and every descendant of it, by the parents in `procs`. */
function ownTree(procs: Map<number, Proc>): Set<number> {
  const own = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, { ppid }] of procs)
      if (!own.has(pid) && own.has(ppid)) {
        own.add(pid);
        grew = true;
      }
  }
  return own;
}

export interface MachineReport {
  cores: number;
  loadBefore: number;
  loadAfter: number;
  /** CPU seconds other processes used during the run, and that as a share of the machine; null without /proc. */
  otherCpuSeconds: number | null;
  otherCpuShare: number | null;
  quiet: boolean;
  /** One sentence for the results file. */
  summary: string;
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** Starts watching; `end()` when the measured work is done. */
export function watchMachine(): { end(): MachineReport } {
  const cores = cpus().length;
  const loadBefore = loadavg()[0]!;
  const started = process.hrtime.bigint();
  const before = processes();
  return {
    end(): MachineReport {
      const loadAfter = loadavg()[0]!;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const after = processes();
      let otherCpuSeconds: number | null = null;
      if (before && after) {
        const own = ownTree(new Map([...before, ...after]));
        let ticks = 0;
        for (const [pid, { ticks: now }] of after)
          if (!own.has(pid)) ticks += Math.max(0, now - (before.get(pid)?.ticks ?? 0));
        otherCpuSeconds = ticks / TICKS_PER_SECOND;
      }
      const otherCpuShare = otherCpuSeconds === null ? null : otherCpuSeconds / (seconds * cores);
      const calmStart = loadBefore / cores < QUIET_LOAD_PER_CORE;
      const quiet =
        otherCpuShare === null
          ? calmStart && loadAfter / cores < QUIET_LOAD_PER_CORE
          : calmStart && otherCpuShare < QUIET_OTHER_CPU_SHARE;
      const others =
        otherCpuShare === null
          ? 'other processes not measured (no /proc)'
          : `other processes used ${round(otherCpuSeconds!, 1)} CPU s in ${round(seconds, 0)} s (${round(100 * otherCpuShare, 1)}% of the machine)`;
      const summary =
        `${cores} cores; 1-minute load average ${round(loadBefore)} before, ${round(loadAfter)} after (the bench's own work included); ${others}. ` +
        (quiet
          ? 'A quiet machine.'
          : `**NOT a quiet machine** (quiet: load below ${QUIET_LOAD_PER_CORE} per core before the run and others under ${100 * QUIET_OTHER_CPU_SHARE}% of the machine during it): read the ratios, not the absolute figures.`);
      return {
        cores,
        loadBefore: round(loadBefore),
        loadAfter: round(loadAfter),
        otherCpuSeconds: otherCpuSeconds === null ? null : round(otherCpuSeconds, 1),
        otherCpuShare: otherCpuShare === null ? null : round(otherCpuShare, 3),
        quiet,
        summary,
      };
    },
  };
}
