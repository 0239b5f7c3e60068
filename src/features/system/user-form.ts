/**
 * The user form's values and client-side checks. They mirror the server's (server/API.md `User`)
 * so most mistakes show at once beside the field; the server stays the authority and its 400
 * message is shown too. Pure: errors are i18n keys with parameters, translated by the form.
 */
import type { UserInput } from './api.ts';
import type { User } from './types.ts';

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 64;
export const REAL_NAME_MAX = 32;
export const PHONE_MAX = 20;
export const EMAIL_MAX = 64;
export const ALLOWED_IPS_MAX = 512;

// A type alias, not an interface: @mantine/form forms take values with an implicit index signature.
export type UserFormValues = {
  username: string;
  password: string;
  realName: string;
  companyId: number | null;
  userLevel: number;
  roleIds: number[];
  phone: string;
  email: string;
  status: 0 | 1;
  /** `datetime-local` text (local time, `YYYY-MM-DDTHH:mm`), '' for never. */
  expireTime: string;
  allowedIps: string;
  geoInverse: boolean;
};

export type UserField = keyof UserFormValues;
export interface FieldError {
  key: string;
  params?: Record<string, number | string>;
  /** Already-translated text (the server's message), shown instead of `key`. */
  text?: string;
}
export type UserFormErrors = Partial<Record<UserField, FieldError>>;

const USERNAME = /^[A-Za-z0-9_.@-]+$/;
const PHONE = /^[0-9+\- ]+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** One allowed-IP entry: an IPv4 address or an IPv4 CIDR range (`10.0.0.0/8`). */
export function isIpOrCidr(entry: string): boolean {
  const [ip, bits, extra] = entry.split('/');
  if (extra !== undefined || !ip || !IPV4.test(ip)) return false;
  if (bits === undefined) return true;
  return /^\d{1,2}$/.test(bits) && Number(bits) <= 32;
}

export function emptyUserForm(companyId: number | null, userLevel: number): UserFormValues {
  return {
    username: '',
    password: '',
    realName: '',
    companyId,
    userLevel,
    roleIds: [],
    phone: '',
    email: '',
    status: 1,
    expireTime: '',
    allowedIps: '',
    // Addresses are shown by default (issue 13).
    geoInverse: true,
  };
}

/** `datetime-local` text of an epoch ms in local time. */
export function toLocalInput(ms: number | null): string {
  if (ms === null) return '';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function fromLocalInput(text: string): number | null {
  if (!text) return null;
  const ms = new Date(text).getTime();
  return Number.isNaN(ms) ? null : ms;
}

export function userToForm(u: User): UserFormValues {
  return {
    username: u.username,
    password: '',
    realName: u.realName ?? '',
    companyId: u.companyId,
    userLevel: u.userLevel,
    roleIds: [...u.roleIds],
    phone: u.phone ?? '',
    email: u.email ?? '',
    status: u.status,
    expireTime: toLocalInput(u.expireTime),
    allowedIps: u.allowedIps ?? '',
    geoInverse: u.geoInverse,
  };
}

/** Allowed-IP text normalised: entries trimmed, empties dropped, joined with ','. */
export function normaliseIps(text: string): string {
  return text
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean)
    .join(',');
}

/**
 * Checks the form. `creating` requires a password; `minLevel` is the signed-in user's own level,
 * as nobody may create a user with more rights (a lower level number) than their own.
 */
export function validateUserForm(v: UserFormValues, creating: boolean, minLevel: number): UserFormErrors {
  const e: UserFormErrors = {};
  const username = v.username.trim();
  if (!username) e.username = { key: 'validation.required' };
  else if (username.length < USERNAME_MIN || username.length > USERNAME_MAX)
    e.username = { key: 'validation.length', params: { min: USERNAME_MIN, max: USERNAME_MAX } };
  else if (!USERNAME.test(username)) e.username = { key: 'validation.username' };

  if (creating && !v.password) e.password = { key: 'validation.required' };
  else if (v.password && (v.password.length < PASSWORD_MIN || v.password.length > PASSWORD_MAX))
    e.password = { key: 'validation.length', params: { min: PASSWORD_MIN, max: PASSWORD_MAX } };

  if (v.realName.trim().length > REAL_NAME_MAX) e.realName = { key: 'validation.max', params: { max: REAL_NAME_MAX } };
  if (v.companyId === null) e.companyId = { key: 'validation.required' };
  if (!Number.isInteger(v.userLevel) || v.userLevel < 0 || v.userLevel > 2) e.userLevel = { key: 'validation.required' };
  else if (v.userLevel < minLevel) e.userLevel = { key: 'validation.levelTooHigh' };

  const phone = v.phone.trim();
  if (phone.length > PHONE_MAX) e.phone = { key: 'validation.max', params: { max: PHONE_MAX } };
  else if (phone && !PHONE.test(phone)) e.phone = { key: 'validation.phone' };

  const email = v.email.trim();
  if (email.length > EMAIL_MAX) e.email = { key: 'validation.max', params: { max: EMAIL_MAX } };
  else if (email && !EMAIL.test(email)) e.email = { key: 'validation.email' };

  if (v.expireTime && fromLocalInput(v.expireTime) === null) e.expireTime = { key: 'validation.date' };

  const ips = normaliseIps(v.allowedIps);
  if (ips.length > ALLOWED_IPS_MAX) e.allowedIps = { key: 'validation.max', params: { max: ALLOWED_IPS_MAX } };
  else {
    const bad = ips ? ips.split(',').find((s) => !isIpOrCidr(s)) : undefined;
    if (bad !== undefined) e.allowedIps = { key: 'validation.ip', params: { entry: bad } };
  }
  return e;
}

/** The body of a create (with password) or an update (password only when a reset was typed). */
export function formToInput(v: UserFormValues): UserInput {
  const input: UserInput = {
    username: v.username.trim(),
    realName: v.realName.trim(),
    companyId: v.companyId ?? 0,
    userLevel: v.userLevel,
    roleIds: [...v.roleIds],
    phone: v.phone.trim(),
    email: v.email.trim(),
    status: v.status,
    expireTime: fromLocalInput(v.expireTime),
    allowedIps: normaliseIps(v.allowedIps),
    geoInverse: v.geoInverse,
  };
  if (v.password) input.password = v.password;
  return input;
}
