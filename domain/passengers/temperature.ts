/**
 * Body-temperature rules (issue 18, /report/temperatureReport): measurements from the buses' temperature
 * terminals (0x0E30). Suspected fever from 37.3 °C (the national screening line for body temperature);
 * the normal rate is the share of measurements below it. The report's period is at most 7 days (spec §5).
 */
export const FEVER_CELSIUS = 37.3;
export const TEMPERATURE_MAX_DAYS = 7;

export interface TemperatureMeasurement {
  readonly time: number;
  /** 0 forehead, 1 wrist, 2 ear. */
  readonly kind: number;
  readonly mask: boolean | null;
  readonly celsius: number;
}

export const isFever = (celsius: number): boolean => celsius >= FEVER_CELSIUS - 1e-9;

export interface TemperatureFigures {
  count: number;
  fever: number;
  normal: number;
  /** % of measurements below the fever line, one decimal; null without measurements. */
  normalRate: number | null;
  masked: number;
  maxCelsius: number | null;
}

export function temperatureFigures(list: readonly TemperatureMeasurement[]): TemperatureFigures {
  let fever = 0;
  let masked = 0;
  let max: number | null = null;
  for (const m of list) {
    if (isFever(m.celsius)) fever++;
    if (m.mask === true) masked++;
    max = max === null ? m.celsius : Math.max(max, m.celsius);
  }
  const count = list.length;
  return { count, fever, normal: count - fever, normalRate: count > 0 ? Math.round(((count - fever) / count) * 1000) / 10 : null, masked, maxCelsius: max };
}
