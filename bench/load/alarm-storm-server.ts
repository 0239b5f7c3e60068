/**
 * The alarm storm's server (a child process of bench/alarm-storm.bench.ts): one real server per phase
 * (buildApp: gateway → alarm engine → SQLite → push hub) in a process of its own.
 *
 * Why a process per phase: with the four phases' servers built one after another in the bench process, the
 * heap grew from 123 MB to 681 MB by the fourth phase (closed servers were kept by the metrics registry, fixed
 * since in server/ops/routes.ts; the bench's own results and Playwright live there too), so the later phases paid for
 * a bigger heap in every garbage collection: scavenges of 100–300 ms were seen at 1.2 GB. A gateway machine
 * runs one server per process; a fresh process per phase gives each side the same start, and the server's
 * CPU figure (`process.cpuUsage()` here) is the server's alone.
 *
 * Commands over IPC (`{ cmd }` → `{ type }`): start → up, prepare → prepared, mark → marked,
 * finish → finished, then exit. Errors answer `{ type: 'error', message }`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { ALL_COMPANIES } from '../../server/db/scope.ts';
import { DEFAULT_PUSH_OPTIONS } from '../../server/push/hub.ts';

const HOUR = 3_600_000;

export type ServerCommand =
  | { cmd: 'start'; vehicles: number }
  | { cmd: 'prepare'; cork: boolean | 'shipped' }
  | { cmd: 'mark' }
  | { cmd: 'finish'; gpsBase: number }
  | { cmd: 'exit' };

/** What the server counted at a mark (the phase's figures are the difference of two). */
export interface ServerMark {
  cpu: NodeJS.CpuUsage;
  batches: number;
  failed: number;
}

export type ServerReply =
  | { type: 'up'; base: string; pushUrl: string; gatewayPort: number; devices: string[] }
  | { type: 'prepared' }
  | { type: 'marked'; mark: ServerMark }
  | { type: 'finished'; mark: ServerMark; stored: number }
  | { type: 'error'; message: string };

if (process.send && process.argv[2] === '--server') {
  const send = (m: ServerReply) => process.send!(m);
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let dataDir: string | undefined;
  const mark = (): ServerMark => ({ cpu: process.cpuUsage(), batches: app!.alarms.stats.batches, failed: app!.alarms.stats.failed });
  const handle = async (msg: ServerCommand): Promise<void> => {
    if (msg.cmd === 'start') {
      dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-alarm-storm-'));
      const config = loadConfig({}, {
        dataDir, port: 0, host: '127.0.0.1', gatewayPort: 0, gatewayHost: '127.0.0.1', logLevel: 'warn', seedVehicles: msg.vehicles,
        seedFleetsPerBranch: 4, autoRegister: false, consoleDir: path.join(dataDir, 'no-console'),
      });
      app = await buildApp(config);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const gatewayPort = await app.live.gateway.listen(0, '127.0.0.1');
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('no address');
      const devices = (await app.storage.terminals.allVehicles()).map((v) => v.deviceNo);
      send({ type: 'up', base: `http://127.0.0.1:${address.port}`, pushUrl: `ws://127.0.0.1:${address.port}/ws-service/websocket`, gatewayPort, devices });
    } else if (msg.cmd === 'prepare') {
      await app!.alarms.idle();
      app!.push.setOptions({ corkAlarms: msg.cork === 'shipped' ? DEFAULT_PUSH_OPTIONS.corkAlarms : msg.cork });
      send({ type: 'prepared' });
    } else if (msg.cmd === 'mark') {
      send({ type: 'marked', mark: mark() });
    } else if (msg.cmd === 'finish') {
      const at = mark(); // the drain is over: CPU up to here, as the wall time the bench measured
      await app!.alarms.idle();
      const stored = (await app!.storage.alarms.query(ALL_COMPANIES, { startTime: msg.gpsBase + 1, endTime: msg.gpsBase + HOUR / 2 }, 0, 0)).total;
      send({ type: 'finished', mark: at, stored });
    } else {
      await app?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  };
  process.on('message', (msg: ServerCommand) => {
    handle(msg).catch((err: unknown) => send({ type: 'error', message: String((err as Error)?.stack ?? err) }));
  });
}
