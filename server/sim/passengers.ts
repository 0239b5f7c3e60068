/**
 * The passenger counters and temperature terminals of simulated buses (issue 18; server/sim/CONTEXT.md).
 *
 * A bus counts at each stop: when its report goes from moving to standing with the ignition on, the front door
 * (1) uploads the boardings and the rear door (2) the alightings of that stop as JT/T 1078 0x1005 with the
 * bus-line extension (direction, station sequence, on board after the stop). Stops run 1…STOPS along the up
 * direction, then back down. Boardings follow the day's profile (morning and evening peaks, quiet nights), at
 * most what the bus holds; alightings at most who is on board, everyone at the last stop. Buses with a body
 * temperature terminal (one in three) measure up to three boarders per stop (0x0E30): about 36.2–37.1 °C, one
 * in fifty a suspected fever (37.4–38.4 °C), masks worn by most.
 *
 * Which terminals are buses: those fleet-source.ts registered from vehicles on a line (`registerBus`). Generated
 * fleets (benches, --count) have none, so their traffic stays as it was. Everything is a function of the device
 * number and the report's time, so a run is repeatable.
 */
import type { LocationInput } from '../gateway/jt808/index.ts';
import type { PassengerMessage } from '../gateway/jt808/passenger.ts';

const GMT8_MS = 8 * 3_600_000;
/** Stops of a simulated line when the vehicle's line has no stations stored. */
const DEFAULT_STOPS = 12;
/** Rated load of a 12 m bus (seats and standing); a peak stop may still overload it a little. */
const CAPACITY = 90;

interface BusState {
  stops: number;
  moving: boolean;
  seq: number;
  direction: 0 | 1;
  onboard: number;
}

const registered = new Map<string, number>();
const states = new Map<string, BusState>();

/** A terminal on a bus line with `stops` stations in the up direction (fleet-source.ts, from the database). */
export function registerBus(deviceNo: string, stops: number): void {
  registered.set(deviceNo, Math.max(2, stops || DEFAULT_STOPS));
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A repeatable number in [0, 1) for this device, time and purpose. */
function unit(deviceNo: string, t: number, salt: string): number {
  return hash(`${deviceNo}|${Math.floor(t / 1000)}|${salt}`) / 4294967296;
}

export function isSimBus(deviceNo: string): boolean {
  return registered.has(deviceNo);
}

export function hasTemperatureTerminal(deviceNo: string): boolean {
  return isSimBus(deviceNo) && hash(`${deviceNo}|thermo`) % 3 === 0;
}

/** Boardings expected at one stop in this China hour: peaks 7–9 and 17–19, little at night. */
export function hourlyDemand(hourOfDay: number): number {
  if (hourOfDay < 5 || hourOfDay >= 23) return 0.5;
  if (hourOfDay === 7 || hourOfDay === 8 || hourOfDay === 17 || hourOfDay === 18) return 14;
  if (hourOfDay === 6 || hourOfDay === 9 || hourOfDay === 16 || hourOfDay === 19) return 8;
  return 4;
}

/** The uploads a bus makes with this report (none unless it has just stopped at a station). */
export function simPassengerUploads(deviceNo: string, loc: Pick<LocationInput, 'status' | 'speed' | 'time'>): PassengerMessage[] {
  if (!isSimBus(deviceNo)) return [];
  let s = states.get(deviceNo);
  if (!s) states.set(deviceNo, (s = { stops: registered.get(deviceNo) ?? DEFAULT_STOPS, moving: false, seq: 0, direction: 0, onboard: 0 }));
  const running = (loc.status & 1) === 1;
  const moving = running && loc.speed > 5;
  const arrived = s.moving && running && loc.speed === 0;
  s.moving = moving;
  if (!arrived) return [];

  // The next stop of the line (the first after a turn-around).
  s.seq++;
  if (s.seq > s.stops) {
    s.seq = 1;
    s.direction = s.direction === 0 ? 1 : 0;
  }
  const t = Math.floor(loc.time / 1000) * 1000;
  const hour = Math.floor(((t + GMT8_MS) % 86_400_000) / 3_600_000);
  const last = s.seq === s.stops;
  const alighting = last ? s.onboard : Math.min(s.onboard, Math.round(unit(deviceNo, t, 'down') * s.onboard * 0.4));
  const afterAlighting = s.onboard - alighting;
  const demand = hourlyDemand(hour) * (0.4 + 1.2 * unit(deviceNo, t, 'up'));
  const boarding = last ? 0 : Math.min(CAPACITY + 5 - afterAlighting, Math.round(demand));
  s.onboard = afterAlighting + boarding;
  const span = { start: t - 40_000, end: t };
  const out: PassengerMessage[] = [
    { msgId: 0x1005, ...span, boarding, alighting: 0, line: { door: 1, direction: s.direction, stationSeq: s.seq, onboard: afterAlighting + boarding } },
    { msgId: 0x1005, ...span, boarding: 0, alighting, line: { door: 2, direction: s.direction, stationSeq: s.seq, onboard: s.onboard } },
  ];
  if (hasTemperatureTerminal(deviceNo)) {
    for (let i = 0; i < Math.min(3, boarding); i++) {
      const fever = unit(deviceNo, t, `fever${i}`) < 0.02;
      const celsius = fever ? 37.4 + unit(deviceNo, t, `hot${i}`) : 36.2 + 0.9 * unit(deviceNo, t, `c${i}`);
      out.push({
        msgId: 0x0e30, time: t - 30_000 + i * 5_000, kind: 0, mask: unit(deviceNo, t, `mask${i}`) < 0.85,
        celsius: Math.round(celsius * 100) / 100, mediaId: null,
      });
    }
  }
  return out;
}
