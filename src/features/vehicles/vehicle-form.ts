/**
 * The vehicle form's checks, with the server's rules (domain/fleet): a form refuses what the create
 * and update calls would — plate 1..16, the VIN of 17 characters with its check digit (checked live,
 * the same function as the server), remark ≤ 200, channel names ≤ 16, channel count 0..37.
 */
import { DEVICE_LIMITS, VEHICLE_LIMITS as L } from '../../../domain/fleet/limits.ts';
import { normalizeVin, vinProblem, type VinProblem } from '../../../domain/fleet/vin.ts';
import type { Vehicle, VehicleInput } from './api.ts';

/** Server: resources/vehicles.ts CHANNEL_NAME_MAX. */
export const CHANNEL_NAME_MAX = 16;

export interface VehicleFormValues extends Record<string, unknown> {
  vehiidno: string;
  plateColor: number;
  vin: string;
  vehicleType: string;
  status: number;
  /** 'YYYY-MM-DD' (a China day) or ''. */
  insuranceExpire: string;
  inspectionExpire: string;
  remark: string;
  deviceNo: string | null;
  lineId: number | null;
  channelCount: number;
  /** Names of channels 1..channelCount (longer arrays keep names typed before the count went down). */
  channelNames: string[];
  driverIds: number[];
}

export type FormProblem = { key: 'required' | 'max' | 'vinLength' | 'vinCharacters' | 'vinCheckDigit'; params?: Record<string, string | number> };

const CHINA_OFFSET_MS = 8 * 3_600_000;

/** Epoch ms of a China day's start → 'YYYY-MM-DD'; null → ''. */
export function dayText(ms: number | null): string {
  return ms === null ? '' : new Date(ms + CHINA_OFFSET_MS).toISOString().slice(0, 10);
}

/** 'YYYY-MM-DD' → epoch ms of that China day's start; '' or a malformed text → null. */
export function dayMs(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) return null;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - CHINA_OFFSET_MS;
}

export function initialValues(v?: Vehicle): VehicleFormValues {
  if (!v) {
    return {
      vehiidno: '', plateColor: 1, vin: '', vehicleType: '', status: 1, insuranceExpire: '', inspectionExpire: '', remark: '',
      deviceNo: null, lineId: null, channelCount: 0, channelNames: [], driverIds: [],
    };
  }
  const video = v.channels.filter((c) => c.kind === 'video');
  const count = video.reduce((max, c) => Math.max(max, c.channel), 0);
  const names = Array.from({ length: count }, (_, i) => video.find((c) => c.channel === i + 1)?.name ?? '');
  return {
    vehiidno: v.vehiidno, plateColor: v.plateColor, vin: v.vin, vehicleType: v.vehicleType, status: v.status,
    insuranceExpire: dayText(v.insuranceExpire), inspectionExpire: dayText(v.inspectionExpire), remark: v.remark,
    deviceNo: v.deviceNo, lineId: v.lineId, channelCount: count, channelNames: names, driverIds: v.driverIds,
  };
}

const VIN_KEYS: Record<VinProblem, FormProblem['key']> = { length: 'vinLength', characters: 'vinCharacters', checkDigit: 'vinCheckDigit' };

/** The VIN's problem as the form words it, or undefined (empty: required). */
export function vinFormProblem(raw: string): FormProblem | undefined {
  const vin = normalizeVin(raw);
  if (!vin) return { key: 'required' };
  const p = vinProblem(vin);
  return p ? { key: VIN_KEYS[p] } : undefined;
}

export function validateVehicleForm(v: VehicleFormValues): Partial<Record<string, FormProblem>> {
  const out: Partial<Record<string, FormProblem>> = {};
  const plate = v.vehiidno.trim();
  if (!plate) out.vehiidno = { key: 'required' };
  else if (plate.length > L.plateMax) out.vehiidno = { key: 'max', params: { max: L.plateMax } };
  const vin = vinFormProblem(v.vin);
  if (vin) out.vin = vin;
  if (v.remark.trim().length > L.remarkMax) out.remark = { key: 'max', params: { max: L.remarkMax } };
  for (let i = 0; i < v.channelCount; i++) {
    if ((v.channelNames[i] ?? '').trim().length > CHANNEL_NAME_MAX) out[`channelNames.${i}`] = { key: 'max', params: { max: CHANNEL_NAME_MAX } };
  }
  return out;
}

/** The call's body: channels 1..count with their names (video), dates as China-day starts. */
export function toInput(v: VehicleFormValues): VehicleInput {
  const count = Math.max(0, Math.min(DEVICE_LIMITS.channelCountMax, Math.trunc(v.channelCount)));
  return {
    vehiidno: v.vehiidno.trim(), plateColor: v.plateColor, vin: normalizeVin(v.vin), vehicleType: v.vehicleType, status: v.status,
    insuranceExpire: dayMs(v.insuranceExpire), inspectionExpire: dayMs(v.inspectionExpire), remark: v.remark.trim(), deviceNo: v.deviceNo, lineId: v.lineId,
    channels: Array.from({ length: count }, (_, i) => ({ channel: i + 1, kind: 'video' as const, name: (v.channelNames[i] ?? '').trim() })),
    driverIds: v.driverIds,
  };
}

/** Spec §5: batch actions take at most this many rows (modifyVehiCompany's `ids`). */
export const MOVE_MAX = L.moveMax;

/** Why a move of `n` selected vehicles cannot start, or undefined. */
export function moveProblem(n: number): 'moveNone' | 'moveTooMany' | undefined {
  if (n === 0) return 'moveNone';
  return n > MOVE_MAX ? 'moveTooMany' : undefined;
}
