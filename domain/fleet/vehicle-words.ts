/**
 * Plate colours and vehicle types as people type them in an import sheet (issue 15): the code
 * (`1`, `truck`) or the name in either language (蓝色 / Blue, 货车 / Truck; domain/fleet/limits.ts),
 * case and surrounding blanks aside; a plate colour also by its one character (蓝, 黄 …, as on 蓝牌).
 */
import { PLATE_COLOR_NAMES, PLATE_COLORS, VEHICLE_TYPE_NAMES, VEHICLE_TYPES, type PlateColor, type VehicleType } from './limits.ts';

const key = (v: string | number) => String(v).trim().toLowerCase();

function lookup<C extends string | number>(codes: readonly C[], names: Readonly<Record<C, readonly [string, string]>>, extra: (code: C, zh: string) => string[]): Map<string, C> {
  const out = new Map<string, C>();
  for (const code of codes) {
    const [zh, en] = names[code];
    for (const word of [String(code), zh, en, ...extra(code, zh)]) out.set(key(word), code);
  }
  return out;
}

const PLATE_COLOR_WORDS = lookup<PlateColor>(PLATE_COLORS, PLATE_COLOR_NAMES, (_c, zh) => (zh.endsWith('色') ? [zh.slice(0, -1)] : []));
const VEHICLE_TYPE_WORDS = lookup<VehicleType>(VEHICLE_TYPES, VEHICLE_TYPE_NAMES, () => []);

/** The plate colour a cell names (code, 蓝色, 蓝 or Blue), or undefined. */
export function plateColorOf(cell: string | number): PlateColor | undefined {
  return PLATE_COLOR_WORDS.get(key(cell));
}

/** The vehicle type a cell names (code, 货车 or Truck), or undefined. */
export function vehicleTypeOf(cell: string | number): VehicleType | undefined {
  return VEHICLE_TYPE_WORDS.get(key(cell));
}

/** What a cell may hold, for the template's notes and the refusal: `1 蓝色 Blue; 2 黄色 Yellow; …` in `lang`. */
export function plateColorChoices(lang: 'zh' | 'en'): string {
  return PLATE_COLORS.map((c) => `${c} ${PLATE_COLOR_NAMES[c][lang === 'zh' ? 0 : 1]}`).join(lang === 'zh' ? '；' : '; ');
}

export function vehicleTypeChoices(lang: 'zh' | 'en'): string {
  return VEHICLE_TYPES.map((t) => `${t} ${VEHICLE_TYPE_NAMES[t][lang === 'zh' ? 0 : 1]}`).join(lang === 'zh' ? '；' : '; ');
}
