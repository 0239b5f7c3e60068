/**
 * Lines (issue 15, /information/lineManagement): the pure rules of a line's stations, shared by the
 * server's station call and the console's line editor, so the editor refuses exactly what the server would.
 *
 * A line runs in two directions, 0 up (上行) and 1 down (下行); each is an ordered list of stations
 * (name + WGS-84 position). Rules: at most `LINE_LIMITS.stationsMax` stations a direction, names 1..32
 * characters after trimming and distinct within the direction (the same stop may appear in both
 * directions), coordinates finite, inside WGS-84 ranges and not the null island (0, 0) a broken click or
 * import produces. Positions are kept to 6 decimals (≈ 0.1 m), the track format's precision.
 */
import { haversineKm } from '../track/geo.ts';
import { LINE_LIMITS } from './limits.ts';

export const LINE_DIRECTIONS = [0, 1] as const;
export type LineDirection = (typeof LINE_DIRECTIONS)[number];
export const LINE_DIRECTION_NAMES: Readonly<Record<LineDirection, readonly [zh: string, en: string]>> = { 0: ['上行', 'Up'], 1: ['下行', 'Down'] };

export interface Station {
  readonly name: string;
  /** WGS-84 degrees. */
  readonly lng: number;
  readonly lat: number;
}

export type StationProblem =
  | { readonly code: 'tooMany'; readonly max: number }
  | { readonly code: 'nameRequired'; readonly index: number }
  | { readonly code: 'nameTooLong'; readonly index: number; readonly max: number }
  | { readonly code: 'duplicateName'; readonly index: number; readonly name: string; readonly first: number }
  | { readonly code: 'badPosition'; readonly index: number };

/** A coordinate as stored: 6 decimals. */
export function roundCoord(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/** Whether a WGS-84 position can be a station: finite, in range, not (0, 0). */
export function validPosition(lng: number, lat: number): boolean {
  return Number.isFinite(lng) && Number.isFinite(lat) && lng >= -180 && lng <= 180 && lat >= -90 && lat <= 90 && !(lng === 0 && lat === 0);
}

/** A station as stored: name trimmed, coordinates rounded. */
export function normalizeStation(s: Station): Station {
  return { name: s.name.trim(), lng: roundCoord(s.lng), lat: roundCoord(s.lat) };
}

/**
 * Every problem of one direction's stations, in list order (index 0-based; messages say `index + 1`).
 * Names compare trimmed and case-insensitively.
 */
export function stationProblems(stations: readonly Station[]): StationProblem[] {
  const out: StationProblem[] = [];
  if (stations.length > LINE_LIMITS.stationsMax) out.push({ code: 'tooMany', max: LINE_LIMITS.stationsMax });
  const seen = new Map<string, number>();
  stations.forEach((s, index) => {
    const name = s.name.trim();
    if (!name) out.push({ code: 'nameRequired', index });
    else if ([...name].length > LINE_LIMITS.stationNameMax) out.push({ code: 'nameTooLong', index, max: LINE_LIMITS.stationNameMax });
    else {
      const key = name.toLowerCase();
      const first = seen.get(key);
      if (first !== undefined) out.push({ code: 'duplicateName', index, name, first });
      else seen.set(key, index);
    }
    if (!validPosition(s.lng, s.lat)) out.push({ code: 'badPosition', index });
  });
  return out;
}

/** One problem in words (server messages and the editor), `index` shown 1-based. */
export function stationProblemText(p: StationProblem, lang: 'zh' | 'en'): string {
  const zh = lang === 'zh';
  switch (p.code) {
    case 'tooMany': return zh ? `每个方向最多 ${p.max} 个站点` : `At most ${p.max} stations a direction`;
    case 'nameRequired': return zh ? `第 ${p.index + 1} 个站点缺少名称` : `Station ${p.index + 1} has no name`;
    case 'nameTooLong': return zh ? `第 ${p.index + 1} 个站点名称最多 ${p.max} 个字符` : `Station ${p.index + 1}: the name has at most ${p.max} characters`;
    case 'duplicateName': return zh ? `第 ${p.index + 1} 个站点「${p.name}」与第 ${p.first + 1} 个重名` : `Station ${p.index + 1} "${p.name}" has the same name as station ${p.first + 1}`;
    case 'badPosition': return zh ? `第 ${p.index + 1} 个站点的坐标无效` : `Station ${p.index + 1} has an invalid position`;
  }
}

/** Cumulative km at each station (0 at the first): the editor shows it beside each stop. */
export function cumulativeKm(stations: readonly Station[]): number[] {
  const out: number[] = [];
  let km = 0;
  stations.forEach((s, i) => {
    if (i > 0) {
      const a = stations[i - 1]!;
      km += haversineKm(a.lng, a.lat, s.lng, s.lat);
    }
    out.push(km);
  });
  return out;
}

/** The length of a direction in km: the great-circle distances between consecutive stations, summed. */
export function directionLengthKm(stations: readonly Station[]): number {
  return cumulativeKm(stations).at(-1) ?? 0;
}

// ── the editor's list operations (pure: each answers a new list) ──

/** A name for a new station that no station of the list has: `${base} N`, N from the list's length + 1 up. */
export function nextStationName(stations: readonly Station[], base: string): string {
  const taken = new Set(stations.map((s) => s.name.trim().toLowerCase()));
  for (let n = stations.length + 1; ; n++) {
    const name = `${base} ${n}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

/** Adds a station at `index` (default: the end). */
export function insertStation(stations: readonly Station[], station: Station, index: number = stations.length): Station[] {
  const at = Math.max(0, Math.min(stations.length, index));
  return [...stations.slice(0, at), normalizeStation(station), ...stations.slice(at)];
}

export function removeStation(stations: readonly Station[], index: number): Station[] {
  return stations.filter((_, i) => i !== index);
}

/** Moves the station at `from` to position `to` (the others keep their order). */
export function moveStation(stations: readonly Station[], from: number, to: number): Station[] {
  if (from < 0 || from >= stations.length) return [...stations];
  const target = Math.max(0, Math.min(stations.length - 1, to));
  const out = [...stations];
  const [s] = out.splice(from, 1);
  out.splice(target, 0, s!);
  return out;
}

export function renameStation(stations: readonly Station[], index: number, name: string): Station[] {
  return stations.map((s, i) => (i === index ? { ...s, name } : s));
}

/** The station at `index` dragged to a new position. */
export function relocateStation(stations: readonly Station[], index: number, lng: number, lat: number): Station[] {
  return stations.map((s, i) => (i === index ? { ...s, lng: roundCoord(lng), lat: roundCoord(lat) } : s));
}

/** The other direction drawn from this one: the same stations in reverse order (a common starting point for 下行). */
export function reversed(stations: readonly Station[]): Station[] {
  return [...stations].reverse().map((s) => ({ ...s }));
}

/**
 * Where a station clicked at (lng, lat) fits best: the position that lengthens the line least
 * (between two consecutive stations, or before the first / after the last). An editor that appends
 * to the end uses `stations.length` instead.
 */
export function bestInsertIndex(stations: readonly Station[], lng: number, lat: number): number {
  if (stations.length < 2) return stations.length;
  const d = (a: Station, x: number, y: number) => haversineKm(a.lng, a.lat, x, y);
  let best = stations.length;
  let bestCost = d(stations[stations.length - 1]!, lng, lat);
  const before = d(stations[0]!, lng, lat);
  if (before < bestCost) {
    best = 0;
    bestCost = before;
  }
  for (let i = 1; i < stations.length; i++) {
    const a = stations[i - 1]!;
    const b = stations[i]!;
    const cost = d(a, lng, lat) + d(b, lng, lat) - haversineKm(a.lng, a.lat, b.lng, b.lat);
    if (cost < bestCost) {
      best = i;
      bestCost = cost;
    }
  }
  return best;
}

/** Whether two lists hold the same stations in the same order (the editor's "unsaved changes"). */
export function sameStations(a: readonly Station[], b: readonly Station[]): boolean {
  return a.length === b.length && a.every((s, i) => {
    const o = b[i]!;
    return s.name.trim() === o.name.trim() && roundCoord(s.lng) === roundCoord(o.lng) && roundCoord(s.lat) === roundCoord(o.lat);
  });
}
