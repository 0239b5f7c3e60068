/**
 * Gateway stall under week reads (issue 16's debt): better-sqlite3 is synchronous, so a long track read
 * on the main thread stops the JT/T 808 gateway's event loop for as long as it runs. Terminals (a child
 * process, so the load generator never runs on the gateway's time) each send a 0x0200 location report
 * every second over TCP and time the platform's 0x8001 acknowledgement; meanwhile the measuring process
 * serves one vehicle's week at 1 Hz (604,800 points) again and again, the way GET
 * /service-monitor/trail/binary does (`storage.tracks.readTrackEncoded`), each read cold (day
 * blocks dropped first: the first read of a vehicle-week, the 1–2 s case server/CONTEXT.md named).
 *
 * Phases, same database, same terminals, same run: no reads (floor), reads in process (before: the
 * product until issue 16, and what any Node + better-sqlite3 service does by default), reads through the
 * worker-thread pool (after: server/db/read-pool.ts, what ships). The baseline of the ack p99 is the
 * in-process phase; the peer is a commercial JT/T 808 platform's typical design, where the gateway is a
 * separate process from the web API, so history reads never share its thread: the floor phase stands for it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chinaDayIndex, chinaDayStartMs } from '../domain/track/days.ts';
import { loadConfig } from '../server/config.ts';
import { openStorage } from '../server/db/open.ts';
import { attachTrackReadPool } from '../server/db/read-pool.ts';
import type { SqliteStorage } from '../server/db/sqlite/storage.ts';
import { decodeFrame, encodePacket, FrameSplitter, MSG, type Jt808Message, type Jt808MessageInput } from '../server/gateway/jt808/index.ts';
import { createLiveRuntime } from '../server/live/runtime.ts';
import type { BenchArgs, BenchRecord } from './types.ts';

const here = fileURLToPath(import.meta.url);
const DAY_MS = 86_400_000;

interface ChildStart { type: 'start'; port: number; devices: string[] }
type ChildMessage = { type: 'ready'; failed: number } | { type: 'marked'; latencies: number[]; lost: number };

export async function run({ quick }: BenchArgs): Promise<BenchRecord[]> {
  const days = quick ? 2 : 7;
  const terminals = quick ? 100 : 300;
  const phaseMs = quick ? 6000 : 20_000;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-gateway-stall-'));
  const config = loadConfig({}, { dataDir, logLevel: 'silent', seedVehicles: terminals, seedFleetsPerBranch: 4, autoRegister: false });
  const { storage: opened } = await openStorage(config);
  const storage = opened as SqliteStorage;
  const db = storage.db;
  const live = await createLiveRuntime(config, storage);
  const port = await live.gateway.listen(0, '127.0.0.1');
  const devices = (await storage.terminals.allVehicles()).map((v) => v.deviceNo);
  let child: ChildProcess | undefined;
  let pool: ReturnType<typeof attachTrackReadPool>;
  try {
    // One history vehicle's whole finished days at 1 Hz (not a live terminal: its rows are only read).
    const target = 1_000_000;
    const end = chinaDayStartMs(chinaDayIndex(Date.now()) - 1);
    const start = end - days * DAY_MS;
    const insert = db.prepare(`INSERT INTO positions (vehicle_id, gps_time, lng, lat, speed, heading, altitude, status, alarm, mileage, received_at)
                               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    db.transaction(() => {
      for (let t = start, i = 0; t < end; t += 1000, i++) {
        insert.run(target, t, Math.round((116 + (i % 86_400) * 1e-5) * 1e6) / 1e6, 39.9, (i % 900) / 10, i % 360, 40, 3, 0, Math.round(i / 36) / 100, t);
      }
    })();

    child = fork(here, ['--stall-child'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const c = child;
    const ready = waitFor(c, 'ready');
    c.send({ type: 'start', port, devices } satisfies ChildStart);
    const { failed } = await ready;
    await sleep(1500);
    const mark = async () => {
      const m = waitFor(c, 'marked');
      c.send({ type: 'mark' });
      return m;
    };

    const read = async () => {
      db.prepare('DELETE FROM track_block WHERE vehicle_id = ?').run(target);
      return (await storage.tracks.readTrackEncoded(target, start, end, 1_000_000, { plate: 'B-STALL', deviceNo: '', startTime: start, endTime: end - 1 })).byteLength;
    };
    const phase = async (reading: boolean) => {
      await mark();
      const t0 = performance.now();
      let reads = 0;
      let readMs = 0;
      while (performance.now() - t0 < phaseMs) {
        if (!reading) {
          await sleep(100);
          continue;
        }
        const r0 = performance.now();
        await read();
        readMs += performance.now() - r0;
        reads++;
        // The next user's request arrives on a later turn of the event loop.
        await new Promise((r) => setImmediate(r));
      }
      // Reports sent during the last read are answered when it ends: count them in this phase.
      await sleep(1500);
      const { latencies, lost } = await mark();
      return { latencies: latencies.sort((a, b) => a - b), lost, reads, readMs: reads ? readMs / reads : 0 };
    };

    const idle = await phase(false);
    storage.tracks.offload(undefined);
    const before = await phase(true);
    pool = attachTrackReadPool(storage);
    if (!pool) throw new Error('no read pool for a file database');
    await read(); // start the workers outside the measurement
    const after = await phase(true);

    const name = `gateway ack under week reads, ${terminals - failed} terminals at 1 Hz, ${days}-day 1 Hz reads`;
    const records: BenchRecord[] = [];
    const p = (xs: number[], q: number) => xs.length ? xs[Math.min(xs.length - 1, Math.floor(q * xs.length))]! : NaN;
    for (const [label, r] of [['no reads (floor)', idle], ['reads in process (before)', before], ['reads in worker pool (after, ships)', after]] as const) {
      records.push(
        { name: `${name}: ${label}`, metric: 'ack p50', value: p(r.latencies, 0.5), unit: 'ms' },
        { name: `${name}: ${label}`, metric: 'ack p99', value: p(r.latencies, 0.99), unit: 'ms', ...(r === after ? { baseline: p(before.latencies, 0.99), ratio: p(before.latencies, 0.99) / p(after.latencies, 0.99) } : {}) },
        { name: `${name}: ${label}`, metric: 'ack max', value: r.latencies[r.latencies.length - 1] ?? NaN, unit: 'ms' },
        { name: `${name}: ${label}`, metric: 'acks', value: r.latencies.length, unit: 'acks' },
        { name: `${name}: ${label}`, metric: 'reports unanswered at phase end', value: r.lost, unit: 'reports' },
      );
      if (r !== idle) {
        records.push(
          { name: `${name}: ${label}`, metric: 'week reads served', value: r.reads, unit: 'reads' },
          { name: `${name}: ${label}`, metric: 'read + encode, per read', value: r.readMs, unit: 'ms' },
        );
      }
    }
    return records;
  } finally {
    child?.kill();
    await pool?.close();
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
      child.off('exit', onExit);
      resolve(m as Extract<ChildMessage, { type: T }>);
    };
    const onExit = (code: number | null) => reject(new Error(`stall child exited (${code}) before '${type}'`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/**
 * The terminals (child process): register + authenticate each, then every terminal sends one 0x0200 a
 * second (spread over the second) and times the 0x8001 that answers its serial. On 'mark' it reports
 * the latencies since the previous mark and how many reports are still unanswered.
 */
async function stallChild(): Promise<void> {
  const start = await new Promise<ChildStart>((resolve) => process.once('message', (m: ChildStart) => resolve(m)));
  let latencies: number[] = [];
  const terminals: { socket: net.Socket; phone: string; serial: number; sent: Map<number, number> }[] = [];
  let failed = 0;
  for (let i = 0; i < start.devices.length; i += 100) {
    const group = start.devices.slice(i, i + 100);
    const results = await Promise.all(group.map((d) => login(start.port, d).catch(() => null)));
    for (const r of results) if (r) terminals.push(r); else failed++;
  }
  process.send!({ type: 'ready', failed } satisfies ChildMessage);
  const spacing = 1000 / Math.max(1, terminals.length);
  terminals.forEach((t, k) => {
    setTimeout(() => {
      const send = () => {
        t.serial = (t.serial + 1) & 0xffff;
        const time = Math.floor(Date.now() / 1000) * 1000;
        t.sent.set(t.serial, performance.now());
        t.socket.write(encodePacket({ phone: t.phone, serial: t.serial }, {
          msgId: MSG.LOCATION, alarm: 0, status: 3, lat: 31.2, lng: 121.4, altitude: 10, speed: 40, direction: 90, time,
          mileage: 1234.5, fuel: 50, signal: 25, satellites: 12,
        }));
      };
      send();
      setInterval(send, 1000);
    }, k * spacing);
  });
  process.on('message', (m: { type: string }) => {
    if (m.type !== 'mark') return;
    let lost = 0;
    for (const t of terminals) lost += t.sent.size;
    process.send!({ type: 'marked', latencies, lost } satisfies ChildMessage);
    latencies = [];
  });

  async function login(port: number, deviceNo: string) {
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect({ port, host: '127.0.0.1' }, () => resolve(s));
      s.once('error', reject);
    });
    socket.setNoDelay(true);
    const splitter = new FrameSplitter();
    const waiting: ((m: Jt808Message) => void)[] = [];
    const me = { socket, phone: deviceNo, serial: 10, sent: new Map<number, number>(), live: false };
    socket.on('data', (chunk: Buffer) => splitter.push(chunk, (frame) => {
      const r = decodeFrame(frame);
      if (r.kind !== 'message') return;
      const m = r.message;
      if (me.live && m.msgId === MSG.PLATFORM_RESPONSE && m.replyId === MSG.LOCATION) {
        const t0 = me.sent.get(m.replySerial);
        if (t0 !== undefined) {
          me.sent.delete(m.replySerial);
          latencies.push(performance.now() - t0);
        }
        return;
      }
      waiting.shift()?.(m);
    }));
    const ask = (message: Jt808MessageInput, serial: number) => new Promise<Jt808Message>((resolve) => {
      waiting.push(resolve);
      socket.write(encodePacket({ phone: deviceNo, serial }, message));
    });
    const reg = await ask({ msgId: MSG.REGISTER, province: 31, city: 100, makerId: 'BENCH', model: 'B1', terminalId: 'B000001', plateColor: 0, plate: '' }, 1);
    if (reg.msgId !== MSG.REGISTER_RESPONSE || reg.result !== 0) throw new Error('register refused');
    const auth = await ask({ msgId: MSG.AUTHENTICATE, authCode: reg.authCode, imei: '', softwareVersion: '' }, 2);
    if (auth.msgId !== MSG.PLATFORM_RESPONSE || auth.result !== 0) throw new Error('authentication refused');
    me.live = true;
    return me;
  }
}

if (process.argv.includes('--stall-child')) void stallChild();
