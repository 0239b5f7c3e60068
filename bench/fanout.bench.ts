/**
 * fan-out: N vehicles reporting at 1 Hz into the live store of a real server (buildApp, loopback),
 * pushed to M console connections held by a child process that decodes every frame.
 * Reports server CPU (the whole server process, the in-process feeder reported apart), bytes per
 * client per second, and latency from a position's arrival at the store to a client's decoded frame.
 * Full: 100,000 vehicles, 50 connections, 20 s; `--quick`: 2,000 vehicles, 5 connections, 6 s.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { login, percentile, wallNow } from './load/common.ts';
import type { PushClientsOptions, PushClientsResult } from './load/push-clients.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

export interface FanoutResult {
  vehicles: number;
  clients: number;
  seconds: number;
  serverCpuPercent: number;
  feederCpuPercent: number;
  bytesPerClientPerSecond: number;
  positionsPerClientPerSecond: number;
  /** Positions the feeder actually put into the store per second (timer delays make it < vehicles). */
  fedPerSecond: number;
  p50: number;
  p99: number;
  samples: number;
  clientErrors: number;
  clientsClosed: number;
}

// 10 ms steps: arrivals spread over the hub's 50 ms tick instead of landing in phase with it.
const TICKS_PER_SECOND = 100;

export async function measureFanout(vehicles: number, clients: number, seconds: number, tickMs?: number): Promise<FanoutResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-fanout-'));
  const config = loadConfig({}, {
    dataDir, port: 0, host: '127.0.0.1', logLevel: 'warn', seedVehicles: vehicles, consoleDir: path.join(dataDir, 'no-console'),
  });
  const app = await buildApp(config);
  let child: ChildProcess | undefined;
  let feeder: ReturnType<typeof setInterval> | undefined;
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const base = `http://127.0.0.1:${address.port}`;
    const token = await login(base, 'admin', 'admin123');
    const store = app.live.store;
    const count = store.count;
    if (tickMs !== undefined) app.push.setOptions({ tickMs });

    // Feeder: every 10 ms one hundredth of the fleet reports, so each vehicle reports once a second.
    const baseSec = Math.floor(Date.now() / 1000) - 3600;
    const sampleEvery = Math.max(1, Math.floor(count / 100));
    const arrivals = new Map<number, number>();
    let round = 0;
    let phase = 0;
    let feederMs = 0;
    let fed = 0;
    const feed = () => {
      const t0 = performance.now();
      const ids = store.columns.vehicleId;
      for (let slot = phase; slot < count; slot += TICKS_PER_SECOND) {
        const id = ids[slot]!;
        const r = round;
        const ok = store.applyPosition({
          vehicleId: id, lng: 100 + (slot % 1000) / 50 + r * 1e-4, lat: 25 + Math.floor(slot / 1000) / 100, speed: 40 + (slot % 60),
          heading: (slot * 7) % 360, altitude: 20, statusFlags: 3, alarmFlags: 0, gpsTime: (baseSec + r) * 1000,
        });
        if (ok) fed++;
        if (ok && id % sampleEvery === 0) arrivals.set(id * 1e6 + r, wallNow());
      }
      phase++;
      if (phase === TICKS_PER_SECOND) {
        phase = 0;
        round++;
      }
      feederMs += performance.now() - t0;
    };

    const opts: PushClientsOptions = { url: `ws://127.0.0.1:${address.port}/ws-service/websocket`, token, clients, sampleEvery };
    const proc = fork(fileURLToPath(new URL('./load/push-clients.ts', import.meta.url)), ['--child', JSON.stringify(opts)], {
      execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced',
    });
    child = proc;
    const next = (type: string) => new Promise<{ type: string; result?: PushClientsResult; message?: string }>((resolve, reject) => {
      const onMessage = (m: { type: string; result?: PushClientsResult; message?: string }) => {
        if (m.type === 'error') reject(new Error(m.message));
        else if (m.type === type) {
          proc.off('message', onMessage);
          resolve(m);
        }
      };
      proc.on('message', onMessage);
      proc.once('exit', (code) => reject(new Error(`push clients exited with ${code}`)));
    });
    await next('ready');
    feeder = setInterval(feed, 1000 / TICKS_PER_SECOND);
    // Warm-up: two full rounds so every vehicle has a previous send.
    await new Promise((r) => setTimeout(r, 2500));
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    const feeder0 = feederMs;
    const fed0 = fed;
    proc.send({ cmd: 'start' });
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const stopped = next('result');
    proc.send({ cmd: 'stop' });
    const cpu = process.cpuUsage(cpu0);
    const wallMs = performance.now() - wall0;
    const feederSpent = feederMs - feeder0;
    const fedInWindow = fed - fed0;
    const result = (await stopped).result!;
    clearInterval(feeder);
    feeder = undefined;

    const latencies: number[] = [];
    for (const [id, gpsSec, decodedAt] of result.samples) {
      const arrived = arrivals.get(id * 1e6 + (gpsSec - baseSec));
      if (arrived !== undefined) latencies.push(decodedAt - arrived);
    }
    latencies.sort((a, b) => a - b);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    return {
      vehicles: count, clients, seconds: result.seconds,
      serverCpuPercent: ((cpuMs - feederSpent) / wallMs) * 100,
      feederCpuPercent: (feederSpent / wallMs) * 100,
      bytesPerClientPerSecond: result.bytes / clients / result.seconds,
      positionsPerClientPerSecond: result.positions / clients / result.seconds,
      fedPerSecond: fedInWindow / (wallMs / 1000),
      p50: percentile(latencies, 50), p99: percentile(latencies, 99), samples: latencies.length,
      clientErrors: result.errors, clientsClosed: result.closed,
    };
  } finally {
    if (feeder) clearInterval(feeder);
    child?.kill();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const r = quick ? await measureFanout(2_000, 5, 6) : await measureFanout(100_000, 50, 20);
  const name = `fanout ${r.vehicles / 1000}k vehicles → ${r.clients} consoles`;
  return [
    { name, metric: 'server CPU (excl. feeder)', value: r.serverCpuPercent, unit: '% of a core' },
    { name, metric: 'feeder CPU', value: r.feederCpuPercent, unit: '% of a core' },
    { name, metric: 'bytes per client', value: r.bytesPerClientPerSecond, unit: 'B/s' },
    { name, metric: 'positions fed to the store', value: r.fedPerSecond, unit: 'pos/s' },
    { name, metric: 'positions per client', value: r.positionsPerClientPerSecond, unit: 'pos/s' },
    { name, metric: 'latency p50', value: r.p50, unit: 'ms' },
    { name, metric: 'latency p99', value: r.p99, unit: 'ms' },
    { name, metric: 'latency samples', value: r.samples, unit: 'count' },
    { name, metric: 'client decode errors', value: r.clientErrors, unit: 'count' },
  ];
}
