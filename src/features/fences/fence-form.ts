/**
 * The fence form's checks with the contract's limits (FENCE_LIMITS in domain/fence/types.ts and the
 * server's rules in server/services/fences/api.md), worded by the screen under `err.*`. The server
 * holds the same rules (uniqueness, self-intersection are its alone): its 400 lands under the field.
 */
import { FENCE_LIMITS as L, type FenceGeometry, type FenceRule } from '../../../domain/fence/types.ts';
import type { FenceDetail, FenceInput } from './api.ts';

/** api.md: remark ≤ 200 characters. */
export const REMARK_MAX = 200;
/** JT/T 808 超速持续时间 is a BYTE. */
export const OVERSPEED_SECONDS_MAX = 255;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

export interface FenceFormValues extends Record<string, unknown> {
  name: string;
  geometry: FenceGeometry | null;
  alarmIn: boolean;
  alarmOut: boolean;
  forbidIn: boolean;
  forbidOut: boolean;
  /** '' = no limit (NumberInput gives '' when emptied). */
  maxSpeed: number | '';
  overspeedSeconds: number | '';
  startTime: string;
  endTime: string;
  remark: string;
  vehicleIds: number[];
}

export type FormProblem = { key: string; params?: Record<string, number> };

export function initialValues(fence: FenceDetail | undefined, drawn: FenceGeometry | null): FenceFormValues {
  if (!fence) {
    return { name: '', geometry: drawn, alarmIn: true, alarmOut: true, forbidIn: false, forbidOut: false, maxSpeed: '', overspeedSeconds: 10, startTime: '', endTime: '', remark: '', vehicleIds: [] };
  }
  const r = fence.rule;
  return {
    name: fence.name, geometry: drawn ?? fence.geometry, alarmIn: r.alarmIn, alarmOut: r.alarmOut, forbidIn: r.forbidIn, forbidOut: r.forbidOut,
    maxSpeed: r.maxSpeed ?? '', overspeedSeconds: r.overspeedSeconds, startTime: r.startTime ?? '', endTime: r.endTime ?? '', remark: fence.remark,
    vehicleIds: fence.vehicles.map((v) => v.vehicleId),
  };
}

function geometryProblem(g: FenceGeometry | null): FormProblem | undefined {
  if (!g) return { key: 'noGeometry' };
  if (g.shape === 'circle' && !(g.radius >= L.radiusMinM && g.radius <= L.radiusMaxM)) return { key: 'radius', params: { min: L.radiusMinM, max: L.radiusMaxM } };
  if (g.shape === 'rect' && !(g.sw[0] < g.ne[0] && g.sw[1] < g.ne[1])) return { key: 'rect' };
  if (g.shape === 'polygon' && (g.points.length < L.polygonMinPoints || g.points.length > L.polygonMaxPoints)) return { key: 'points', params: { min: L.polygonMinPoints, max: L.polygonMaxPoints } };
  return undefined;
}

const wholeIn = (v: number | '', min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

export function validateFenceForm(v: FenceFormValues): Partial<Record<keyof FenceFormValues, FormProblem>> {
  const out: Partial<Record<keyof FenceFormValues, FormProblem>> = {};
  const name = v.name.trim();
  if (!name) out.name = { key: 'required' };
  else if (name.length > L.nameMaxLength) out.name = { key: 'nameMax', params: { max: L.nameMaxLength } };
  const g = geometryProblem(v.geometry);
  if (g) out.geometry = g;
  if (v.maxSpeed !== '' && !wholeIn(v.maxSpeed, 1, L.maxSpeedKmh)) out.maxSpeed = { key: 'speed', params: { max: L.maxSpeedKmh } };
  if (v.maxSpeed !== '' && !wholeIn(v.overspeedSeconds, 0, OVERSPEED_SECONDS_MAX)) out.overspeedSeconds = { key: 'seconds' };
  const start = v.startTime.trim();
  const end = v.endTime.trim();
  if (start && !HHMM.test(start)) out.startTime = { key: 'time' };
  if (end && !HHMM.test(end)) out.endTime = { key: 'time' };
  if (!out.startTime && !out.endTime && (start === '') !== (end === '')) out[start ? 'endTime' : 'startTime'] = { key: 'timePair' };
  if (!v.alarmIn && !v.alarmOut && !v.forbidIn && !v.forbidOut && v.maxSpeed === '') out.alarmIn = { key: 'noRule' };
  if (v.remark.trim().length > REMARK_MAX) out.remark = { key: 'remarkMax', params: { max: REMARK_MAX } };
  return out;
}

export function toRule(v: FenceFormValues): FenceRule {
  const windowed = v.startTime.trim() !== '' && v.endTime.trim() !== '';
  return {
    alarmIn: v.alarmIn, alarmOut: v.alarmOut, forbidIn: v.forbidIn, forbidOut: v.forbidOut,
    maxSpeed: v.maxSpeed === '' ? null : v.maxSpeed,
    overspeedSeconds: v.overspeedSeconds === '' ? 0 : v.overspeedSeconds,
    startTime: windowed ? v.startTime.trim() : null,
    endTime: windowed ? v.endTime.trim() : null,
  };
}

/** Call only after `validateFenceForm` found nothing (the geometry is there). */
export function toInput(v: FenceFormValues): FenceInput {
  return { name: v.name.trim(), geometry: v.geometry!, rule: toRule(v), remark: v.remark.trim() };
}
