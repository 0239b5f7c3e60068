/**
 * companyId injection (spec §7): every request carries the selected company's id so lists narrow to
 * that company's subtree, unless the payload already names a companyId, is an export (`isExport`),
 * or the caller opted out with `noCompanyId`. The opt-out flag itself is never sent.
 */
export type Payload = Record<string, unknown>;

export interface InjectionInput {
  /** Query params (GET/DELETE) or JSON body (POST/PUT); anything that is not a plain object is left alone. */
  readonly payload: unknown;
  /** The selected company, or null when none is selected (then nothing is added). */
  readonly selectedCompanyId: number | null;
  /** The caller's opt-out given as a request option. */
  readonly noCompanyId?: boolean | undefined;
}

export function isPlainPayload(value: unknown): value is Payload {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A payload "has" a companyId when the field holds a value; `undefined`, `null` and '' do not count. */
function hasCompanyId(payload: Payload): boolean {
  const v = payload['companyId'];
  return v !== undefined && v !== null && v !== '';
}

/** True when the selected company's id must be added to this payload. */
export function shouldInjectCompanyId(input: InjectionInput): boolean {
  if (input.selectedCompanyId === null) return false;
  if (input.noCompanyId) return false;
  if (input.payload === undefined || input.payload === null) return true;
  if (!isPlainPayload(input.payload)) return false;
  if (input.payload['noCompanyId']) return false;
  if (input.payload['isExport']) return false;
  return !hasCompanyId(input.payload);
}

/**
 * The payload to send: a copy with `companyId` added when the rules say so and the `noCompanyId`
 * flag removed. Non-object payloads (FormData, arrays, strings) pass through unchanged.
 */
export function applyCompanyId(input: InjectionInput): unknown {
  const { payload } = input;
  if (payload !== undefined && payload !== null && !isPlainPayload(payload)) return payload;
  const inject = shouldInjectCompanyId(input);
  const out: Payload = { ...(payload ?? {}) };
  delete out['noCompanyId'];
  if (inject) out['companyId'] = input.selectedCompanyId;
  if (payload === undefined && !inject) return undefined;
  return out;
}
