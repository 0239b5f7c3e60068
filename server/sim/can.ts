/**
 * The CAN data of a simulated terminal (JT/T 808 0x0705): every 30 s while the engine runs, one
 * upload with the truck's J1939 broadcast frames (CAN1) and the OBD-II mode 01 answers of the
 * diagnostic port (CAN2), both describing the same engine (domain/obd/can.ts encodes them):
 * engine speed from the road speed (idle 650 rpm, ≈ 14 rpm per km/h up to 2,100), coolant at
 * operating temperature once running, fuel level = the location report's fuel over the tank,
 * load from the speed, engine hours growing ≈ 8 h a day from a per-device base.
 */
import { j1939Frames, obd2Frames, type EngineState } from '../../domain/obd/can.ts';
import type { CanDataUpload } from '../gateway/jt808/can.ts';
import type { LocationInput } from '../gateway/jt808/index.ts';

const INTERVAL_MS = 30_000;
const lastSent = new Map<string, number>();
const DAY_MS = 86_400_000;
const GMT8_MS = 8 * 3_600_000;

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The engine a location report implies. */
export function engineOf(deviceNo: string, tankLitres: number, loc: Pick<LocationInput, 'status' | 'speed' | 'time'> & { fuel?: number | undefined }): EngineState {
  const running = (loc.status & 1) === 1;
  const speed = running ? loc.speed : 0;
  return {
    rpm: running ? Math.min(2100, speed > 0 ? 900 + speed * 14 : 650) : 0,
    coolantC: running ? (speed > 0 ? 88 : 84) : 45,
    fuelPct: loc.fuel === undefined ? 0 : Math.min(100, (loc.fuel / tankLitres) * 100),
    speedKmh: speed,
    loadPct: running ? Math.min(95, 18 + speed * 0.7) : 0,
    engineHours: 2000 + (hash(deviceNo) % 18000) + (loc.time - Date.UTC(2024, 0, 1)) / (3 * 3_600_000),
  };
}

/** The 0x0705 to send with this report, or null (engine off, or sent less than 30 s ago). */
export function simCanData(deviceNo: string, tankLitres: number, loc: LocationInput): CanDataUpload | null {
  if ((loc.status & 1) === 0) return null;
  const last = lastSent.get(deviceNo) ?? -Infinity;
  if (loc.time - last < INTERVAL_MS) return null;
  lastSent.set(deviceNo, loc.time);
  const engine = engineOf(deviceNo, tankLitres, loc);
  const frames = [...j1939Frames(engine), ...obd2Frames(engine)];
  return {
    msgId: 0x0705,
    receiveMsOfDay: (((loc.time + GMT8_MS) % DAY_MS) + DAY_MS) % DAY_MS,
    items: frames.map((f) => ({ channel: f.channel, extended: f.extended, averaged: false, id: f.id, data: f.data })),
  };
}
