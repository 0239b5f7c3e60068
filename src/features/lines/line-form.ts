/**
 * The line form's checks with the server's limits (domain/fleet/limits.ts LINE_LIMITS): name 1..32
 * (not blank), code ≤ 16, remark ≤ 200. Uniqueness is the server's (409 under the field).
 */
import { LINE_LIMITS as L } from '../../../domain/fleet/limits.ts';
import type { Line, LineInput } from './api.ts';

export interface LineFormValues extends Record<string, unknown> {
  name: string;
  code: string;
  remark: string;
}

export type FormProblem = { key: 'required' | 'max'; params?: Record<string, number> };

export function initialValues(line?: Line): LineFormValues {
  return line ? { name: line.name, code: line.code, remark: line.remark } : { name: '', code: '', remark: '' };
}

export function validateLineForm(v: LineFormValues): Partial<Record<keyof LineInput, FormProblem>> {
  const out: Partial<Record<keyof LineInput, FormProblem>> = {};
  const name = v.name.trim();
  if (!name) out.name = { key: 'required' };
  else if (name.length > L.nameMax) out.name = { key: 'max', params: { max: L.nameMax } };
  if (v.code.trim().length > L.codeMax) out.code = { key: 'max', params: { max: L.codeMax } };
  if (v.remark.trim().length > L.remarkMax) out.remark = { key: 'max', params: { max: L.remarkMax } };
  return out;
}

export function toInput(v: LineFormValues): LineInput {
  return { name: v.name.trim(), code: v.code.trim(), remark: v.remark.trim() };
}
