import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { project, PROJECTION } from '../bus.bench.ts';
import { frameToDecoded } from './common.ts';
import { treeCpuMs } from './bus-cpu.ts';

describe('the bus bench\'s process CPU (/proc)', () => {
  it.runIf(process.platform === 'linux')('counts a process tree\'s CPU, a child that already ended included', { timeout: 30_000 }, async () => {
    // A shell whose child burns 300 ms of CPU (measured as CPU, not wall: the machine may be loaded) and
    // ends, after which the shell sleeps: the child's time now sits in the shell's cutime.
    const burn = "const t=process.cpuUsage();while((process.cpuUsage(t).user+process.cpuUsage(t).system)<300000){}";
    const sh = spawn('sh', ['-c', `"${process.execPath}" -e '${burn}'; echo done; sleep 5`], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const before = treeCpuMs(sh.pid!);
      await new Promise<void>((resolve) => sh.stdout!.on('data', (d: Buffer) => {
        if (d.toString().includes('done')) resolve();
      }));
      const after = treeCpuMs(sh.pid!);
      expect(after - before).toBeGreaterThanOrEqual(250);
      expect(treeCpuMs(2 ** 22 + 12345)).toBe(0);
    } finally {
      sh.kill('SIGKILL');
    }
  });
});

describe('frame → decoded matching', () => {
  it('pairs each decoded sample with the write of the same vehicle and GPS second, sorted; unmatched ones dropped', () => {
    const base = 1000;
    const sent: [number, number, number][] = [[7, 1000, 10], [7, 1001, 1010], [9, 1000, 20]];
    const decoded: [number, number, number][] = [[7, 1001, 1060], [9, 1000, 45], [7, 1000, 40], [8, 1000, 99]];
    expect(frameToDecoded(sent, decoded, base)).toEqual([25, 30, 50]);
  });
});

describe('the 1,000,000-terminal projection', () => {
  it('multiplies CPU per position by 33,333/s and provisions gateways by CPU and by connections', () => {
    const rows = project(new Map([['gateway A', 0.1], ['push B', 0.02], ['NATS', 0.01], ['PostgreSQL', 0.05]]));
    const by = (prefix: string) => rows.find((r) => r.label.startsWith(prefix))!.value;
    const rate = PROJECTION.terminals / PROJECTION.reportSeconds;
    expect(by('positions/s')).toBeCloseTo(33_333.3, 0);
    expect(by('gateway CPU busy')).toBeCloseTo((0.1 * rate) / 1000, 6);
    // 3.33 cores busy at ≤ 50 % → 7 processes by CPU, but 20 by connections (50,000 each).
    expect(by('gateway processes')).toBe(20);
    expect(by('NATS')).toBeCloseTo((0.01 * rate * PROJECTION.natsReplicas) / 1000, 6);
    expect(by('PostgreSQL')).toBeCloseTo((0.05 * rate) / 1000, 6);
    // CPU-bound: 1 ms per position → 33.3 cores busy → 67 processes at ≤ 50 %.
    expect(project(new Map([['gateway A', 1]])).find((r) => r.label.startsWith('gateway processes'))!.value).toBe(67);
  });
});
