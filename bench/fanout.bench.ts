/**
 * fan-out, two figures (issue 16: name what is timed):
 * - "store → console": N vehicles' positions put straight into the live store of a real server
 *   (buildApp, loopback) at 1 Hz each, pushed to M console connections held by a child process that
 *   decodes every frame. It skips TCP, JT/T 808 decoding and the history write: it times the push hub
 *   alone. Reports server CPU (the in-process feeder reported apart), bytes per client per second,
 *   and latency from a position's arrival at the store to a client's decoded frame.
 *   Full: 100,000 vehicles, 50 connections, 20 s; `--quick`: 2,000 vehicles, 5 connections, 6 s.
 * - "terminal → console": the same server, but the positions come from real JT/T 808 terminals over
 *   TCP (a child process, load/fanout-terminals.ts: one 0x0200 a second each) through the gateway
 *   (frame split, 808 decode, history write, live store, acknowledgement) to the push and the decoding
 *   consoles. Latency is from the report written to the terminal's socket to the console's decoded
 *   frame; the terminals and the consoles each run in their own process, so the server process's CPU
 *   is the server's alone. Full: 19,000 terminals (one process's descriptor limit is 20,000), 50
 *   connections, 20 s; `--quick`: 2,000 terminals, 5 connections, 6 s.
 * No peer baseline runs here: the goal (p99 ≤ 250 ms, spec) is the yardstick. A Traccar-style server
 * sends each position as its own JSON message per session; our bytes per position are compared
 * against JSON in bench/decode.bench.ts and proto/README.md.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { frameToDecoded, login, nextMessage as nextChildMessage, percentile, wallNow } from './load/common.ts';
import type { FanoutTerminalsStart } from './load/fanout-terminals.ts';
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

type ChildMessage = { type: string; result?: PushClientsResult; message?: string; loginMs?: number; failed?: number; sent?: number; sentAt?: [number, number, number][] };

const nextMessage = (proc: ChildProcess, type: string) => nextChildMessage<ChildMessage>(proc, type);

export interface GatewayFanoutResult extends Omit<FanoutResult, 'feederCpuPercent'> {
  /** Terminals that failed to sign in. */
  loginFailed: number;
  /** Reports written by the terminals per second in the window. */
  sentPerSecond: number;
}

/** Terminals over TCP → gateway → live store → push hub → decoding consoles (see the header). */
export async function measureFanoutGateway(vehicles: number, clients: number, seconds: number): Promise<GatewayFanoutResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-fanout-gw-'));
  const config = loadConfig({}, {
    dataDir, port: 0, host: '127.0.0.1', gatewayPort: 0, gatewayHost: '127.0.0.1', logLevel: 'warn', seedVehicles: vehicles,
    autoRegister: false, consoleDir: path.join(dataDir, 'no-console'),
  });
  const app = await buildApp(config);
  const children: ChildProcess[] = [];
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const gatewayPort = await app.live.gateway.listen(0, '127.0.0.1');
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const token = await login(`http://127.0.0.1:${address.port}`, 'admin', 'admin123');
    const rows = await app.storage.terminals.allVehicles();
    const sampleEvery = Math.max(1, Math.floor(rows.length / 100));
    const baseSec = Math.floor(Date.now() / 1000) - 5;
    const spawn = (file: string, args: string[]) => {
      const proc = fork(fileURLToPath(new URL(file, import.meta.url)), args, {
        execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced',
      });
      children.push(proc);
      return proc;
    };
    const terminals = spawn('./load/fanout-terminals.ts', ['--child']);
    const signedIn = nextMessage(terminals, 'ready');
    terminals.send({ cmd: 'connect', gatewayPort, vehicles: rows.map((r) => [r.deviceNo, r.vehicleId]), sampleEvery, baseSec } satisfies FanoutTerminalsStart);
    const ready = await signedIn;
    process.stdout.write(`  ${rows.length - (ready.failed ?? 0)} terminals signed in in ${((ready.loginMs ?? 0) / 1000).toFixed(1)} s\n`);
    const opts: PushClientsOptions = { url: `ws://127.0.0.1:${address.port}/ws-service/websocket`, token, clients, sampleEvery };
    const consoles = spawn('./load/push-clients.ts', ['--child', JSON.stringify(opts)]);
    await nextMessage(consoles, 'ready');
    const started = nextMessage(terminals, 'started');
    terminals.send({ cmd: 'start' });
    await started;
    // Warm-up: two full rounds so every vehicle has a previous send.
    await new Promise((r) => setTimeout(r, 2500));
    const recording = nextMessage(terminals, 'recording');
    terminals.send({ cmd: 'record' });
    await recording;
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    consoles.send({ cmd: 'start' });
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const sentP = nextMessage(terminals, 'result');
    terminals.send({ cmd: 'stop' });
    const cpu = process.cpuUsage(cpu0);
    const wallMs = performance.now() - wall0;
    const sent = await sentP;
    // Reports still in flight reach the consoles within the latency window: wait before stopping them.
    await new Promise((r) => setTimeout(r, 1500));
    const decodedP = nextMessage(consoles, 'result');
    consoles.send({ cmd: 'stop' });
    const result = (await decodedP).result!;

    const latencies = frameToDecoded(sent.sentAt!, result.samples, baseSec);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    return {
      vehicles: rows.length, clients, seconds: result.seconds, loginFailed: ready.failed ?? 0,
      serverCpuPercent: (cpuMs / wallMs) * 100,
      bytesPerClientPerSecond: result.bytes / clients / result.seconds,
      positionsPerClientPerSecond: result.positions / clients / result.seconds,
      sentPerSecond: (sent.sent ?? 0) / (wallMs / 1000),
      fedPerSecond: (sent.sent ?? 0) / (wallMs / 1000),
      p50: percentile(latencies, 50), p99: percentile(latencies, 99), samples: latencies.length,
      clientErrors: result.errors, clientsClosed: result.closed,
    };
  } finally {
    for (const c of children) c.kill();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const r = quick ? await measureFanout(2_000, 5, 6) : await measureFanout(100_000, 50, 20);
  const name = `fanout store → console, ${r.vehicles / 1000}k vehicles → ${r.clients} consoles`;
  const g = quick ? await measureFanoutGateway(2_000, 5, 6) : await measureFanoutGateway(19_000, 50, 20);
  const gname = `fanout terminal → console via gateway, ${g.vehicles / 1000}k terminals → ${g.clients} consoles`;
  return [
    { name, metric: 'server CPU (excl. feeder)', value: r.serverCpuPercent, unit: '% of a core' },
    { name, metric: 'feeder CPU', value: r.feederCpuPercent, unit: '% of a core' },
    { name, metric: 'bytes per client', value: r.bytesPerClientPerSecond, unit: 'B/s' },
    { name, metric: 'positions fed to the store', value: r.fedPerSecond, unit: 'pos/s' },
    { name, metric: 'positions per client', value: r.positionsPerClientPerSecond, unit: 'pos/s' },
    { name, metric: 'store → decoded p50', value: r.p50, unit: 'ms' },
    { name, metric: 'store → decoded p99', value: r.p99, unit: 'ms' },
    { name, metric: 'latency samples', value: r.samples, unit: 'count' },
    { name, metric: 'client decode errors', value: r.clientErrors, unit: 'count' },
    { name: gname, metric: 'server CPU (gateway + history + push)', value: g.serverCpuPercent, unit: '% of a core' },
    { name: gname, metric: 'reports written by terminals', value: g.sentPerSecond, unit: 'reports/s' },
    { name: gname, metric: 'positions per client', value: g.positionsPerClientPerSecond, unit: 'pos/s' },
    { name: gname, metric: 'bytes per client', value: g.bytesPerClientPerSecond, unit: 'B/s' },
    { name: gname, metric: 'frame → decoded p50', value: g.p50, unit: 'ms' },
    { name: gname, metric: 'frame → decoded p99 (goal ≤ 250)', value: g.p99, unit: 'ms' },
    { name: gname, metric: 'latency samples', value: g.samples, unit: 'count' },
    { name: gname, metric: 'terminals failed to sign in', value: g.loginFailed, unit: 'count' },
    { name: gname, metric: 'client decode errors', value: g.clientErrors, unit: 'count' },
  ];
}
