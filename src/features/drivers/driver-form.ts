/**
 * The driver form's values and their conversion to the call's input. The checks are the shared ones of
 * domain/fleet/driver.ts (`validateDriverForm`: the server's limits and patterns), so the form refuses
 * what the server would; dates are typed as China days (`YYYY-MM-DD`) and sent as the day's start.
 */
import { formatChinaDate, parseChinaDate, validateDriverForm, type DriverFormProblem, type DriverFormValues } from '../../../domain/fleet/driver.ts';
import { DRIVER_LIMITS, expiryState, type ExpiryState, type LicenceClass } from '../../../domain/fleet/limits.ts';
import type { Driver, DriverInput } from './api.ts';

export type { DriverFormValues };

export function initialValues(d: Driver | undefined, companyId: number | null): DriverFormValues {
  return d
    ? {
      companyId: d.companyId, name: d.name, licenceNo: d.licenceNo, licenceClass: d.licenceClass, licenceExpire: formatChinaDate(d.licenceExpire),
      certNo: d.certNo, certAuthority: d.certAuthority, certExpire: formatChinaDate(d.certExpire), phone: d.phone, status: d.status, remark: d.remark,
      vehicleIds: d.vehicles.map((v) => v.id),
    }
    : { companyId, name: '', licenceNo: '', licenceClass: '', licenceExpire: '', certNo: '', certAuthority: '', certExpire: '', phone: '', status: 1, remark: '', vehicleIds: [] };
}

/** The form's problems as message keys and params of the driver namespace. */
export function formProblems(v: DriverFormValues): Record<string, { key: string; params?: Record<string, number> }> {
  const out: Record<string, { key: string; params?: Record<string, number> }> = {};
  for (const [field, p] of Object.entries(validateDriverForm(v)) as [string, DriverFormProblem][]) {
    out[field] = 'max' in p ? { key: p.key, params: { max: p.max } } : { key: p.key };
  }
  return out;
}

/** Call the only after validation passed (dates parse). */
export function toInput(v: DriverFormValues): DriverInput {
  const date = (text: string) => (text.trim() === '' ? null : (parseChinaDate(text.trim()) ?? null));
  return {
    companyId: v.companyId!, name: v.name.trim(), licenceNo: v.licenceNo.trim().toUpperCase(), licenceClass: v.licenceClass as LicenceClass | '',
    licenceExpire: date(v.licenceExpire), certNo: v.certNo.trim().toUpperCase(), certAuthority: v.certAuthority.trim(), certExpire: date(v.certExpire),
    phone: v.phone.trim(), status: v.status, remark: v.remark.trim(), vehicleIds: v.vehicleIds,
  };
}

/** How the list shows a dated document: the state (domain rule) and the badge colour. */
export function expiryBadge(expire: number | null, now: number): { state: ExpiryState; color: string; date: string } {
  const state = expiryState(expire, now);
  return { state, color: state === 'expired' ? 'red' : state === 'soon' ? 'orange' : 'gray', date: formatChinaDate(expire) };
}

/** The photo limit in MB as the form states it. */
export const PHOTO_MB = DRIVER_LIMITS.photoMaxBytes / (1024 * 1024);
