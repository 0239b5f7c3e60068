/**
 * CPU per thread of the bench's Chromium, from /proc (Linux): every thread of every process started
 * from the bench's profile directory, including those a trace never shows (FFmpeg's decode threads,
 * Mesa llvmpipe's raster threads). Two samples subtract to CPU ms per thread name over a window.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ 100 on Linux

export interface ThreadCpu {
  /** process kind (renderer, gpu-process, browser, utility) / thread name → cumulative CPU ms */
  readonly ms: Map<string, number>;
}

function kindOf(cmdline: string): string {
  const m = /--type=([a-z-]+)/.exec(cmdline);
  return m ? m[1]! : 'browser';
}

/** Thread names that run one per instance: numbered ones (llvmpipe-3, DedicatedWorker …) are summed under their family. */
function family(name: string): string {
  return name.replace(/[-_ ]?\d+$/, '').trim();
}

export function sampleThreads(profileDir: string): ThreadCpu {
  const ms = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      continue;
    }
    if (!cmdline.includes(profileDir) && !cmdline.includes('chromium')) continue;
    if (!cmdline.includes(profileDir) && !isChildOfProfile(pid, profileDir)) continue;
    const kind = kindOf(cmdline);
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const close = stat.lastIndexOf(')');
        const name = stat.slice(stat.indexOf('(') + 1, close);
        const fields = stat.slice(close + 2).split(' ');
        const cpu = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
        const key = `${kind} / ${family(name)}`;
        ms.set(key, (ms.get(key) ?? 0) + cpu);
      } catch {
        // thread ended between readdir and read
      }
    }
  }
  return { ms };
}

/** Chromium's zygote children do not repeat --user-data-dir: walk up the parents. */
function isChildOfProfile(pid: string, profileDir: string): boolean {
  let p = pid;
  for (let i = 0; i < 6; i++) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${p}/stat`, 'utf8');
    } catch {
      return false;
    }
    const ppid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]!;
    if (ppid === '0' || ppid === '1') return false;
    try {
      if (readFileSync(`/proc/${ppid}/cmdline`, 'utf8').includes(profileDir)) return true;
    } catch {
      return false;
    }
    p = ppid;
  }
  return false;
}

/** CPU ms per thread family between two samples, largest first (threads that ended are lost). */
export function cpuBetween(a: ThreadCpu, b: ThreadCpu): [string, number][] {
  const out: [string, number][] = [];
  for (const [k, v] of b.ms) {
    const d = v - (a.ms.get(k) ?? 0);
    if (d > 0) out.push([k, d]);
  }
  return out.sort((x, y) => y[1] - x[1]);
}
