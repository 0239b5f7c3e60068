/** The company form's checks (mirroring the server's limits) and body. Pure. */
import { COMPANY_LIMITS } from '../../../domain/management/limits.ts';
import type { CompanyInput } from './api.ts';

export const LIMITS = COMPANY_LIMITS;

// A type alias, not an interface: @mantine/form forms take values with an implicit index signature.
export type CompanyFormValues = {
  pid: number | null;
  name: string;
  contact: string;
  phone: string;
  address: string;
  remark: string;
};

export type CompanyField = keyof CompanyFormValues;
export type CompanyFormErrors = Partial<Record<CompanyField, { key: string; params?: Record<string, number> }>>;

const PHONE = /^[0-9+\- ]+$/;

/** `topLevelAllowed`: only an administrator may create a root company (pid 0). */
export function validateCompanyForm(v: CompanyFormValues, topLevelAllowed: boolean): CompanyFormErrors {
  const e: CompanyFormErrors = {};
  if (v.pid === null || (v.pid === 0 && !topLevelAllowed)) e.pid = { key: 'required' };
  if (!v.name.trim()) e.name = { key: 'required' };
  for (const f of ['name', 'contact', 'phone', 'address', 'remark'] as const) {
    if (!e[f] && v[f].trim().length > LIMITS[f]) e[f] = { key: 'max', params: { max: LIMITS[f] } };
  }
  if (!e.phone && v.phone.trim() && !PHONE.test(v.phone.trim())) e.phone = { key: 'phoneInvalid' };
  return e;
}

export function companyFormToInput(v: CompanyFormValues): CompanyInput {
  return {
    pid: v.pid ?? 0,
    name: v.name.trim(),
    contact: v.contact.trim(),
    phone: v.phone.trim(),
    address: v.address.trim(),
    remark: v.remark.trim(),
  };
}
