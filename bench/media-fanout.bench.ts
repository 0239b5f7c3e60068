/**
 * Media server CPU per channel-viewer (issue 6): simulated terminals (server/sim in a child process)
 * stream the committed 640x360 / 25 fps H.264 clip over the real JT/T 1078 media port into a real
 * server (buildApp: gateway, MediaPort, MediaHub, the viewer websocket route); websocket viewers in
 * another child process watch C channels with M viewers each. This process is the server alone, so
 * `process.cpuUsage` over a window, minus the same window with no video (positions, heartbeats), is
 * the media path's CPU.
 * Baseline (same process, same viewer count): no shared upstream, i.e. C × M channels with one viewer
 * each (each viewer's frames come up from the terminal on their own stream), what a relay without the
 * hub's fan-out costs. Ratio = baseline CPU / fan-out CPU.
 * Full: C = 4, M = 1, 4, 16 (baseline up to 64 upstreams), 8 s windows; `--quick`: C = 2, M = 1, 4, 3 s.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { spawnSimulatorProcess, type SimulatorProcess } from '../server/sim/index.ts';
import { login } from './load/common.ts';
import type { ViewerCounts } from './load/video-viewers.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const CAMERAS = 4;

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function ask(child: ChildProcess, msg: object): Promise<ViewerCounts> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`viewers child exited (${code})`));
    child.once('message', (m: { counts: ViewerCounts }) => {
      child.off('exit', onExit);
      resolve(m.counts);
    });
    child.once('exit', onExit);
    child.send(msg);
  });
}

export interface FanoutCase {
  channels: number;
  viewersPerChannel: number;
  /** Media CPU (above idle), ms per second. */
  cpuMsPerSecond: number;
  framesOutPerSecond: number;
  bytesOutPerSecond: number;
  upstreamFramesPerSecond: number;
  playing: number;
}

export async function measureMediaFanout(channels: number, viewerCounts: readonly number[], windowS: number): Promise<{ idleMsPerSecond: number; fanout: FanoutCase[]; baseline: FanoutCase[] }> {
  const maxUpstreams = channels * Math.max(...viewerCounts);
  const terminalsNeeded = Math.ceil(maxUpstreams / CAMERAS);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-media-fanout-'));
  const config = loadConfig({}, {
    dataDir, port: 0, host: '127.0.0.1', gatewayPort: 0, gatewayHost: '127.0.0.1', mediaPort: 0, mediaPublicHost: '127.0.0.1', logLevel: 'warn',
    seedVehicles: terminalsNeeded * 2 + 10, seedFleetsPerBranch: 2, autoRegister: false, videoDailyLimit: 1_000_000,
    consoleDir: path.join(dataDir, 'no-console'),
  });
  const app = await buildApp(config);
  let sim: SimulatorProcess | undefined;
  let viewers: ChildProcess | undefined;
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const gatewayPort = await app.live.gateway.listen(0, '127.0.0.1');
    await app.media.listen(0, '127.0.0.1');
    const { port } = app.server.address() as { port: number };
    const token = await login(`http://127.0.0.1:${port}`, 'admin', 'admin123');
    // Twice the terminals needed: a few simulated vehicles never come online (DEFAULT_RATES).
    sim = spawnSimulatorProcess({ port: gatewayPort, vehicles: terminalsNeeded * 2 + 4, dataDir, rateHz: 0.1, seed: 3 });
    await sim.ready;
    const all = await app.storage.terminals.allVehicles();
    let online: number[] = [];
    for (let i = 0; i < 100 && online.length < terminalsNeeded; i++) {
      await sleep(100);
      online = all.map((v) => v.vehicleId).filter((id) => app.live.gateway.isReachable(id));
    }
    if (online.length < terminalsNeeded) throw new Error(`only ${online.length} of ${terminalsNeeded} simulated terminals came online`);
    const proc = fork(fileURLToPath(new URL('./load/video-viewers.ts', import.meta.url)), ['--child'], {
      execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    viewers = proc;
    const url = (vehicleId: number, channel: number) => `ws://127.0.0.1:${port}/ws-service/video?token=${encodeURIComponent(token)}&vehicleId=${vehicleId}&channel=${channel}&stream=0`;

    const window = async (): Promise<{ cpuMs: number; seconds: number; framesIn: number }> => {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const in0 = app.media.hub.stats.framesIn;
      await sleep(windowS * 1000);
      const cpu = process.cpuUsage(cpu0);
      return { cpuMs: (cpu.user + cpu.system) / 1000, seconds: (performance.now() - t0) / 1000, framesIn: app.media.hub.stats.framesIn - in0 };
    };
    const idle = await window();
    const idleMsPerSecond = idle.cpuMs / idle.seconds;

    /** `upstreams` channels (terminal × camera), `perChannel` viewers on each. */
    const runCase = async (upstreams: number, perChannel: number): Promise<FanoutCase> => {
      const urls: string[] = [];
      for (let c = 0; c < upstreams; c++) for (let v = 0; v < perChannel; v++) urls.push(url(online[Math.floor(c / CAMERAS)]!, 1 + (c % CAMERAS)));
      await ask(proc, { cmd: 'open', urls });
      let counts: ViewerCounts | undefined;
      for (let i = 0; i < 150; i++) {
        await sleep(100);
        counts = await ask(proc, { cmd: 'status' });
        if (counts.playing === urls.length) break;
      }
      await sleep(1000); // past the GOP bursts of the joins
      await ask(proc, { cmd: 'start' });
      const w = await window();
      const got = await ask(proc, { cmd: 'stop' });
      await ask(proc, { cmd: 'close' });
      for (let i = 0; i < 50 && app.media.hub.stats.channels > 0; i++) await sleep(100);
      await sleep(500);
      return {
        channels: upstreams, viewersPerChannel: perChannel, cpuMsPerSecond: Math.max(0, w.cpuMs / w.seconds - idleMsPerSecond),
        framesOutPerSecond: got.frames / w.seconds, bytesOutPerSecond: got.bytes / w.seconds, upstreamFramesPerSecond: w.framesIn / w.seconds,
        playing: counts?.playing ?? 0,
      };
    };
    const fanout: FanoutCase[] = [];
    const baseline: FanoutCase[] = [];
    for (const m of viewerCounts) {
      fanout.push(await runCase(channels, m));
      if (m > 1) baseline.push(await runCase(channels * m, 1));
    }
    return { idleMsPerSecond, fanout, baseline };
  } finally {
    viewers?.kill();
    await sim?.stop();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const r = quick ? await measureMediaFanout(2, [1, 4], 3) : await measureMediaFanout(4, [1, 4, 16], 8);
  const records: BenchRecord[] = [{ name: 'media fan-out', metric: 'server CPU without video', value: r.idleMsPerSecond, unit: 'ms/s' }];
  for (const f of r.fanout) {
    const viewers = f.channels * f.viewersPerChannel;
    const name = `media fan-out ${f.channels} ch × ${f.viewersPerChannel} viewers (640x360)`;
    const b = r.baseline.find((x) => x.channels === viewers);
    const perViewer = f.cpuMsPerSecond / viewers;
    records.push(
      { name, metric: 'media CPU', value: f.cpuMsPerSecond, unit: 'ms/s', ...(b ? { baseline: b.cpuMsPerSecond, ratio: b.cpuMsPerSecond / f.cpuMsPerSecond } : {}) },
      { name, metric: 'CPU per channel-viewer', value: perViewer, unit: 'ms/s', ...(b ? { baseline: b.cpuMsPerSecond / viewers, ratio: b.cpuMsPerSecond / f.cpuMsPerSecond } : {}) },
      { name, metric: 'CPU per channel', value: f.cpuMsPerSecond / f.channels, unit: 'ms/s' },
      { name, metric: 'frames to viewers', value: f.framesOutPerSecond, unit: 'frames/s', ...(b ? { baseline: b.framesOutPerSecond } : {}) },
      { name, metric: 'bytes to viewers', value: f.bytesOutPerSecond, unit: 'B/s' },
      { name, metric: 'CPU per MB forwarded', value: f.cpuMsPerSecond / (f.bytesOutPerSecond / 1e6), unit: 'ms/MB', ...(b ? { baseline: b.cpuMsPerSecond / (b.bytesOutPerSecond / 1e6), ratio: (b.cpuMsPerSecond / (b.bytesOutPerSecond / 1e6)) / (f.cpuMsPerSecond / (f.bytesOutPerSecond / 1e6)) } : {}) },
      { name, metric: 'upstream frames in', value: f.upstreamFramesPerSecond, unit: 'frames/s', ...(b ? { baseline: b.upstreamFramesPerSecond } : {}) },
      { name, metric: 'viewers playing', value: f.playing, unit: 'viewers', ...(b ? { baseline: b.playing } : {}) },
    );
  }
  return records;
}
