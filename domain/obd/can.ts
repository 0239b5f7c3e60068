/**
 * Vehicle data from the CAN bus (JT/T 808 0x0705 items: a 29- or 11-bit CAN id + 8 data bytes), for
 * the alarm pop-up's OBD buttons:
 * - large vehicles (obdLargeVehicle): SAE J1939 broadcast frames on the truck's powertrain bus —
 *   EEC1 (PGN 61444) engine speed, ET1 (65262) coolant temperature, DD (65276) fuel level, CCVS
 *   (65265) wheel-based speed, EEC2 (61443) engine load, HOURS (65253) engine hours;
 * - light vehicles (obd): OBD-II mode 01 answers (ISO 15765-4, id 0x7E8) — PIDs 0x0C engine speed,
 *   0x05 coolant, 0x2F fuel level, 0x0D speed, 0x04 engine load.
 * Decoding is what a platform does with a terminal's raw frames; encoding serves the simulated
 * terminals and the tests. Values a frame marks "not available" (J1939 0xFF…) stay null.
 */

export type CanProtocol = 'j1939' | 'obd2';

export interface CanFrame {
  /** CAN identifier without the JT/T 808 flag bits. */
  id: number;
  /** 29-bit identifier (J1939) rather than 11-bit. */
  extended: boolean;
  /** 0 CAN1, 1 CAN2 (the 0x0705 channel bit). */
  channel: number;
  /** 8 bytes. */
  data: Uint8Array;
}

export interface ObdValues {
  engineRpm: number | null;
  coolantC: number | null;
  fuelPct: number | null;
  speedKmh: number | null;
  engineLoadPct: number | null;
  /** J1939 only. */
  engineHours: number | null;
}

export const EMPTY_OBD: Readonly<ObdValues> = { engineRpm: null, coolantC: null, fuelPct: null, speedKmh: null, engineLoadPct: null, engineHours: null };

const PGN = { EEC1: 61444, EEC2: 61443, ET1: 65262, DD: 65276, CCVS: 65265, HOURS: 65253 } as const;
const OBD2_RESPONSE = 0x7e8;
const PID = { LOAD: 0x04, COOLANT: 0x05, RPM: 0x0c, SPEED: 0x0d, FUEL: 0x2f } as const;

/** The PGN of a J1939 identifier (PDU1 formats keep the destination out of it). */
export function pgnOf(id: number): number {
  const pf = (id >>> 16) & 0xff;
  const dp = (id >>> 24) & 0x03;
  const ps = (id >>> 8) & 0xff;
  return (dp << 16) | (pf << 8) | (pf >= 240 ? ps : 0);
}

/** J1939 identifier of a PGN from the engine (source address 0). */
export function j1939Id(pgn: number, priority: number): number {
  return ((priority & 7) << 26) | ((pgn & 0x3ffff) << 8);
}

const u16le = (d: Uint8Array, i: number) => d[i]! | (d[i + 1]! << 8);
const u32le = (d: Uint8Array, i: number) => (d[i]! | (d[i + 1]! << 8) | (d[i + 2]! << 16)) + d[i + 3]! * 0x1000000;
const round1 = (v: number) => Math.round(v * 10) / 10;

/**
 * Which protocol a frame belongs to, and the values it carries (merged into `into`); frames of
 * neither protocol, or of PGNs / PIDs not listed above, answer null.
 */
export function decodeCanFrame(f: CanFrame, into: ObdValues): CanProtocol | null {
  const d = f.data;
  if (d.length < 8) return null;
  if (f.extended) {
    switch (pgnOf(f.id)) {
      case PGN.EEC1: {
        const raw = u16le(d, 3);
        into.engineRpm = raw >= 0xfb00 ? null : round1(raw * 0.125);
        return 'j1939';
      }
      case PGN.EEC2:
        into.engineLoadPct = d[2]! > 250 ? null : d[2]!;
        return 'j1939';
      case PGN.ET1:
        into.coolantC = d[0]! > 250 ? null : d[0]! - 40;
        return 'j1939';
      case PGN.DD:
        into.fuelPct = d[1]! > 250 ? null : round1(d[1]! * 0.4);
        return 'j1939';
      case PGN.CCVS: {
        const raw = u16le(d, 1);
        into.speedKmh = raw >= 0xfb00 ? null : round1(raw / 256);
        return 'j1939';
      }
      case PGN.HOURS: {
        const raw = u32le(d, 0);
        into.engineHours = raw >= 0xfb000000 ? null : round1(raw * 0.05);
        return 'j1939';
      }
      default:
        return null;
    }
  }
  // OBD-II single frame: length, 0x41 (mode 01 answer), PID, data A B …
  if (f.id !== OBD2_RESPONSE || d[1] !== 0x41) return null;
  const a = d[3]!;
  const b = d[4]!;
  switch (d[2]) {
    case PID.RPM:
      into.engineRpm = round1((a * 256 + b) / 4);
      return 'obd2';
    case PID.COOLANT:
      into.coolantC = a - 40;
      return 'obd2';
    case PID.FUEL:
      into.fuelPct = round1((a * 100) / 255);
      return 'obd2';
    case PID.SPEED:
      into.speedKmh = a;
      return 'obd2';
    case PID.LOAD:
      into.engineLoadPct = round1((a * 100) / 255);
      return 'obd2';
    default:
      return null;
  }
}

/** Values by protocol from a batch of frames (a 0x0705 message); a protocol without frames is absent. */
export function decodeCanFrames(frames: readonly CanFrame[]): Partial<Record<CanProtocol, ObdValues>> {
  const out: Partial<Record<CanProtocol, ObdValues>> = {};
  for (const f of frames) {
    const scratch: ObdValues = { ...EMPTY_OBD };
    const protocol = decodeCanFrame(f, scratch);
    if (!protocol) continue;
    const target = (out[protocol] ??= { ...EMPTY_OBD });
    for (const k of Object.keys(scratch) as (keyof ObdValues)[]) if (scratch[k] !== null) target[k] = scratch[k];
  }
  return out;
}

export interface EngineState {
  rpm: number;
  coolantC: number;
  fuelPct: number;
  speedKmh: number;
  loadPct: number;
  engineHours: number;
}

/** The J1939 frames (CAN1) a truck's engine broadcasts for `s`. */
export function j1939Frames(s: EngineState): CanFrame[] {
  const frame = (pgn: number, priority: number, fill: (d: Uint8Array) => void): CanFrame => {
    const data = new Uint8Array(8).fill(0xff);
    fill(data);
    return { id: j1939Id(pgn, priority), extended: true, channel: 0, data };
  };
  const rpm = Math.round(s.rpm / 0.125);
  const speed = Math.round(s.speedKmh * 256);
  const hours = Math.round(s.engineHours / 0.05);
  return [
    frame(PGN.EEC1, 3, (d) => ((d[3] = rpm & 0xff), (d[4] = rpm >> 8))),
    frame(PGN.EEC2, 3, (d) => (d[2] = Math.round(s.loadPct))),
    frame(PGN.ET1, 6, (d) => (d[0] = Math.round(s.coolantC) + 40)),
    frame(PGN.DD, 6, (d) => (d[1] = Math.round(s.fuelPct / 0.4))),
    frame(PGN.CCVS, 6, (d) => ((d[1] = speed & 0xff), (d[2] = speed >> 8))),
    frame(PGN.HOURS, 6, (d) => ((d[0] = hours & 0xff), (d[1] = (hours >> 8) & 0xff), (d[2] = (hours >> 16) & 0xff), (d[3] = (hours >>> 24) & 0xff))),
  ];
}

/** The OBD-II mode 01 answers (CAN2, the diagnostic port) for `s`. */
export function obd2Frames(s: EngineState): CanFrame[] {
  const answer = (pid: number, bytes: number[]): CanFrame => {
    const data = new Uint8Array(8).fill(0x55);
    data.set([2 + bytes.length, 0x41, pid, ...bytes]);
    return { id: OBD2_RESPONSE, extended: false, channel: 1, data };
  };
  const rpm = Math.round(s.rpm * 4);
  return [
    answer(PID.RPM, [rpm >> 8, rpm & 0xff]),
    answer(PID.COOLANT, [Math.round(s.coolantC) + 40]),
    answer(PID.FUEL, [Math.round((s.fuelPct * 255) / 100)]),
    answer(PID.SPEED, [Math.min(255, Math.round(s.speedKmh))]),
    answer(PID.LOAD, [Math.round((s.loadPct * 255) / 100)]),
  ];
}
