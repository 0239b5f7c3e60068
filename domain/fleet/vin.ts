/**
 * Vehicle identification number (VIN, GB 16735 / ISO 3779): 17 characters of digits and capital
 * letters other than I, O and Q, with the check digit in position 9 (GB 16735-2019 makes it
 * mandatory for every vehicle made or sold in China). The spec requires the VIN on every vehicle.
 */

const VALUES: Record<string, number> = {
  A: 1, B: 2, C: 3, D: 4, E: 5, F: 6, G: 7, H: 8, J: 1, K: 2, L: 3, M: 4, N: 5, P: 7, R: 9,
  S: 2, T: 3, U: 4, V: 5, W: 6, X: 7, Y: 8, Z: 9,
};
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

/** Characters a VIN may hold. */
export const VIN_PATTERN = '^[0-9A-HJ-NPR-Z]{17}$';

export type VinProblem = 'length' | 'characters' | 'checkDigit';

/** The check digit ('0'–'9' or 'X') a VIN of valid characters must carry in position 9. */
export function vinCheckDigit(vin: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const c = vin[i]!;
    sum += (c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : VALUES[c] ?? 0) * WEIGHTS[i]!;
  }
  const r = sum % 11;
  return r === 10 ? 'X' : String(r);
}

/** Why a VIN (already upper-cased and trimmed) is not valid, or undefined when it is. */
export function vinProblem(vin: string): VinProblem | undefined {
  if (vin.length !== 17) return 'length';
  if (!new RegExp(VIN_PATTERN).test(vin)) return 'characters';
  if (vin[8] !== vinCheckDigit(vin)) return 'checkDigit';
  return undefined;
}

/** A VIN as typed → as stored: trimmed and upper-cased. */
export function normalizeVin(raw: string): string {
  return raw.trim().toUpperCase();
}

export const VIN_MESSAGES: Readonly<Record<VinProblem, readonly [zh: string, en: string]>> = {
  length: ['车架号(VIN)须为17位', 'The VIN must be 17 characters'],
  characters: ['车架号(VIN)只能包含数字和除 I、O、Q 外的大写字母', 'The VIN may hold only digits and capital letters other than I, O and Q'],
  checkDigit: ['车架号(VIN)第9位校验位不正确', 'The VIN check digit (9th character) is wrong'],
};
