/**
 * The route editor's draft and its checks (the server's rules of api.md, answered before the call so
 * the operator sees the field at once): turning points added by clicking the map, one section per pair
 * of points with its corridor width, travel-time thresholds and speed limit.
 */
import { DEFAULT_DEVIATION_SECONDS, ROUTE_LIMITS as L, type LngLat, type RouteSection } from '../../../domain/route/types.ts';

export interface RouteDraft {
  name: string;
  points: LngLat[];
  sections: RouteSection[];
  deviationSeconds: number;
  remark: string;
  vehicleIds: number[];
}

export const DEFAULT_SECTION: RouteSection = Object.freeze({ width: 50, maxSeconds: null, minSeconds: null, maxSpeed: null, overspeedSeconds: 10 });
/** Stored coordinates keep 7 decimals (≈ 1 cm). */
const round7 = (v: number) => Math.round(v * 1e7) / 1e7;

export function emptyDraft(): RouteDraft {
  return { name: '', points: [], sections: [], deviationSeconds: DEFAULT_DEVIATION_SECONDS, remark: '', vehicleIds: [] };
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

/** Removes a turning point and merges its two sections (the earlier one's settings stay). */
export function removePoint(d: RouteDraft, i: number): RouteDraft {
  const points = d.points.filter((_, k) => k !== i);
  const sections = [...d.sections];
  if (sections.length > 0) sections.splice(Math.min(i, sections.length - 1), 1);
  return { ...d, points, sections: points.length < 2 ? [] : sections.slice(0, points.length - 1) };
}

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
  });
  if (!Number.isInteger(d.deviationSeconds) || d.deviationSeconds < 0 || d.deviationSeconds > L.deviationSecondsMax) e['deviationSeconds'] = 'errors.deviationSeconds';
  return e;
}
