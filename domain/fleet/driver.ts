/**
 * Drivers (issue 15, /information/driver): the rules the server's schemas, its import and the console's
 * form share beyond the limits of ./limits.ts — the patterns of the licence and certificate numbers,
 * dates as China days, and the photo check by magic bytes.
 */
import { chinaDay, DRIVER_LIMITS, LICENCE_CLASSES, PHONE_PATTERN, type LicenceClass } from './limits.ts';

/** Licence number: the holder's identity number (digits, last may be X) or a foreign licence's letters, digits and '-'. */
export const LICENCE_NO_PATTERN = '^[0-9A-Za-z-]*$';
/** Qualification certificate number as a 0x0702 card carries it: letters and digits. */
export const CERT_NO_PATTERN = '^[0-9A-Za-z]*$';
/** A date typed or written in a sheet: `YYYY-MM-DD`. */
export const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';

const DAY = 86_400_000;
const CHINA_OFFSET = 8 * 3_600_000;

/** The epoch ms at which the China day (GMT+8) holding `ms` starts: expiry dates are stored so. */
export function chinaDayStart(ms: number): number {
  return chinaDay(ms) * DAY - CHINA_OFFSET;
}

/** `2027-05-01` (a China day) → epoch ms of its start; undefined when it is not a real date. */
export function parseChinaDate(text: string): number | undefined {
  if (!new RegExp(DATE_PATTERN).test(text)) return undefined;
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const utc = Date.UTC(y, m - 1, d);
  const back = new Date(utc);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return undefined;
  return utc - CHINA_OFFSET;
}

/** Epoch ms → `2027-05-01`, the China day it falls on; '' for null. */
export function formatChinaDate(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '';
  return new Date(chinaDayStart(ms) + CHINA_OFFSET).toISOString().slice(0, 10);
}

export function isLicenceClass(v: string): v is LicenceClass {
  return (LICENCE_CLASSES as readonly string[]).includes(v);
}

/** The image type of a photo by its first bytes (JPEG FF D8 FF, PNG 89 50 4E 47 0D 0A 1A 0A), or undefined. */
export function photoMime(bytes: Uint8Array): 'image/jpeg' | 'image/png' | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((b, i) => bytes[i] === b)) return 'image/png';
  return undefined;
}

export type PhotoProblem = { readonly key: 'photoEmpty' } | { readonly key: 'photoTooLarge'; readonly max: number } | { readonly key: 'photoType' };

/** Whether a picked photo may be uploaded: a JPEG or PNG by its bytes, 1 byte .. 2 MiB. */
export function checkPhoto(bytes: Uint8Array): PhotoProblem | undefined {
  if (bytes.length === 0) return { key: 'photoEmpty' };
  if (bytes.length > DRIVER_LIMITS.photoMaxBytes) return { key: 'photoTooLarge', max: DRIVER_LIMITS.photoMaxBytes };
  if (!photoMime(bytes)) return { key: 'photoType' };
  return undefined;
}

/** The form's values as typed (dates as `YYYY-MM-DD` or ''); a type (not an interface) so it fits @mantine/form's records. */
export type DriverFormValues = {
  companyId: number | null;
  name: string;
  licenceNo: string;
  licenceClass: string;
  licenceExpire: string;
  certNo: string;
  certAuthority: string;
  certExpire: string;
  phone: string;
  status: 0 | 1;
  remark: string;
  vehicleIds: number[];
};

export type DriverFormProblem =
  | { readonly key: 'required' }
  | { readonly key: 'max'; readonly max: number }
  | { readonly key: 'pattern' }
  | { readonly key: 'date' }
  | { readonly key: 'vehiclesMax'; readonly max: number };

/** The checks the server's schema makes, for the console's form (same limits, same patterns). */
export function validateDriverForm(v: DriverFormValues): Partial<Record<keyof DriverFormValues, DriverFormProblem>> {
  const out: Partial<Record<keyof DriverFormValues, DriverFormProblem>> = {};
  const L = DRIVER_LIMITS;
  if (v.companyId === null) out.companyId = { key: 'required' };
  const name = v.name.trim();
  if (!name) out.name = { key: 'required' };
  else if (name.length > L.nameMax) out.name = { key: 'max', max: L.nameMax };
  const text = (field: 'licenceNo' | 'certNo' | 'certAuthority' | 'phone' | 'remark', max: number, pattern?: string) => {
    const value = v[field].trim();
    if (value.length > max) out[field] = { key: 'max', max };
    else if (pattern && !new RegExp(pattern).test(value)) out[field] = { key: 'pattern' };
  };
  text('licenceNo', L.licenceNoMax, LICENCE_NO_PATTERN);
  text('certNo', L.certNoMax, CERT_NO_PATTERN);
  text('certAuthority', L.certAuthorityMax);
  text('phone', L.phoneMax, PHONE_PATTERN);
  text('remark', L.remarkMax);
  if (v.licenceClass !== '' && !isLicenceClass(v.licenceClass)) out.licenceClass = { key: 'pattern' };
  for (const field of ['licenceExpire', 'certExpire'] as const) {
    if (v[field].trim() !== '' && parseChinaDate(v[field].trim()) === undefined) out[field] = { key: 'date' };
  }
  if (v.vehicleIds.length > L.vehiclesMax) out.vehicleIds = { key: 'vehiclesMax', max: L.vehiclesMax };
  return out;
}
