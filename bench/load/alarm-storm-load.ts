/**
 * The alarm storm's load side (child processes of bench/alarm-storm.bench.ts):
 * - `StormSender`: real JT/T 808 terminals over TCP that raise one distinct alarm per location report;
 * - `StormConsumer`: one push consumer (a console's websocket) decoding every message.
 * They run in separate processes, so a busy sender never delays the consumer's reads. Both stamp
 * with `wallNow()` (comparable across processes on one machine); the latency of an alarm is "decoded
 * at the consumer − written to the terminal's socket", matched by (terminal number, alarm type):
 * each pair is raised exactly once per phase.
 *
 * Why every alarm is distinct: the engine merges repeats of one type on one vehicle within 30 minutes
 * of GPS time (domain/alarms/engine.ts), so a terminal raising the same bit again would be a merge
 * (stored as count + 1, never pushed). Each terminal here walks its own list of alarm types, one per
 * report: first its alarm bits one after another (each report keeps the earlier bits set, so nothing
 * ends), then ADAS and DMS instant items of every type. A phase's GPS times lie more than 30 minutes
 * after the previous phase's, and a phase starts with every bit cleared, so a new phase raises new alarms.
 */
import WebSocket from 'ws';
import { ADAS_TYPES, ALARM_FLAGS, DMS_TYPES } from '../../domain/alarms/sources.ts';
import { PushDecoder } from '../../proto/codec.ts';
import { MSG, type LocationInput } from '../../server/gateway/jt808/index.ts';
import { location, TestTerminal } from '../../server/gateway/terminal-client.ts';
import { wallNow } from './common.ts';

const EDITION = 2013;

/** One step of a terminal's walk: the report's extra content and the alarm type it raises. */
interface Step {
  readonly code: number;
  readonly bit?: number;
  readonly adas?: number;
  readonly dms?: number;
}

/** The distinct alarms one terminal can raise without a merge: 2013 bits, ADAS and DMS types. */
export const STEPS: readonly Step[] = [
  ...ALARM_FLAGS.filter((f) => f.editions.includes(EDITION)).map((f) => ({ code: f.code, bit: f.bit })),
  ...[...ADAS_TYPES].map(([type, code]) => ({ code, adas: type })),
  ...[...DMS_TYPES].map(([type, code]) => ({ code, dms: type })),
];

export interface StormStart {
  cmd: 'connect';
  gatewayPort: number;
  devices: string[];
}

export interface StormReset {
  cmd: 'reset';
  gpsBase: number;
}

export interface StormPhase {
  cmd: 'phase';
  /** Alarms per second, all terminals together. */
  rate: number;
  seconds: number;
  /** GPS time (epoch ms, whole seconds) of the reset report; the phase's reports follow a second apart. */
  gpsBase: number;
}

export interface SenderResult {
  sent: number;
  acked: number;
  /** The time the sender took for its sends, s (above the phase length when it fell behind). */
  sendSeconds: number;
  /** [`${deviceNo}:${alarmType}`, written at (wall ms)]. */
  sentAt: [string, number][];
}

export interface ConsumerResult {
  /** [`${devidno}:${alarmType}`, decoded at (wall ms), the server's createTime (stored at, ms)], first arrival of each. */
  decodedAt: [string, number, number][];
  duplicates: number;
  decodeErrors: number;
  /** Close code when the server closed the connection (4008: slow consumer), else null. */
  closedWith: number | null;
  /** Alarms a catch-up (`alarmReplay` after alarms were withheld under pressure) counted as missed: in the alarm list, not pushed. */
  missed: number;
}

const TYPES_PER_TERMINAL = STEPS.length;

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function safetyItem(type: number, flag: number, time: number) {
  return {
    alarmId: 1, flag, type, level: 1, speed: 40, altitude: 20, lat: 31.2, lng: 121.5, time, vehicleStatus: 1,
    identification: { terminalId: 'T1', time, seq: 0, attachments: 0, reserved: 0 },
  };
}

export class StormSender {
  private terminals: TestTerminal[] = [];
  private words: number[] = [];

  async connect(s: StormStart): Promise<{ loginMs: number; failed: number }> {
    const t0 = performance.now();
    let failed = 0;
    const queue = [...s.devices];
    // 64 logins in flight: quick, without a connect burst the gateway would refuse.
    await Promise.all(Array.from({ length: 64 }, async () => {
      for (let d = queue.shift(); d !== undefined; d = queue.shift()) {
        try {
          const t = await TestTerminal.connect(s.gatewayPort, d, EDITION);
          await t.login();
          this.terminals.push(t);
        } catch {
          failed++;
        }
      }
    }));
    this.words = this.terminals.map(() => 0);
    return { loginMs: performance.now() - t0, failed };
  }

  private report(i: number, over: Partial<LocationInput> & { time: number }): void {
    this.terminals[i]!.send({ msgId: MSG.LOCATION, ...location({ lng: 121.5 + i * 1e-4, lat: 31.2, speed: 40, alarm: this.words[i]!, ...over }) });
  }

  private acks(): number {
    return this.terminals.reduce((a, t) => a + t.replies.length, 0);
  }

  /**
   * Before a phase: one report per terminal with every bit clear at `gpsBase` (ends the previous
   * phase's held alarms: stored, not pushed); resolves when all are acknowledged.
   */
  async reset(gpsBase: number): Promise<void> {
    const target = this.acks() + this.terminals.length;
    for (let i = 0; i < this.terminals.length; i++) {
      this.words[i] = 0;
      this.report(i, { time: gpsBase });
    }
    const t0 = performance.now();
    while (this.acks() < target && performance.now() - t0 < 30_000) await sleep(50);
  }

  async phase(p: StormPhase): Promise<SenderResult> {
    const n = this.terminals.length;
    const sentAt: [string, number][] = [];
    const acks0 = this.acks();
    const total = Math.min(Math.round(p.rate * p.seconds), n * TYPES_PER_TERMINAL);
    let sent = 0;
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      const tick = () => {
        const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * p.rate));
        for (; sent < due; sent++) {
          const i = sent % n;
          const k = Math.floor(sent / n);
          const step = STEPS[k]!;
          const time = p.gpsBase + (k + 1) * 1000;
          if (step.bit !== undefined) this.words[i] = (this.words[i]! | (1 << step.bit)) >>> 0;
          sentAt.push([`${this.terminals[i]!.phone}:${step.code}`, wallNow()]);
          if (step.adas !== undefined) {
            this.report(i, { time, adas: { ...safetyItem(step.adas, 0, time), frontSpeed: 0, frontDistance: 0, deviationType: 0, roadSignType: 0, roadSignValue: 0 } });
          } else if (step.dms !== undefined) {
            this.report(i, { time, dms: { ...safetyItem(step.dms, 0, time), fatigue: 0, reserved: 0 } });
          } else this.report(i, { time });
        }
        if (sent >= total) resolve();
        else setTimeout(tick, 5);
      };
      tick();
    });
    const sendSeconds = (performance.now() - t0) / 1000;
    // Acks trail the sends: wait for them (bounded), they are the gateway's promise of storage.
    const s0 = performance.now();
    while (this.acks() - acks0 < sent && performance.now() - s0 < 30_000) await sleep(50);
    return { sent, acked: this.acks() - acks0, sendSeconds, sentAt };
  }

  close(): void {
    for (const t of this.terminals) t.socket.destroy();
  }
}

export class StormConsumer {
  private ws: WebSocket | undefined;
  private readonly decoder = new PushDecoder();
  private decodedAt = new Map<string, [number, number]>();
  private duplicates = 0;
  private decodeErrors = 0;
  private closedWith: number | null = null;
  private missed = 0;

  connect(pushUrl: string, token: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(`${pushUrl}?token=${encodeURIComponent(token)}`);
      ws.on('message', (data: Buffer) => this.onPush(data));
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.on('close', (code) => (this.closedWith = code));
      this.ws = ws;
    });
  }

  /** Alarms decoded since the last `take`. */
  get count(): number {
    return this.decodedAt.size;
  }

  private onPush(data: Buffer): void {
    let m;
    try {
      m = this.decoder.decode(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    } catch {
      this.decodeErrors++;
      return;
    }
    if (m.body?.type !== 'json') return;
    type Alarm = { devidno?: string; alarmType?: number; createTime?: number };
    if (m.commandType === 'alarmReplay') {
      // A catch-up after the hub withheld alarms under pressure (server/push/CONTEXT.md): its alarms count as
      // delivered (now), the ones it could not carry as missed (the console shows them as a link to the list).
      const r = (m.body.value as { data?: { after?: number | null; alarms?: Alarm[]; missed?: number } }).data;
      if (r?.after === null || r?.after === undefined) return;
      const at = wallNow();
      for (const a of r.alarms ?? []) this.record(a, at);
      this.missed += r.missed ?? 0;
      return;
    }
    if (m.commandType !== 'alarm') return;
    this.record((m.body.value as { data?: Alarm }).data, wallNow());
  }

  private record(alarm: { devidno?: string; alarmType?: number; createTime?: number } | undefined, decodedAt: number): void {
    const key = `${alarm?.devidno}:${alarm?.alarmType}`;
    if (this.decodedAt.has(key)) this.duplicates++;
    else this.decodedAt.set(key, [decodedAt, alarm?.createTime ?? NaN]);
  }

  /** What arrived since the last call, and starts afresh. */
  take(): ConsumerResult {
    const r: ConsumerResult = {
      decodedAt: [...this.decodedAt].map(([k, [at, created]]) => [k, at, created]), duplicates: this.duplicates, decodeErrors: this.decodeErrors, closedWith: this.closedWith,
      missed: this.missed,
    };
    this.decodedAt = new Map();
    this.duplicates = this.decodeErrors = this.missed = 0;
    return r;
  }

  close(): void {
    this.ws?.terminate();
  }
}

export interface StormFigures {
  sent: number;
  acked: number;
  sendSeconds: number;
  delivered: number;
  duplicates: number;
  /** Alarms the consumer decoded that this phase never raised. */
  unexpected: number;
  decodeErrors: number;
  closedWith: number | null;
  /** Counted as missed by a catch-up: stored and in the alarm list, not pushed one by one. */
  missed: number;
  /** Frame written → decoded at the console, ms. */
  latencies: number[];
  /** Frame written → stored (the alarm's createTime), ms: the terminal → storage part. */
  toStored: number[];
  /** When each of `latencies` was written to its socket (wall ms, same order): latency over the phase's time. */
  sentTimes: number[];
}

/** Matches what was sent with what was decoded. */
export function matchStorm(s: SenderResult, c: ConsumerResult): StormFigures {
  const decoded = new Map(c.decodedAt.map(([k, at, created]) => [k, [at, created] as const]));
  const latencies: number[] = [];
  const toStored: number[] = [];
  const sentTimes: number[] = [];
  for (const [key, at] of s.sentAt) {
    const got = decoded.get(key);
    if (got === undefined) continue;
    latencies.push(got[0] - at);
    sentTimes.push(at);
    if (Number.isFinite(got[1])) toStored.push(got[1] - at);
    decoded.delete(key);
  }
  return {
    sent: s.sent, acked: s.acked, sendSeconds: s.sendSeconds, delivered: latencies.length, duplicates: c.duplicates, unexpected: decoded.size,
    decodeErrors: c.decodeErrors, closedWith: c.closedWith, missed: c.missed, latencies, toStored, sentTimes,
  };
}

// Child-process modes: `--child sender` / `--child consumer`, commands over IPC.
if (process.send && process.argv[2] === '--child') {
  const fail = (err: unknown) => process.send!({ type: 'error', message: String((err as Error)?.stack ?? err) });
  if (process.argv[3] === 'consumer') {
    const consumer = new StormConsumer();
    process.on('message', (msg: { cmd: 'connect'; pushUrl: string; token: string } | { cmd: 'count' } | { cmd: 'take' } | { cmd: 'exit' }) => {
      if (msg.cmd === 'connect') consumer.connect(msg.pushUrl, msg.token).then(() => process.send!({ type: 'ready', loginMs: 0, failed: 0 }), fail);
      else if (msg.cmd === 'count') process.send!({ type: 'count', count: consumer.count });
      else if (msg.cmd === 'take') process.send!({ type: 'taken', result: consumer.take() });
      else {
        consumer.close();
        process.exit(0);
      }
    });
  } else {
    const sender = new StormSender();
    process.on('message', (msg: StormStart | StormPhase | StormReset | { cmd: 'exit' }) => {
      if (msg.cmd === 'connect') sender.connect(msg).then((r) => process.send!({ type: 'ready', ...r }), fail);
      else if (msg.cmd === 'reset') sender.reset(msg.gpsBase).then(() => process.send!({ type: 'reset' }), fail);
      else if (msg.cmd === 'phase') sender.phase(msg).then((result) => process.send!({ type: 'sent', result }), fail);
      else {
        sender.close();
        process.exit(0);
      }
    });
  }
}
