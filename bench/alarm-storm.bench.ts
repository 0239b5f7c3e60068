/**
 * Alarm storm (issue 5): 5,000 alarms per second from real JT/T 808 terminals over TCP for 60 s into a
 * real server (buildApp: gateway → alarm engine → SQLite → push hub), one console websocket decoding
 * every push message. Reports, per phase:
 * - latency from the terminal's frame (written to its socket) to the consumer's decoded alarm message,
 *   p50 / p95 / p99 (sender and consumer share a child process and its clock; see load/alarm-storm-load.ts);
 * - lost: alarms sent − alarms stored, alarms sent − distinct alarms delivered (both should read 0);
 * - the server process's CPU (the load runs in the child, so this process is the server alone).
 * The server phase runs twice: first a same-run baseline with the hub's alarm corking on (one writev
 * per console per stored batch, PushOptions.corkAlarms), then ours, the default (corking off: one
 * socket write per alarm message); ratios are baseline / ours.
 * Then the console: Chromium (bench/browser-page.ts) opens bench/alarm-storm/ against the same server
 * during two more storm phases and a trace sums the renderer main thread's busy time per second:
 * our path (the stream worker holds the socket and the alarm lists, the main thread renders a list
 * snapshot at ≤ 4 Hz) against the naive baseline (socket and decoding on the main thread, lists kept
 * in React state, one state update per alarm message).
 * Why every alarm is distinct (no 30-minute merge): load/alarm-storm-load.ts.
 * Full: 5,000 alarms/s for 60 s, console phases 20 s each; `--quick`: 1,000/s for 5 s, console phases 4 s.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { ALL_COMPANIES } from '../server/db/scope.ts';
import { endTrace, openBenchPage } from './browser-page.ts';
import { login, percentile } from './load/common.ts';
import { matchStorm, STEPS, type ConsumerResult, type SenderResult, type StormFigures as StormMatch, type StormPhase } from './load/alarm-storm-load.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const HOUR = 3_600_000;

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * Busy time of the page's renderer main thread: every top-level task (RunTask) on the
 * CrRendererMain thread that ran the most, by thread time (tdur; time blocked on other processes excluded).
 */
export function mainThreadBusy(events: readonly TraceEvent[]): number {
  const mains = new Set<string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain') mains.add(`${e.pid}:${e.tid}`);
  const busy = new Map<string, number>();
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X') continue;
    const k = `${e.pid}:${e.tid}`;
    if (mains.has(k)) busy.set(k, (busy.get(k) ?? 0) + (e.tdur ?? e.dur ?? 0) / 1000);
  }
  return Math.max(0, ...busy.values());
}

type ChildReply =
  | { type: 'ready'; loginMs: number; failed: number }
  | { type: 'reset' }
  | { type: 'sent'; result: SenderResult }
  | { type: 'count'; count: number }
  | { type: 'taken'; result: ConsumerResult }
  | { type: 'error'; message: string };

function ask<T extends ChildReply['type']>(child: ChildProcess, msg: object, type: T): Promise<Extract<ChildReply, { type: T }>> {
  return new Promise((resolve, reject) => {
    const done = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`storm child exited (${code}) before '${type}'`));
    };
    const onMessage = (m: ChildReply) => {
      if (m.type === 'error') {
        done();
        reject(new Error(m.message));
      } else if (m.type === type) {
        done();
        resolve(m as Extract<ChildReply, { type: T }>);
      }
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(msg);
  });
}

export interface StormFigures {
  rate: number;
  seconds: number;
  vehicles: number;
  result: StormMatch;
  stored: number;
  serverCpuPercent: number;
  storeFailures: number;
}

export interface ConsoleFigures {
  mode: 'pipeline' | 'baseline';
  busyMsPerSecond: number;
  alarmsSeen: number;
  renders: number;
  result: StormMatch;
}

export async function measureStorm(rate: number, seconds: number, consoleSeconds: number): Promise<{ storm: StormFigures; baseline: StormFigures; consoles: ConsoleFigures[] }> {
  const alarms = rate * seconds;
  const vehicles = Math.ceil(alarms / STEPS.length);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-alarm-storm-'));
  const config = loadConfig({}, {
    dataDir, port: 0, host: '127.0.0.1', gatewayPort: 0, gatewayHost: '127.0.0.1', logLevel: 'warn', seedVehicles: vehicles,
    seedFleetsPerBranch: 4, autoRegister: false, consoleDir: path.join(dataDir, 'no-console'),
  });
  const app = await buildApp(config);
  const children: ChildProcess[] = [];
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const gatewayPort = await app.live.gateway.listen(0, '127.0.0.1');
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const base = `http://127.0.0.1:${address.port}`;
    const pushUrl = `ws://127.0.0.1:${address.port}/ws-service/websocket`;
    const token = await login(base, 'admin', 'admin123');
    const devices = (await app.storage.terminals.allVehicles()).map((v) => v.deviceNo);
    const spawn = (role: 'sender' | 'consumer') => fork(fileURLToPath(new URL('./load/alarm-storm-load.ts', import.meta.url)), ['--child', role], {
      execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced',
    });
    const sender = spawn('sender');
    const consumer = spawn('consumer');
    children.push(sender, consumer);
    await ask(consumer, { cmd: 'connect', pushUrl, token }, 'ready');
    const ready = await ask(sender, { cmd: 'connect', gatewayPort, devices }, 'ready');
    process.stdout.write(`  ${devices.length - ready.failed} terminals signed in in ${(ready.loginMs / 1000).toFixed(1)} s (${ready.failed} failed)\n`);

    // Phases an hour of GPS time apart (past the 30-minute window), the last one an hour before now.
    const now = Math.floor(Date.now() / 1000) * 1000;
    const phaseBase = (k: number) => now - (4 - k) * HOUR;
    const runPhase = async (k: number, phaseSeconds: number): Promise<StormMatch> => {
      await ask(sender, { cmd: 'reset', gpsBase: phaseBase(k) }, 'reset');
      await app.alarms.idle();
      await ask(consumer, { cmd: 'take' }, 'taken');
      const phase: StormPhase = { cmd: 'phase', rate, seconds: phaseSeconds, gpsBase: phaseBase(k) };
      const sent = (await ask(sender, phase, 'sent')).result;
      // Drain: until everything arrived, or nothing new for 10 s.
      let last = -1;
      let quietSince = performance.now();
      for (;;) {
        const { count } = await ask(consumer, { cmd: 'count' }, 'count');
        if (count >= sent.sent || performance.now() - quietSince > 10_000) break;
        if (count !== last) {
          last = count;
          quietSince = performance.now();
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      await new Promise((r) => setTimeout(r, 300)); // late duplicates or strays
      return matchStorm(sent, (await ask(consumer, { cmd: 'take' }, 'taken')).result);
    };
    const storedIn = async (k: number) => {
      await app.alarms.idle();
      return (await app.storage.alarms.query(ALL_COMPANIES, { startTime: phaseBase(k) + 1, endTime: phaseBase(k) + HOUR / 2 }, 0, 0)).total;
    };

    const serverPhase = async (k: number, corkAlarms: boolean): Promise<StormFigures> => {
      app.push.setOptions({ corkAlarms });
      const failed0 = app.alarms.stats.failed;
      const cpu0 = process.cpuUsage();
      const wall0 = performance.now();
      const result = await runPhase(k, seconds);
      const cpu = process.cpuUsage(cpu0);
      const wallMs = performance.now() - wall0;
      return {
        rate, seconds, vehicles: devices.length - ready.failed, result, stored: await storedIn(k),
        serverCpuPercent: ((cpu.user + cpu.system) / 1000 / wallMs) * 100, storeFailures: app.alarms.stats.failed - failed0,
      };
    };
    // Same-run baseline for the hub: corking on (the alternative that stop 9 measured), then ours (off).
    const baseline = await serverPhase(0, true);
    const storm = await serverPhase(1, false);

    const consoles: ConsoleFigures[] = [];
    const page = consoleSeconds > 0 ? await openBenchPage('alarm-storm') : undefined;
    if (page) try {
      for (const [i, mode] of (['pipeline', 'baseline'] as const).entries()) {
        const tab = await page.context.newPage();
        await tab.goto(page.url);
        await tab.waitForFunction(() => document.title === 'ready');
        await tab.evaluate((o) => (window as unknown as { startStorm(o: unknown): Promise<void> }).startStorm(o), { mode, url: pushUrl, token });
        const cdp = await page.context.newCDPSession(tab);
        await cdp.send('Tracing.start', { categories: 'toplevel,disabled-by-default-devtools.timeline', transferMode: 'ReturnAsStream' });
        const t0 = performance.now();
        const phase = await runPhase(2 + i, consoleSeconds);
        const traced = (performance.now() - t0) / 1000;
        const events = await endTrace<TraceEvent>(cdp);
        const inPage = await tab.evaluate(() => (window as unknown as { stopStorm(): { alarms: number; renders: number } }).stopStorm());
        const busy = mainThreadBusy(events);
        consoles.push({ mode, busyMsPerSecond: busy / traced, alarmsSeen: inPage.alarms, renders: inPage.renders, result: phase });
        await tab.close();
      }
    } finally {
      await page.close();
    }
    return { storm, baseline, consoles };
  } finally {
    for (const c of children) c.kill();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const { storm, baseline, consoles } = quick ? await measureStorm(1000, 5, 4) : await measureStorm(5000, 60, 20);
  const r = storm.result;
  const lat = [...r.latencies].sort((a, b) => a - b);
  // createTime is the server's clock when it stored the alarm (epoch ms, same machine).
  const stored = [...r.toStored].sort((a, b) => a - b);
  const baseLat = [...baseline.result.latencies].sort((a, b) => a - b);
  const vs = (value: number, base: number) => ({ value, baseline: base, ratio: base / value });
  const name = `alarm storm ${storm.rate.toLocaleString('en-US')}/s × ${storm.seconds} s, ${storm.vehicles.toLocaleString('en-US')} terminals`;
  const records: BenchRecord[] = [
    { name, metric: 'alarms sent', value: r.sent, unit: 'alarms' },
    { name, metric: 'send rate achieved', value: r.sent / r.sendSeconds, unit: 'alarms/s', baseline: storm.rate, ratio: r.sent / r.sendSeconds / storm.rate },
    { name, metric: 'reports acknowledged', value: r.acked, unit: 'reports' },
    { name, metric: 'alarms stored', value: storm.stored, unit: 'alarms' },
    { name, metric: 'lost (sent − stored)', value: r.sent - storm.stored, unit: 'alarms' },
    { name, metric: 'lost (sent − delivered)', value: r.sent - r.delivered, unit: 'alarms' },
    { name, metric: 'duplicates / strays', value: r.duplicates + r.unexpected, unit: 'messages' },
    { name, metric: 'consumer closed by server', value: r.closedWith ?? 0, unit: 'close code (0: no)' },
    { name, metric: 'frame → decoded push p50', ...vs(percentile(lat, 50), percentile(baseLat, 50)), unit: 'ms' },
    { name, metric: 'frame → decoded push p95', ...vs(percentile(lat, 95), percentile(baseLat, 95)), unit: 'ms' },
    { name, metric: 'frame → decoded push p99', ...vs(percentile(lat, 99), percentile(baseLat, 99)), unit: 'ms' },
    { name, metric: 'frame → stored p50', value: percentile(stored, 50), unit: 'ms' },
    { name, metric: 'frame → stored p99', value: percentile(stored, 99), unit: 'ms' },
    { name, metric: 'server CPU', ...vs(storm.serverCpuPercent, baseline.serverCpuPercent), unit: '% of a core' },
    { name, metric: 'lost in baseline phase', value: baseline.result.sent - baseline.stored + baseline.result.sent - baseline.result.delivered, unit: 'alarms' },
    { name, metric: 'store failures', value: storm.storeFailures, unit: 'events' },
  ];
  const ours = consoles.find((c) => c.mode === 'pipeline');
  const base = consoles.find((c) => c.mode === 'baseline');
  if (ours && base) {
    const cname = `alarm storm console, ${storm.rate.toLocaleString('en-US')}/s in Chromium`;
    records.push(
      { name: cname, metric: 'main thread busy', value: ours.busyMsPerSecond, unit: 'ms/s', baseline: base.busyMsPerSecond, ratio: base.busyMsPerSecond / ours.busyMsPerSecond },
      { name: cname, metric: 'alarms reaching the page', value: ours.alarmsSeen, unit: 'alarms', baseline: base.alarmsSeen },
      { name: cname, metric: 'list renders', value: ours.renders, unit: 'renders', baseline: base.renders },
      { name: cname, metric: 'lost in console phases', value: ours.result.sent - ours.result.delivered + base.result.sent - base.result.delivered, unit: 'alarms' },
    );
  }
  return records;
}
