/**
 * The push hub's alarm path alone (issue 5): PushHub.publishAlarm to one real websocket consumer in a
 * child process, 5,000 alarms/s published in runs of 50 every 10 ms (what the alarm service does with a
 * stored batch). Reports the server process's CPU per 1,000 alarms (flushes included) and what the
 * consumer received (every alarm, in its own message). `--quick`: 3 s per phase.
 *
 * Ours is what ships: the hub's default `DEFAULT_PUSH_OPTIONS.corkAlarms` (on since issue 16: corking
 * measured cheaper here; end to end, in the alarm storm, about the same CPU and a longer p99 tail, both
 * modes under its goal). The baseline stands for a typical
 * commercial JT/T 808 platform's websocket push: one `send` per alarm message per console (a Spring
 * `WebSocketSession.sendMessage` or `ws.send` in a loop), which is exactly our hub with corking off: same
 * encoder, same messages, same consumer; only the socket writes differ. Both modes run in one process,
 * in the order ours, baseline, baseline, ours (ABBA), so neither gets the warmer JIT or the quieter
 * minute; the consumer is a fresh child per phase and runs on its own process's time.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WebSocket, WebSocketServer } from 'ws';
import { DEFAULT_PUSH_OPTIONS, PushHub, type PushStore } from '../server/push/hub.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const CONSUMER = '--alarm-push-consumer';

if (process.argv.includes(CONSUMER)) {
  // Child: count the alarm messages (each carries its id); answer with the count when asked.
  const ws = new WebSocket(process.argv[process.argv.indexOf(CONSUMER) + 1]!);
  let received = 0;
  let inOrder = true;
  let last = -1;
  ws.on('message', (data: Buffer) => {
    const text = data.toString('latin1');
    const at = text.indexOf('"seq":');
    if (at < 0) return;
    const seq = Number.parseInt(text.slice(at + 6), 10);
    if (seq !== last + 1) inOrder = false;
    last = seq;
    received++;
  });
  process.on('message', () => process.send!({ received, inOrder }));
}

const EMPTY: PushStore = {
  count: 0,
  columns: {
    vehicleId: new Int32Array(0), companyId: new Int32Array(0), lng: new Float64Array(0), lat: new Float64Array(0), speed: new Float32Array(0),
    heading: new Uint16Array(0), statusFlags: new Uint32Array(0), alarmFlags: new Uint32Array(0), gpsTime: new Float64Array(0), lastContact: new Float64Array(0),
  },
  companyPathOf: () => '/',
  onChange: () => () => undefined,
  clock: () => Date.now(),
};

/** A spec §3 alarm record of typical size. */
const alarm = (seq: number) => ({
  seq, id: 1_000_000 + seq, alarmType: 12001, alarmName: '超速报警', channelId: 0, companyId: 12, companyName: '南京分公司第三车队', createTime: Date.now(),
  dealUserId: null, dealUsername: '', dealStatus: 0, dealContent: '', dealTime: null, dealType: null, devidno: '013912345678', gpsTime: Date.now(),
  lng: 118.796877, lat: 32.060255, speed: 88.5, vehiidno: '苏A12345', vehicleId: 4321, riskLevel: 2, count: 1, source: 'terminal',
});

interface Phase { cork: boolean; sent: number; received: number; inOrder: boolean; cpuMsPer1000: number }

async function phase(hub: PushHub, url: string, cork: boolean, seconds: number): Promise<Phase> {
  hub.setOptions({ corkAlarms: cork });
  const child = fork(fileURLToPath(import.meta.url), [CONSUMER, url], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    while (hub.stats.connections === 0 || hub.stats.snapshots === 0) await new Promise((r) => setTimeout(r, 50));
    let seq = 0;
    const cpu0 = process.cpuUsage();
    const end = performance.now() + seconds * 1000;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (performance.now() >= end) {
          clearInterval(timer);
          resolve();
          return;
        }
        for (let i = 0; i < 50; i++) hub.publishAlarm('/', alarm(seq++));
      }, 10);
    });
    await new Promise((r) => setImmediate(r)); // the last flush
    const cpu = process.cpuUsage(cpu0);
    let reply = { received: 0, inOrder: false };
    const until = performance.now() + 15_000;
    while (reply.received < seq && performance.now() < until) {
      reply = await new Promise((resolve) => {
        child.once('message', resolve as (m: unknown) => void);
        child.send('count');
      });
      if (reply.received < seq) await new Promise((r) => setTimeout(r, 200));
    }
    return { cork, sent: seq, ...reply, cpuMsPer1000: ((cpu.user + cpu.system) / 1000 / seq) * 1000 };
  } finally {
    child.kill();
    while (hub.stats.connections > 0) await new Promise((r) => setTimeout(r, 20));
    hub.stats.snapshots = 0;
  }
}

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const hub = new PushHub(EMPTY, { inScope: async () => [], byIds: async () => [] });
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  wss.on('connection', (ws) => void hub.connect(ws, { all: true }, false));
  const url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}`;
  const phases: Phase[] = [];
  const shipped = DEFAULT_PUSH_OPTIONS.corkAlarms;
  try {
    for (const cork of [shipped, !shipped, !shipped, shipped]) phases.push(await phase(hub, url, cork, quick ? 3 : 10));
  } finally {
    hub.close();
    wss.close();
  }
  const mean = (cork: boolean) => phases.filter((p) => p.cork === cork).reduce((s, p) => s + p.cpuMsPer1000, 0) / 2;
  const name = 'alarm push 5,000/s → 1 console (hub alone)';
  const ours = mean(shipped);
  const base = mean(!shipped);
  return [
    { name, metric: 'server CPU per 1,000 alarms', value: ours, unit: 'ms', baseline: base, ratio: base / ours },
    { name, metric: 'alarms published', value: phases.reduce((s, p) => s + p.sent, 0), unit: 'alarms' },
    { name, metric: 'lost (published − received)', value: phases.reduce((s, p) => s + p.sent - p.received, 0), unit: 'alarms' },
    { name, metric: 'phases out of order', value: phases.filter((p) => !p.inOrder).length, unit: 'phases' },
  ];
}
