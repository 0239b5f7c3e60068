/**
 * The device form's checks, with the server's limits (domain/fleet/limits.ts): the form refuses what
 * the create / update call would (12-digit number, ASCII terminal id and model ≤ 30, maker ≤ 64,
 * channels 0–37, ICCID 19–20 characters or empty, remark ≤ 200).
 */
import { DEVICE_LIMITS as L, DEVICE_NO_PATTERN, ICCID_PATTERN, type DeviceEdition } from '../../../domain/fleet/limits.ts';
import type { Device, DeviceInput } from './api.ts';

export interface DeviceFormValues extends Record<string, unknown> {
  deviceNo: string;
  terminalId: string;
  model: string;
  maker: string;
  /** '' = none (a Select value). */
  deviceTypeId: string;
  protocol: DeviceEdition;
  channelCount: number;
  simIccid: string;
  /** `2026-11-25` or ''. */
  installDate: string;
  remark: string;
}

export type FormProblem = { key: 'required' | 'max' | 'ascii' | 'deviceNoRule' | 'iccidRule' | 'channelRule'; params?: Record<string, string | number> };

export const EDITION_LABEL: Record<DeviceEdition, string> = { 2011: 'JT/T 808-2011', 2013: 'JT/T 808-2013', 2019: 'JT/T 808-2019' };

const ASCII = /^[\x20-\x7E]*$/;
const DEVICE_NO = new RegExp(DEVICE_NO_PATTERN);
const ICCID = new RegExp(ICCID_PATTERN);
const CHINA_MS = 8 * 3_600_000;

/** The China day (GMT+8) of an epoch-ms date as `YYYY-MM-DD`. */
export function dayText(ms: number | null): string {
  return ms === null ? '' : new Date(ms + CHINA_MS).toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` → epoch ms of that China day's midnight; null for '' or a malformed day. */
export function dayMs(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text.trim());
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - CHINA_MS;
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

export function initialValues(d?: Device, prefill?: Partial<DeviceFormValues>): DeviceFormValues {
  if (d) {
    return {
      deviceNo: d.deviceNo, terminalId: d.terminalId, model: d.model, maker: d.maker, deviceTypeId: d.deviceTypeId === null ? '' : String(d.deviceTypeId),
      protocol: d.protocol, channelCount: d.channelCount, simIccid: d.simIccid, installDate: dayText(d.installDate), remark: d.remark,
    };
  }
  return { deviceNo: '', terminalId: '', model: '', maker: '', deviceTypeId: '', protocol: 2013, channelCount: 0, simIccid: '', installDate: '', remark: '', ...prefill };
}

/** A terminal number typed with fewer digits is zero-padded on the left (how 808 headers carry it). */
export function normaliseDeviceNo(text: string): string {
  const t = text.trim();
  return /^[0-9]{1,12}$/.test(t) ? t.padStart(12, '0') : t;
}

export function validateDeviceForm(v: DeviceFormValues): Partial<Record<keyof DeviceInput, FormProblem>> {
  const out: Partial<Record<keyof DeviceInput, FormProblem>> = {};
  const no = v.deviceNo.trim();
  if (!no) out.deviceNo = { key: 'required' };
  else if (!DEVICE_NO.test(normaliseDeviceNo(no))) out.deviceNo = { key: 'deviceNoRule' };
  for (const [field, max] of [['terminalId', L.terminalIdMax], ['model', L.modelMax]] as const) {
    const value = v[field].trim();
    if (!ASCII.test(value)) out[field] = { key: 'ascii' };
    else if (value.length > max) out[field] = { key: 'max', params: { max } };
  }
  if (v.maker.trim().length > L.makerMax) out.maker = { key: 'max', params: { max: L.makerMax } };
  if (!Number.isInteger(v.channelCount) || v.channelCount < 0 || v.channelCount > L.channelCountMax) out.channelCount = { key: 'channelRule', params: { max: L.channelCountMax } };
  if (!ICCID.test(v.simIccid.trim())) out.simIccid = { key: 'iccidRule' };
  if (v.remark.trim().length > L.remarkMax) out.remark = { key: 'max', params: { max: L.remarkMax } };
  return out;
}

export function toInput(v: DeviceFormValues): DeviceInput {
  return {
    deviceNo: normaliseDeviceNo(v.deviceNo), terminalId: v.terminalId.trim(), model: v.model.trim(), maker: v.maker.trim(),
    deviceTypeId: v.deviceTypeId ? Number(v.deviceTypeId) : null, protocol: v.protocol, channelCount: v.channelCount,
    simIccid: v.simIccid.trim(), installDate: dayMs(v.installDate), remark: v.remark.trim(),
  };
}
