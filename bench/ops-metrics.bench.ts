/**
 * What the Prometheus metrics (issue 20, server/ops/metrics.ts) cost the gateway: the gateway bench's
 * loopback load (terminals in child processes: bench/gateway.bench.ts `--load-child`, window of 8 reports)
 * against one gateway, measured in windows ordered A B B A — without metrics attached (A), or with the
 * registry attached (flush observer on) and scraped once a second (Prometheus scrapes every 15 s by
 * default, so this is 15× the usual scrape load). Figure: reports per gateway CPU-second.
 * Baseline: the same gateway, same process and load, windows without metrics (A B B A, so drift from
 * the shared machine and the growing database falls on both alike).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../server/config.ts';
import { openStorage } from '../server/db/open.ts';
import type { BatchedHistoryWriter } from '../server/live/history.ts';
import { createLiveRuntime } from '../server/live/runtime.ts';
import { OpsMetrics } from '../server/ops/metrics.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const loadChild = path.join(path.dirname(fileURLToPath(import.meta.url)), 'gateway.bench.ts');

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const terminals = quick ? 1000 : 5000;
  const windowMs = quick ? 2500 : 5000;
  const pairs = quick ? 2 : 4;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-ops-bench-'));
  const config = loadConfig({}, { dataDir, logLevel: 'silent', seedVehicles: terminals, seedFleetsPerBranch: 4, autoRegister: false });
  const { storage } = await openStorage(config);
  const live = await createLiveRuntime(config, storage);
  const port = await live.gateway.listen(0, '127.0.0.1');
  const devices = (await storage.terminals.allVehicles()).map((v) => v.deviceNo);
  let child: ChildProcess | undefined;
  try {
    child = fork(loadChild, ['--load-child'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const ready = new Promise<void>((resolve) => child!.on('message', (m: { type: string }) => m.type === 'ready' && resolve()));
    child.send({ type: 'start', port, devices, window: 8 });
    await ready;
    child.send({ type: 'go' });
    await sleep(1000);

    const metrics = new OpsMetrics({ live, push: () => undefined });
    const history = live.history as BatchedHistoryWriter;
    const totals = { off: { positions: 0, cpu: 0 }, on: { positions: 0, cpu: 0 }, scrapes: 0, scrapeMs: 0 };
    for (let i = 0; i < pairs * 2; i++) {
      // A B B A: the database grows through the run, so a later window is a little slower; this order
      // gives both sides the same mean position (A/B/A/B put every "on" window later).
      const on = i % 4 === 1 || i % 4 === 2;
      history.onFlushed = on ? (_rows, ms) => metrics.observeFlush(ms) : undefined;
      const p0 = live.gateway.stats.positions;
      const c0 = process.cpuUsage();
      const end = performance.now() + windowMs;
      while (performance.now() < end) {
        await sleep(Math.min(1000, end - performance.now()));
        if (on && performance.now() < end) {
          const t = performance.now();
          await metrics.text();
          totals.scrapeMs += performance.now() - t;
          totals.scrapes++;
        }
      }
      const cpu = process.cpuUsage(c0);
      const side = on ? totals.on : totals.off;
      side.positions += live.gateway.stats.positions - p0;
      side.cpu += (cpu.user + cpu.system) / 1e6;
    }
    history.onFlushed = undefined;
    const off = totals.off.positions / totals.off.cpu;
    const on = totals.on.positions / totals.on.cpu;
    const name = `gateway with metrics, ${terminals} terminals`;
    return [
      { name, metric: 'reports per gateway CPU-second, no metrics', value: off, unit: 'reports/s' },
      { name, metric: 'reports per gateway CPU-second, metrics + 1 scrape/s', value: on, unit: 'reports/s', baseline: off, ratio: on / off },
      { name, metric: 'one scrape, wall time under load', value: totals.scrapes ? totals.scrapeMs / totals.scrapes : NaN, unit: 'ms' },
    ];
  } finally {
    child?.send({ type: 'stop' });
    await sleep(300);
    child?.kill();
    await live.stop();
    storage.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.max(0, ms)));
}
