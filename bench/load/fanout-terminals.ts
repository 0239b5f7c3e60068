/**
 * The fan-out bench's terminals (child process of bench/fanout.bench.ts): N JT/T 808 terminals over real
 * TCP, each sending one 0x0200 location report a second, spread over 100 slots of 10 ms so the gateway
 * sees an even stream rather than one burst a second. For sampled vehicles it stamps when each report
 * was written to its socket (`wallNow()`, comparable across processes on one machine), keyed by vehicle
 * id and GPS second: the consumer (load/push-clients.ts) reports the same key when it decoded it.
 * It runs in its own process, so its CPU is never counted as the server's and never delays it.
 */
import { MSG } from '../../server/gateway/jt808/index.ts';
import { location, TestTerminal } from '../../server/gateway/terminal-client.ts';
import { wallNow } from './common.ts';

export interface FanoutTerminalsStart {
  cmd: 'connect';
  gatewayPort: number;
  /** [terminal number, vehicle id]. */
  vehicles: [string, number][];
  /** Sample vehicles whose id is a multiple of this. */
  sampleEvery: number;
  /** GPS second of round 0 (rounds follow a second apart). */
  baseSec: number;
}

const SLOTS = 100;

class FanoutTerminals {
  private terminals: { t: TestTerminal; vehicleId: number; slot: number }[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  private sentAt: [number, number, number][] = [];
  private sent = 0;
  private recording = false;

  constructor(private readonly s: FanoutTerminalsStart) {}

  async connect(): Promise<{ loginMs: number; failed: number }> {
    const t0 = performance.now();
    let failed = 0;
    const queue = [...this.s.vehicles];
    // 64 logins in flight: quick, without a connect burst the gateway would refuse.
    await Promise.all(Array.from({ length: 64 }, async () => {
      for (let v = queue.shift(); v !== undefined; v = queue.shift()) {
        try {
          const t = await TestTerminal.connect(this.s.gatewayPort, v[0], 2013);
          await t.login();
          this.terminals.push({ t, vehicleId: v[1], slot: this.terminals.length % SLOTS });
        } catch {
          failed++;
        }
      }
    }));
    return { loginMs: performance.now() - t0, failed };
  }

  /** Starts reporting: every 10 ms the terminals of one slot send their report of the current round. */
  start(): void {
    let phase = 0;
    let round = 0;
    const bySlot: (typeof this.terminals)[] = Array.from({ length: SLOTS }, () => []);
    for (const x of this.terminals) bySlot[x.slot]!.push(x);
    this.timer = setInterval(() => {
      const gpsSec = this.s.baseSec + round;
      for (const x of bySlot[phase]!) {
        const i = x.vehicleId;
        x.t.send({
          msgId: MSG.LOCATION,
          ...location({ lng: 100 + (i % 1000) / 50 + round * 1e-4, lat: 25 + Math.floor(i / 1000) / 100, speed: 40 + (i % 60), direction: (i * 7) % 360, time: gpsSec * 1000 }),
        });
        if (this.recording) {
          this.sent++;
          if (i % this.s.sampleEvery === 0) this.sentAt.push([i, gpsSec, wallNow()]);
        }
      }
      phase++;
      if (phase === SLOTS) {
        phase = 0;
        round++;
      }
    }, 1000 / SLOTS);
  }

  record(on: boolean): { sent: number; sentAt: [number, number, number][] } {
    const out = { sent: this.sent, sentAt: this.sentAt };
    this.recording = on;
    this.sent = 0;
    this.sentAt = [];
    return out;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    for (const x of this.terminals) x.t.socket.destroy();
  }
}

if (process.send && process.argv[2] === '--child') {
  let terminals: FanoutTerminals | undefined;
  const fail = (err: unknown) => process.send!({ type: 'error', message: String((err as Error)?.stack ?? err) });
  process.on('message', (msg: FanoutTerminalsStart | { cmd: 'start' } | { cmd: 'record' } | { cmd: 'stop' }) => {
    if (msg.cmd === 'connect') {
      terminals = new FanoutTerminals(msg);
      terminals.connect().then((r) => process.send!({ type: 'ready', ...r }), fail);
    } else if (msg.cmd === 'start') {
      terminals!.start();
      process.send!({ type: 'started' });
    } else if (msg.cmd === 'record') {
      terminals!.record(true);
      process.send!({ type: 'recording' });
    } else {
      const r = terminals!.record(false);
      terminals!.close();
      process.send!({ type: 'result', ...r });
    }
  });
}
