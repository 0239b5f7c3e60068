/** The track diagnosis call (server/API.md "Track diagnosis"). */
import { http } from '../../api/http.ts';

export type InvalidReason = 'range' | 'zero' | 'speed' | 'future';
export type GapBand = 'short' | 'middle' | 'long';

export interface Diagnosis {
  vehicleId: number;
  plate: string;
  date: string;
  total: number;
  truncated: boolean;
  /** One entry per stored point, in time order (columns). */
  points: {
    time: number[]; lng: number[]; lat: number[]; speed: number[]; direction: number[]; status: number[]; alarm: number[];
    invalid: (InvalidReason | null)[]; drift: (0 | 1)[]; gapKm: (number | null)[]; gap: (GapBand | null)[]; continuous: (boolean | null)[]; stop: number[];
  };
  stops: { from: number; to: number; minutes: number }[];
  metrics: {
    totalGps: number; pass: number; undetermined: number; error: number; drift: number; lossTimes: number; lossHours: number; lossKm: number;
    continuousKm: number; mileageKm: number; earlyMorningKm: number; online: boolean; operation: boolean;
  } | null;
}

export const diagnosisApi = {
  day: (vehicleId: number, date: string) => http.get<Diagnosis>('/service-monitor/trail/diagnosis', { vehicleId, date }, { noCompanyId: true }),
};

/** One point as a row of the table. */
export interface DiagnosisRow {
  i: number;
  time: number; lng: number; lat: number; speed: number; direction: number; status: number; alarm: number;
  invalid: InvalidReason | null; drift: boolean; gapKm: number | null; gap: GapBand | null; continuous: boolean | null; stop: number;
}

export function rowsOf(d: Diagnosis): DiagnosisRow[] {
  const p = d.points;
  return p.time.map((time, i) => ({
    i, time, lng: p.lng[i]!, lat: p.lat[i]!, speed: p.speed[i]!, direction: p.direction[i]!, status: p.status[i]!, alarm: p.alarm[i]!,
    invalid: p.invalid[i] ?? null, drift: p.drift[i] === 1, gapKm: p.gapKm[i] ?? null, gap: p.gap[i] ?? null, continuous: p.continuous[i] ?? null, stop: p.stop[i] ?? -1,
  }));
}

/** Whether the rules flagged the point (what the map marks and the 仅看异常 filter keeps). */
export const flagged = (r: DiagnosisRow): boolean => r.invalid !== null || r.drift || (r.gap !== null && r.continuous === false);
