/**
 * Vehicle colours by state (domain/vehicle/state.ts codes), as RGBA bytes and as little-endian
 * Uint32 words so the per-frame colour pass is one 32-bit store per vehicle.
 */
import { VehicleState } from '../../../domain/vehicle/state.ts';

export const STATE_RGBA: Readonly<Record<VehicleState, readonly [number, number, number, number]>> = {
  [VehicleState.NeverOnline]: [150, 150, 150, 200],
  [VehicleState.Offline]: [110, 110, 110, 230],
  [VehicleState.Driving]: [34, 160, 70, 255],
  [VehicleState.Parking]: [30, 110, 220, 255],
  [VehicleState.Idling]: [240, 150, 20, 255],
};

/** Colour of vehicles with an active alarm, whatever their state. */
export const ALARM_RGBA = [220, 40, 40, 255] as const;

export const STATE_CSS: Readonly<Record<VehicleState, string>> = {
  [VehicleState.NeverOnline]: 'rgb(150,150,150)',
  [VehicleState.Offline]: 'rgb(110,110,110)',
  [VehicleState.Driving]: 'rgb(34,160,70)',
  [VehicleState.Parking]: 'rgb(30,110,220)',
  [VehicleState.Idling]: 'rgb(240,150,20)',
};

function word([r, g, b, a]: readonly number[]): number {
  // Uint32Array views are little-endian on every platform a browser runs on: bytes r, g, b, a.
  return ((a as number) << 24) | ((b as number) << 16) | ((g as number) << 8) | (r as number);
}

/** 8 entries so any byte masked with 7 indexes it; unknown codes draw grey. */
export const STATE_WORDS: Uint32Array = (() => {
  const w = new Uint32Array(8).fill(word([150, 150, 150, 200]));
  for (const s of Object.values(VehicleState)) w[s] = word(STATE_RGBA[s]);
  return w;
})();

export const ALARM_WORD = word(ALARM_RGBA) >>> 0;
