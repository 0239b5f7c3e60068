/**
 * CPU of the bus bench's server processes (bench/bus.bench.ts), from /proc (Linux). Each
 * server is a process tree: a Node server is one process (its worker threads included), nats-server runs
 * under `timeout`, PostgreSQL is a postmaster with one process per connection and its background workers.
 * A tree's CPU is every live process's own time plus the time of the children it has waited for
 * (utime + stime + cutime + cstime): a backend or autovacuum worker that ends inside a window still
 * counts, in its parent's cutime, so two samples subtract to the tree's CPU over the window.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ 100 on Linux

interface ProcStat {
  ppid: number;
  ticks: number;
}

function readStat(pid: number | string): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name in parentheses (which may hold spaces): state ppid … utime(14) stime cutime cstime.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
}

/** Cumulative CPU ms of the process `root` and all its live descendants (with their waited-for children). */
export function treeCpuMs(root: number): number {
  const all = new Map<number, ProcStat>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = readStat(name);
    if (s) all.set(Number(name), s);
  }
  const children = new Map<number, number[]>();
  for (const [pid, s] of all) {
    const list = children.get(s.ppid);
    if (list) list.push(pid);
    else children.set(s.ppid, [pid]);
  }
  let ticks = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    const s = all.get(pid);
    if (!s) continue;
    ticks += s.ticks;
    stack.push(...(children.get(pid) ?? []));
  }
  return ticks * TICK_MS;
}

export interface CpuRoot {
  /** What the process is: 'single node', 'gateway A', 'push B', 'NATS', 'PostgreSQL'. */
  readonly label: string;
  readonly pid: number;
}

/** CPU ms of each root's tree, by label. */
export function sampleCpu(roots: readonly CpuRoot[]): Map<string, number> {
  return new Map(roots.map((r) => [r.label, treeCpuMs(r.pid)]));
}

/** CPU ms per label between two samples. */
export function cpuDelta(a: Map<string, number>, b: Map<string, number>): Map<string, number> {
  return new Map([...b].map(([k, v]) => [k, v - (a.get(k) ?? 0)]));
}
