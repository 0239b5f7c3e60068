/**
 * The route editor's draft and its checks (the server's rules of api.md, answered before the call so
 * the operator sees the field at once): turning points added by clicking the map, one section per pair
 * of points with its corridor width, travel-time thresholds and speed limit (day and night); the route's
 * daily time window; key points (turning points to reach within a time window, 13011).
 */
import { minutesOfDay } from '../../../domain/fence/geometry.ts';
import { DEFAULT_DEVIATION_SECONDS, ROUTE_LIMITS as L, type LngLat, type RouteKeyPoint, type RouteSection } from '../../../domain/route/types.ts';

export interface RouteDraft {
  name: string;
  points: LngLat[];
  sections: RouteSection[];
  deviationSeconds: number;
  /** The daily window 'HH:mm' (both null: always). */
  startTime: string | null;
  endTime: string | null;
  keyPoints: RouteKeyPoint[];
  remark: string;
  vehicleIds: number[];
}

/** A key point's window when first ticked (the operator edits it). */
export const DEFAULT_KEY_WINDOW = Object.freeze({ arriveFrom: '08:00', arriveBy: '18:00' });

export const DEFAULT_SECTION: RouteSection = Object.freeze({ width: 50, maxSeconds: null, minSeconds: null, maxSpeed: null, overspeedSeconds: 10, nightMaxSpeed: null });
/** Stored coordinates keep 7 decimals (≈ 1 cm). */
const round7 = (v: number) => Math.round(v * 1e7) / 1e7;

export function emptyDraft(): RouteDraft {
  return { name: '', points: [], sections: [], deviationSeconds: DEFAULT_DEVIATION_SECONDS, startTime: null, endTime: null, keyPoints: [], remark: '', vehicleIds: [] };
}

/** A turning point at the end; the new section copies the previous one's settings (a road keeps its width). */
export function addPoint(d: RouteDraft, lng: number, lat: number): RouteDraft {
  if (d.points.length >= L.maxPoints) return d;
  const points: LngLat[] = [...d.points, [round7(lng), round7(lat)]];
  const sections = points.length < 2 ? d.sections : [...d.sections, { ...(d.sections[d.sections.length - 1] ?? DEFAULT_SECTION) }];
  return { ...d, points, sections };
}

export function movePoint(d: RouteDraft, i: number, lng: number, lat: number): RouteDraft {
  return { ...d, points: d.points.map((p, k) => (k === i ? [round7(lng), round7(lat)] : p)) };
}

/** Removes a turning point and merges its two sections (the earlier one's settings stay); its key point goes, later ones follow their point. */
export function removePoint(d: RouteDraft, i: number): RouteDraft {
  const points = d.points.filter((_, k) => k !== i);
  const sections = [...d.sections];
  if (sections.length > 0) sections.splice(Math.min(i, sections.length - 1), 1);
  const keyPoints = d.keyPoints.filter((k) => k.point !== i).map((k) => (k.point > i ? { ...k, point: k.point - 1 } : k));
  return { ...d, points, sections: points.length < 2 ? [] : sections.slice(0, points.length - 1), keyPoints };
}

/** Ticks (with the default window) or unticks turning point i as a key point; the list stays in point order. */
export function toggleKeyPoint(d: RouteDraft, i: number, on: boolean): RouteDraft {
  const rest = d.keyPoints.filter((k) => k.point !== i);
  const keyPoints = on ? [...rest, { point: i, ...DEFAULT_KEY_WINDOW }].sort((a, b) => a.point - b.point) : rest;
  return { ...d, keyPoints };
}

export function setKeyPoint(d: RouteDraft, i: number, patch: Partial<Pick<RouteKeyPoint, 'arriveFrom' | 'arriveBy'>>): RouteDraft {
  return { ...d, keyPoints: d.keyPoints.map((k) => (k.point === i ? { ...k, ...patch } : k)) };
}

const badTime = (v: string) => !Number.isFinite(minutesOfDay(v));

export function setSection(d: RouteDraft, i: number, patch: Partial<RouteSection>): RouteDraft {
  return { ...d, sections: d.sections.map((s, k) => (k === i ? { ...s, ...patch } : s)) };
}

/** Field → message key (i18n of the screen), empty when the draft may be saved. */
export function validateDraft(d: RouteDraft): Record<string, string> {
  const e: Record<string, string> = {};
  const name = d.name.trim();
  if (name.length === 0) e['name'] = 'errors.nameRequired';
  else if (name.length > L.nameMaxLength) e['name'] = 'errors.nameTooLong';
  if (d.points.length < L.minPoints) e['points'] = 'errors.tooFewPoints';
  if (d.points.length > L.maxPoints) e['points'] = 'errors.tooManyPoints';
  d.sections.forEach((s, i) => {
    if (!Number.isInteger(s.width) || s.width < L.widthMinM || s.width > L.widthMaxM) e[`sections.${i}.width`] = 'errors.width';
    if (s.minSeconds !== null && s.maxSeconds !== null && s.minSeconds >= s.maxSeconds) e[`sections.${i}.minSeconds`] = 'errors.minOverMax';
    if (s.maxSpeed !== null && (s.maxSpeed < 1 || s.maxSpeed > L.maxSpeedKmh)) e[`sections.${i}.maxSpeed`] = 'errors.maxSpeed';
    const night = s.nightMaxSpeed ?? null;
    if (night !== null && s.maxSpeed === null) e[`sections.${i}.nightMaxSpeed`] = 'errors.nightNeedsMax';
    else if (night !== null && s.maxSpeed !== null && (night < 1 || night > s.maxSpeed)) e[`sections.${i}.nightMaxSpeed`] = 'errors.nightOverMax';
  });
  const start = d.startTime ?? '', end = d.endTime ?? '';
  if (start !== '' && badTime(start)) e['startTime'] = 'errors.timeFormat';
  if (end !== '' && badTime(end)) e['endTime'] = 'errors.timeFormat';
  if ((start === '') !== (end === '')) e[start === '' ? 'startTime' : 'endTime'] = 'errors.windowPair';
  else if (start !== '' && start === end) e['endTime'] = 'errors.windowEmpty';
  d.keyPoints.forEach((k) => {
    if (badTime(k.arriveFrom)) e[`keyPoints.${k.point}.arriveFrom`] = 'errors.timeFormat';
    if (badTime(k.arriveBy)) e[`keyPoints.${k.point}.arriveBy`] = 'errors.timeFormat';
    else if (k.arriveFrom === k.arriveBy) e[`keyPoints.${k.point}.arriveBy`] = 'errors.windowEmpty';
  });
  if (!Number.isInteger(d.deviationSeconds) || d.deviationSeconds < 0 || d.deviationSeconds > L.deviationSecondsMax) e['deviationSeconds'] = 'errors.deviationSeconds';
  return e;
}
