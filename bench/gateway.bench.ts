/**
 * Gateway throughput (issue 3): JT/T 808 location reports per second on one core.
 * 1. The codec alone (FrameSplitter + decodeFrame, and decodeFrame on its own) on the calling thread.
 * 2. A real gateway (store + batched SQLite history + 0x8001 acks) over loopback with many terminal
 *    connections. The terminals run in child processes (this file re-run with `--load-child`), so the
 *    measuring process is not also the load generator; the gateway's own CPU time gives
 *    "reports per CPU-second", the figure comparable with the one-core target of 50,000/s.
 * Baseline: the target (50,000 reports/s), so the ratio reads as "times the target".
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../server/config.ts';
import { openStorage } from '../server/db/open.ts';
import {
  decodeFrame,
  encodePacket,
  FrameSplitter,
  measureDecodeRate,
  MSG,
  type Jt808Message,
  type Jt808MessageInput,
} from '../server/gateway/jt808/index.ts';
import { createLiveRuntime } from '../server/live/runtime.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const TARGET = 50_000;
const here = fileURLToPath(import.meta.url);

interface ChildStart { type: 'start'; port: number; devices: string[]; window: number }
type ChildMessage = { type: 'ready'; loginMs: number; failed: number } | { type: 'stopped'; acks: number; delays: number[] };

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const records: BenchRecord[] = [];
  const minMs = quick ? 500 : 2000;
  const alone = measureDecodeRate({ withSplitter: false, minMs });
  const split = measureDecodeRate({ withSplitter: true, minMs });
  records.push(
    { name: 'gateway codec: decodeFrame', metric: 'location reports/s (1 core)', value: alone.perSecond, unit: 'reports/s', baseline: TARGET, ratio: alone.perSecond / TARGET },
    { name: 'gateway codec: splitter + decodeFrame', metric: 'location reports/s (1 core)', value: split.perSecond, unit: 'reports/s', baseline: TARGET, ratio: split.perSecond / TARGET },
  );
  // The hard file-descriptor limit of these machines is 20,000 per process: leave room for the database and pipes.
  const terminals = quick ? 1000 : 19_500;
  records.push(...(await loopback(terminals, quick ? 3000 : 10_000, quick ? 1 : 2)));
  return records;
}

async function loopback(terminals: number, measureMs: number, children: number): Promise<BenchRecord[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-gateway-bench-'));
  const config = loadConfig({}, { dataDir, logLevel: 'silent', seedVehicles: terminals, seedFleetsPerBranch: 4, autoRegister: false });
  const { storage } = await openStorage(config);
  const live = await createLiveRuntime(config, storage);
  const port = await live.gateway.listen(0, '127.0.0.1');
  const devices = (await storage.terminals.allVehicles()).map((v) => v.deviceNo);
  const procs: ChildProcess[] = [];
  try {
    const per = Math.ceil(devices.length / children);
    const ready: Promise<Extract<ChildMessage, { type: 'ready' }>>[] = [];
    for (let i = 0; i < children; i++) {
      const child = fork(here, ['--load-child'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      procs.push(child);
      ready.push(waitFor(child, 'ready'));
      child.send({ type: 'start', port, devices: devices.slice(i * per, (i + 1) * per), window: 8 } satisfies ChildStart);
    }
    const logins = await Promise.all(ready);
    const failed = logins.reduce((n, r) => n + r.failed, 0);
    const loginMs = Math.max(...logins.map((r) => r.loginMs));
    for (const child of procs) child.send({ type: 'go' });
    // Let the load ramp up before measuring.
    await sleep(Math.min(1000, measureMs / 3));
    const p0 = live.gateway.stats.positions;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await sleep(measureMs);
    const positions = live.gateway.stats.positions - p0;
    const cpu = process.cpuUsage(cpu0);
    const seconds = (performance.now() - t0) / 1000;
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const stopped = procs.map((c) => waitFor(c, 'stopped'));
    for (const child of procs) child.send({ type: 'stop' });
    // Ack delay: from writing a window of reports to its last 0x8001 (a sample per window, every child).
    const delays = (await Promise.all(stopped)).flatMap((s) => s.delays).sort((a, b) => a - b);
    const pct = (q: number) => delays.length === 0 ? NaN : delays[Math.min(delays.length - 1, Math.floor(q * delays.length))]!;
    const name = `gateway TCP loopback, ${terminals - failed} terminals`;
    const perCpu = positions / cpuSeconds;
    return [
      { name, metric: 'ack delay p50 (window sent → last ack)', value: pct(0.5), unit: 'ms' },
      { name, metric: 'ack delay p99 (window sent → last ack)', value: pct(0.99), unit: 'ms' },
      { name, metric: 'register+auth all terminals', value: loginMs / 1000, unit: 's' },
      { name, metric: 'location reports/s (wall)', value: positions / seconds, unit: 'reports/s' },
      { name, metric: 'reports per gateway CPU-second', value: perCpu, unit: 'reports/s', baseline: TARGET, ratio: perCpu / TARGET },
      { name, metric: 'gateway process CPU', value: (cpuSeconds / seconds) * 100, unit: '% of one core' },
      { name, metric: 'history rows written', value: live.history.stats.rowsWritten, unit: 'rows' },
    ];
  } finally {
    for (const child of procs) child.kill();
    await live.stop();
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

/**
 * The load generator (child process): connects every terminal, registers and authenticates it,
 * then keeps `window` location reports in flight per connection until told to stop. Acks are
 * counted by 0x7e delimiters (two per frame; escaping never leaves a 0x7e inside a frame).
 */
async function loadChild(): Promise<void> {
  const start = await new Promise<ChildStart>((resolve) => process.once('message', (m: ChildStart) => resolve(m)));
  let running = false;
  let acks = 0;
  // Window round trips (ms), a bounded sample: every 16th window of the run.
  const delays: number[] = [];
  let windows = 0;
  const t0 = performance.now();
  let failed = 0;
  const sockets: { socket: net.Socket; burst: () => Buffer }[] = [];
  const BATCH = 250;
  for (let i = 0; i < start.devices.length; i += BATCH) {
    const group = start.devices.slice(i, i + BATCH);
    const results = await Promise.all(group.map((d) => loginTerminal(start.port, d).catch(() => null)));
    for (const r of results) if (r) sockets.push(r); else failed++;
  }
  process.send!({ type: 'ready', loginMs: performance.now() - t0, failed });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  running = true;
  for (const s of sockets) {
    let flags = 0;
    let sentAt = performance.now();
    s.socket.removeAllListeners('data');
    s.socket.on('data', (chunk: Buffer) => {
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 0x7e) flags++;
      // A whole window answered: send the next one.
      while (flags >= start.window * 2) {
        flags -= start.window * 2;
        acks += start.window;
        if (running && (windows++ & 15) === 0 && delays.length < 200_000) delays.push(performance.now() - sentAt);
        sentAt = performance.now();
        if (running) s.socket.write(s.burst());
      }
    });
    s.socket.write(s.burst());
  }
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  running = false;
  process.send!({ type: 'stopped', acks, delays });
  for (const s of sockets) s.socket.destroy();
  setTimeout(() => process.exit(0), 100).unref();

  async function loginTerminal(port: number, deviceNo: string): Promise<{ socket: net.Socket; burst: () => Buffer }> {
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect({ port, host: '127.0.0.1' }, () => resolve(s));
      s.once('error', reject);
    });
    socket.setNoDelay(true);
    const splitter = new FrameSplitter();
    const waiting: ((m: Jt808Message) => void)[] = [];
    socket.on('data', (chunk: Buffer) => splitter.push(chunk, (frame) => {
      const r = decodeFrame(frame);
      if (r.kind === 'message') waiting.shift()?.(r.message);
    }));
    const ask = (message: Jt808MessageInput, serial: number) => new Promise<Jt808Message>((resolve) => {
      waiting.push(resolve);
      socket.write(encodePacket({ phone: deviceNo, serial }, message));
    });
    const reg = await ask({
      msgId: MSG.REGISTER, province: 31, city: 100, makerId: 'BENCH', model: 'B1', terminalId: 'B000001', plateColor: 0, plate: '',
    }, 1);
    if (reg.msgId !== MSG.REGISTER_RESPONSE || reg.result !== 0) throw new Error('register refused');
    const auth = await ask({ msgId: MSG.AUTHENTICATE, authCode: reg.authCode, imei: '', softwareVersion: '' }, 2);
    if (auth.msgId !== MSG.PLATFORM_RESPONSE || auth.result !== 0) throw new Error('authentication refused');
    const phone = deviceNo;
    // Every report its own GPS second, as a real terminal's (positions are unique per vehicle and time,
    // migration 53: repeating one time would measure skipped duplicates). From 5 minutes back, so the
    // quick run stays inside the gateway's future tolerance (10 min).
    let time = Math.floor(Date.now() / 1000) * 1000 - 300_000;
    const burst = () => {
      const frames: Uint8Array[] = [];
      for (let k = 0; k < start.window; k++) {
        frames.push(encodePacket({ phone, serial: 10 + k }, {
          msgId: MSG.LOCATION, alarm: 0, status: 3, lat: 31.2 + k / 1e4, lng: 121.4, altitude: 10, speed: 40 + k, direction: 90, time: (time += 1000),
          mileage: 1234.5, fuel: 50, signal: 25, satellites: 12,
        }));
      }
      return Buffer.concat(frames);
    };
    return { socket, burst };
  }
}

if (process.argv.includes('--load-child')) void loadChild();
