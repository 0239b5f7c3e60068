/**
 * The device-type form's checks, with the server's limits (domain/device-type/limits.ts): a form
 * refuses what the save call would (name 1..32, maker id and model printable ASCII and no wider than
 * the protocol edition registers, remark ≤ 200).
 */
import { DEVICE_TYPE_LIMITS as L, registrationFieldTooWide, type DeviceProtocol } from '../../../domain/device-type/limits.ts';
import type { DeviceType, DeviceTypeInput } from './api.ts';

export interface DeviceTypeFormValues extends Record<string, unknown> {
  devTypeName: string;
  protocol: DeviceProtocol;
  makerId: string;
  model: string;
  remark: string;
}

export type FormProblem = { key: 'required' | 'max' | 'ascii' | 'registration'; params?: Record<string, string | number> };

export const PROTOCOL_LABEL: Record<DeviceProtocol, string> = { 2013: 'JT/T 808-2013', 2019: 'JT/T 808-2019' };

const ASCII = /^[\x20-\x7E]*$/;

export function initialValues(d?: DeviceType): DeviceTypeFormValues {
  return d
    ? { devTypeName: d.devTypeName, protocol: d.protocol, makerId: d.makerId, model: d.model, remark: d.remark }
    : { devTypeName: '', protocol: 2019, makerId: '', model: '', remark: '' };
}

export function validateDeviceTypeForm(v: DeviceTypeFormValues): Partial<Record<keyof DeviceTypeInput, FormProblem>> {
  const out: Partial<Record<keyof DeviceTypeInput, FormProblem>> = {};
  const name = v.devTypeName.trim();
  if (!name) out.devTypeName = { key: 'required' };
  else if (name.length > L.nameMax) out.devTypeName = { key: 'max', params: { max: L.nameMax } };
  for (const field of ['makerId', 'model'] as const) {
    const value = v[field].trim();
    if (!ASCII.test(value)) out[field] = { key: 'ascii' };
    else {
      const max = registrationFieldTooWide(v.protocol, field, value);
      if (max !== undefined) out[field] = { key: 'registration', params: { protocol: PROTOCOL_LABEL[v.protocol], max } };
    }
  }
  if (v.remark.trim().length > L.remarkMax) out.remark = { key: 'max', params: { max: L.remarkMax } };
  return out;
}

export function toInput(v: DeviceTypeFormValues): DeviceTypeInput {
  return { devTypeName: v.devTypeName.trim(), protocol: v.protocol, makerId: v.makerId.trim(), model: v.model.trim(), remark: v.remark.trim() };
}
