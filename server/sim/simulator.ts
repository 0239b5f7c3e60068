/**
 * The fleet simulator: many JT/T 808 terminals multiplexed in one process. One scheduler tick
 * (default every 100 ms) pops the terminals whose wake time has come from a binary heap, so
 * thousands of vehicles cost one timer, not one setInterval each.
 */
import type { DisposalSite } from '../../domain/box/status.ts';
import { SimBox } from './box.ts';
import { Terminal, emptyStats, type SimRegistration, type SimStats, type SimTerminalEvent, type TerminalContext } from './terminal.ts';
import { VehicleProgram, type SimRates } from './vehicle.ts';

export interface TerminalSpec {
  /** 12-digit terminal number. */
  readonly deviceNo: string;
  /** Plate (GBK on the wire); generated from the home city when absent. */
  readonly plate?: string;
  /**
   * A program already run up to now (the demo history backfill, sim/history.ts): the terminal goes on
   * from where it stopped, so live positions continue the stored track. Otherwise one starts now.
   */
  readonly program?: VehicleProgram;
  /** The auth code it registered with before (fleet-source.ts reads it from the database), so it authenticates without registering. */
  readonly authCode?: string | null;
  /** Maker, model, terminal id and plate colour its 0x0100 carries (the simulator's own model when absent). */
  readonly registration?: SimRegistration;
  /** A slag truck (vehicle type muck): its reports carry the cargo box item 0xE1 (sim/box.ts). */
  readonly slagTruck?: boolean;
  /** A slag truck's disposal sites (its company's and above; fleet-source.ts): its loaded trips end there. */
  readonly slagSites?: readonly DisposalSite[];
}

export interface SimulatorOptions {
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** @default 7611 */
  readonly port?: number;
  /** The terminals, or how many to generate (device numbers from `generatedDeviceNo`). */
  readonly terminals: readonly TerminalSpec[] | number;
  /**
   * Reports per second per vehicle with ACC on, at most 1 (times are whole seconds); the interval
   * is rounded to whole seconds. @default 0.1 (one every 10 s, typical of JT/T 808 fleets while driving)
   */
  readonly rateHz?: number;
  /** Report interval with ACC off (parked), 1–300 s; never shorter than the ACC-on interval. @default 60 */
  readonly parkedIntervalS?: number;
  /** Heartbeat 0x0002 after this many seconds without sending anything. @default 30 */
  readonly heartbeatS?: number;
  /** @default 1 */
  readonly seed?: number;
  /** Epoch ms now; tests pass a fast or fixed clock. @default Date.now */
  readonly clock?: () => number;
  /** Scheduler tick, ms of real time. @default 100 */
  readonly tickMs?: number;
  readonly rates?: Partial<SimRates>;
  /** Share of terminals using the 2019 edition of the protocol. @default 0.25 */
  readonly edition2019Share?: number;
  /**
   * Terminals send 0x0003 (unregistration) when stopped, so a later run can register them again. For
   * terminals without a stored code (generated numbers); off by default (the codes stay valid). @default false
   */
  readonly unregisterOnStop?: boolean;
  /** Told of each terminal's handshake steps (registered, refused with its result, authenticated) and drops. */
  readonly onEvent?: (deviceNo: string, event: SimTerminalEvent) => void;
  /** Least wait in seconds before a refused terminal registers again (it grows with the back-off up to a minute). @default 300 */
  readonly refusedRetryS?: number;
}

export interface RunningSimulator {
  /** Live counters (updated in place). */
  readonly stats: SimStats;
  readonly terminals: readonly Terminal[];
  /** Logs every connected terminal out and closes its socket. */
  stop(): Promise<void>;
}

/** Device numbers for generated terminals: '09' + 10 digits, distinct from the demo seed's '01…'. */
export function generatedDeviceNo(index: number): string {
  return `09${String(index + 1).padStart(10, '0')}`;
}

/** Min-heap of terminals by wake time, with lazy deletion through `Terminal.gen`. */
class WakeHeap {
  private at: number[] = [];
  private items: Terminal[] = [];
  private gens: number[] = [];

  get size(): number {
    return this.items.length;
  }

  push(t: Terminal): void {
    if (!Number.isFinite(t.wakeAt)) return;
    this.at.push(t.wakeAt);
    this.items.push(t);
    this.gens.push(t.gen);
    let i = this.items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.at[parent]! <= this.at[i]!) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** The earliest live entry due at or before `now`, else undefined. */
  popDue(now: number): Terminal | undefined {
    while (this.items.length > 0) {
      if (this.at[0]! > now) return undefined;
      const t = this.items[0]!;
      const gen = this.gens[0]!;
      this.removeTop();
      if (gen === t.gen) return t;
    }
    return undefined;
  }

  private removeTop(): void {
    const last = this.items.length - 1;
    this.swap(0, last);
    this.at.pop();
    this.items.pop();
    this.gens.pop();
    let i = 0;
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.at[l]! < this.at[m]!) m = l;
      if (r < n && this.at[r]! < this.at[m]!) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(i: number, j: number): void {
    const a = this.at[i]!;
    this.at[i] = this.at[j]!;
    this.at[j] = a;
    const t = this.items[i]!;
    this.items[i] = this.items[j]!;
    this.items[j] = t;
    const g = this.gens[i]!;
    this.gens[i] = this.gens[j]!;
    this.gens[j] = g;
  }
}

export function startSimulator(options: SimulatorOptions): RunningSimulator {
  const clock = options.clock ?? Date.now;
  const rateHz = options.rateHz ?? 0.1;
  // JT/T 808 times have whole seconds, so a terminal cannot report faster than 1 Hz.
  if (!(rateHz > 0 && rateHz <= 1)) throw new RangeError(`rateHz must be above 0 and at most 1 report per second, got ${rateHz}`);
  const parkedIntervalS = options.parkedIntervalS ?? 60;
  // Drift injection relies on neighbours at most 5 minutes away (see vehicle.ts).
  if (!(parkedIntervalS >= 1 && parkedIntervalS <= 300)) throw new RangeError(`parkedIntervalS must be 1..300 seconds, got ${parkedIntervalS}`);
  const heartbeatS = options.heartbeatS ?? 30;
  if (!(heartbeatS >= 1)) throw new RangeError(`heartbeatS must be at least 1 second, got ${heartbeatS}`);
  const port = options.port ?? 7611;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new RangeError(`port must be 1..65535, got ${port}`);
  const specs: readonly TerminalSpec[] =
    typeof options.terminals === 'number'
      ? Array.from({ length: options.terminals }, (_, i) => ({ deviceNo: generatedDeviceNo(i) }))
      : options.terminals;
  for (const s of specs) {
    if (!/^\d{1,12}$/.test(s.deviceNo)) throw new RangeError(`device number "${s.deviceNo}" must be 1 to 12 digits`);
  }
  const seed = options.seed ?? 1;
  const startMs = clock();
  const stats = emptyStats();
  const heap = new WakeHeap();
  const ctx: TerminalContext = {
    host: options.host ?? '127.0.0.1',
    port,
    heartbeatMs: heartbeatS * 1000,
    stats,
    clock,
    unregisterOnStop: options.unregisterOnStop ?? false,
    onEvent: options.onEvent,
    refusedRetryMs: options.refusedRetryS === undefined ? undefined : options.refusedRetryS * 1000,
    reschedule(t) {
      t.gen++;
      heap.push(t);
    },
  };
  const terminals = specs.map((s) => {
    const program = s.program ?? new VehicleProgram({
      seed,
      deviceNo: s.deviceNo.padStart(12, '0'),
      plate: s.plate,
      startMs,
      intervalMs: 1000 / rateHz,
      parkedIntervalMs: parkedIntervalS * 1000,
      rates: options.rates,
      edition2019Share: options.edition2019Share,
      // Time to connect and authenticate, so first reports go live rather than as re-uploads.
      firstReportAfterMs: 5000,
    });
    const box = s.slagTruck ? new SimBox(program.deviceNo, 'box', s.slagSites ?? []) : null;
    // A slag truck's trips follow its load: loaded to a disposal site (sim/box.ts).
    if (box) program.tripTarget = (lng, lat, time) => box.tripTarget(lng, lat, time);
    const t = new Terminal(program, ctx, s.authCode ?? null, s.registration, box);
    if (program.link === 'never') stats.neverOnline++;
    heap.push(t);
    return t;
  });
  stats.terminals = terminals.length;

  let running = true;
  const later: Terminal[] = [];
  const tick = () => {
    const now = clock();
    for (let t = heap.popDue(now); t; t = heap.popDue(now)) {
      t.wake(now);
      t.gen++;
      // Still due (e.g. waiting on a socket): next tick, so one tick never spins on a terminal.
      if (t.wakeAt <= now) later.push(t);
      else heap.push(t);
    }
    for (const t of later) heap.push(t);
    later.length = 0;
  };
  const timer = setInterval(tick, options.tickMs ?? 100);

  return {
    stats,
    terminals,
    async stop() {
      if (!running) return;
      running = false;
      clearInterval(timer);
      await Promise.all(terminals.map((t) => t.stop()));
    },
  };
}
