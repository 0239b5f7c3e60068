/**
 * Gateway throughput with the communication log on vs off (issue 17), in the same run, same process,
 * same terminals. A real gateway (store + batched SQLite history + 0x8001 acks) serves terminals in a
 * child process (bench/gateway.bench.ts re-run with `--load-child`: each connection keeps a window of
 * 0x0200 reports in flight, so the gateway runs flat out). The frame log (server/gateway/frame-log.ts:
 * every frame both ways handed ~1 s to a writer thread that packs each terminal's frames into blocks and
 * writes them into a per-day SQLite file) sits behind a switch: windows with the log off and on
 * alternate (off, on, off, on, …) while the load never stops, so warm-up and the growing history
 * database weigh on both sides alike. Figure: location reports per gateway CPU-second, log on vs off;
 * baseline = off (the gateway as it was before issue 17, the peer being a platform that keeps no frame
 * log); ratio = on / off. "Gateway CPU" is `process.cpuUsage()` of this process: every thread, so the
 * writer thread's SQLite work counts (the load child is another process and does not). An on window
 * ends with `log.flush()` inside the measurement, so every frame it recorded is written and charged
 * to it (blocks are then sealed every window instead of every minute: more rows than in service, so
 * the figure errs against the log). Also reported: the writer thread's busy time per 1,000 frames
 * (its event loop's active time), the part of the cost off the gateway's thread.
 * The load here is far above 100,000 terminals at one report per 30 s (~6,700 frames/s both ways).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../server/config.ts';
import { openStorage } from '../server/db/open.ts';
import { FrameLog, type FrameDirection, type FrameLogSink } from '../server/gateway/frame-log.ts';
import { createLiveRuntime } from '../server/live/runtime.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const loadChild = path.join(path.dirname(fileURLToPath(import.meta.url)), 'gateway.bench.ts');

interface ChildStart { type: 'start'; port: number; devices: string[]; window: number }
type ChildMessage = { type: 'ready'; loginMs: number; failed: number } | { type: 'stopped'; acks: number };

/** The frame log behind a switch (the gateway cannot detach a log; the off side costs one branch). */
class Switched implements FrameLogSink {
  on = false;
  recorded = 0;
  constructor(private readonly log: FrameLog) {}
  get resolveVehicle() {
    return this.log.resolveVehicle;
  }
  set resolveVehicle(f: (phone: string) => number | null) {
    this.log.resolveVehicle = f;
  }
  record(direction: FrameDirection, bytes: Uint8Array): void {
    if (!this.on) return;
    this.recorded++;
    this.log.record(direction, bytes);
  }
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const terminals = quick ? 1000 : 10_000;
  const windowMs = quick ? 2500 : 8000;
  const pairs = quick ? 2 : 3;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-framelog-bench-'));
  const config = loadConfig({}, { dataDir, logLevel: 'silent', seedVehicles: terminals, seedFleetsPerBranch: 4, autoRegister: false });
  const { storage } = await openStorage(config);
  const live = await createLiveRuntime(config, storage);
  const log = new FrameLog({ dir: path.join(dataDir, 'frames'), retentionDays: 7 });
  const sink = new Switched(log);
  live.gateway.attachFrameLog(sink);
  const port = await live.gateway.listen(0, '127.0.0.1');
  const devices = (await storage.terminals.allVehicles()).map((v) => v.deviceNo);
  let child: ChildProcess | undefined;
  try {
    child = fork(loadChild, ['--load-child'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const ready = waitFor(child, 'ready');
    child.send({ type: 'start', port, devices, window: 8 } satisfies ChildStart);
    const { failed } = await ready;
    child.send({ type: 'go' });
    await sleep(1000);
    const side = { off: { positions: 0, cpu: 0, wall: 0 }, on: { positions: 0, cpu: 0, wall: 0 } };
    let logged = 0;
    let writerMs = 0;
    for (let i = 0; i < pairs * 2; i++) {
      const on = i % 2 === 1;
      sink.on = on;
      if (!on) await log.flush(); // the previous window's tail is written before an off window starts
      await sleep(300); // settle into the new mode
      const w0 = sink.recorded;
      const p0 = live.gateway.stats.positions;
      const c0 = process.cpuUsage();
      const b0 = log.writerBusyMs();
      const t0 = performance.now();
      await sleep(windowMs);
      if (on) await log.flush(); // the window's frames written, on its account
      const cpu = process.cpuUsage(c0);
      if (on) writerMs += log.writerBusyMs() - b0;
      const s = on ? side.on : side.off;
      s.positions += live.gateway.stats.positions - p0;
      s.cpu += (cpu.user + cpu.system) / 1e6;
      s.wall += (performance.now() - t0) / 1000;
      if (on) logged += sink.recorded - w0;
    }
    sink.on = false;
    const stopped = waitFor(child, 'stopped');
    child.send({ type: 'stop' });
    await stopped;
    const f0 = performance.now();
    await log.flush();
    const lastFlushMs = performance.now() - f0;
    const name = `gateway TCP loopback with the frame log, ${terminals - failed} terminals`;
    const perCpu = (s: { positions: number; cpu: number }) => s.positions / s.cpu;
    const off = perCpu(side.off), on = perCpu(side.on);
    return [
      { name: `${name}: log off (baseline)`, metric: 'reports per gateway CPU-second', value: off, unit: 'reports/s' },
      { name: `${name}: log on`, metric: 'reports per gateway CPU-second', value: on, unit: 'reports/s', baseline: off, ratio: on / off },
      { name: `${name}: log off (baseline)`, metric: 'location reports/s (wall)', value: side.off.positions / side.off.wall, unit: 'reports/s' },
      { name: `${name}: log on`, metric: 'location reports/s (wall)', value: side.on.positions / side.on.wall, unit: 'reports/s', baseline: side.off.positions / side.off.wall, ratio: (side.on.positions / side.on.wall) / (side.off.positions / side.off.wall) },
      { name: `${name}: log on`, metric: 'frames logged/s (both ways)', value: logged / side.on.wall, unit: 'frames/s' },
      { name: `${name}: log on`, metric: 'writer thread busy per 1,000 frames', value: logged > 0 ? (writerMs / logged) * 1000 : 0, unit: 'ms' },
      { name: `${name}: log on`, metric: 'frames dropped (batch full)', value: log.dropped, unit: 'frames' },
      { name: `${name}: log on`, metric: 'last flush (what waited at stop)', value: lastFlushMs, unit: 'ms' },
    ];
  } finally {
    child?.kill();
    await live.stop();
    await log.close();
    storage.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function waitFor<T extends ChildMessage['type']>(child: ChildProcess, type: T): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: ChildMessage) => {
      if (m.type !== type) return;
      child.off('message', onMessage);
      resolve(m as Extract<ChildMessage, { type: T }>);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`load child exited (${code}) before '${type}'`)));
  });
}
