// CPU the rest of the machine used while a benchmark measured: all CPU time /proc/stat counts, minus the
// time of this process and every process it started (the browser, its renderers and GPU process, the
// server under test). Linux only; elsewhere the figures are null.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

export interface CpuSample {
  /** wall clock, ms */
  at: number;
  /** busy CPU time of the whole machine (all cores), clock ticks */
  machine: number;
  /** CPU time of this process tree, live processes and the children they reaped, clock ticks */
  ours: number;
}

let ticksPerSecond: number | null = null;
function clockTicks(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** Busy ticks of the machine from the first line of /proc/stat (everything but idle and iowait). */
export function machineBusyTicks(procStat: string): number {
  const fields = procStat.split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  return total - (fields[3] ?? 0) - (fields[4] ?? 0);
}

/** ppid and CPU ticks (utime + stime + cutime + cstime) from a /proc/<pid>/stat line. */
export function parsePidStat(line: string): { ppid: number; ticks: number } {
  // the command name is in parentheses and may hold spaces: count fields after the last ')'
  const rest = line.slice(line.lastIndexOf(')') + 2).split(' ');
  const n = (i: number) => Number(rest[i] ?? 0);
  return { ppid: n(1), ticks: n(11) + n(12) + n(13) + n(14) };
}

function processTable(): Map<number, { ppid: number; ticks: number }> {
  const table = new Map<number, { ppid: number; ticks: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      table.set(Number(name), parsePidStat(readFileSync(`/proc/${name}/stat`, 'utf8')));
    } catch {
      /* the process ended meanwhile */
    }
  }
  return table;
}

export function sampleCpu(root = process.pid): CpuSample | null {
  try {
    const machine = machineBusyTicks(readFileSync('/proc/stat', 'utf8'));
    const table = processTable();
    const children = new Map<number, number[]>();
    for (const [pid, { ppid }] of table) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    let ours = 0;
    const queue = [root];
    while (queue.length) {
      const pid = queue.pop()!;
      ours += table.get(pid)?.ticks ?? 0;
      queue.push(...(children.get(pid) ?? []));
    }
    return { at: Date.now(), machine, ours };
  } catch {
    return null;
  }
}

/** Cores' worth of CPU other processes used between two samples (1 = one core fully busy). */
export function otherCores(a: CpuSample | null, b: CpuSample | null): number | null {
  if (!a || !b || b.at <= a.at) return null;
  const ticks = b.machine - a.machine - (b.ours - a.ours);
  return Math.max(0, Math.round((ticks / clockTicks() / ((b.at - a.at) / 1000)) * 100) / 100);
}
